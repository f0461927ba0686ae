/**
 * Connection strings of the team catalog (`postgres://user:password@host:port/db?host=/socket`,
 * libpq's URI form, postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING). The password is
 * never printed: every message that names the database goes through {@link maskUrl} or
 * {@link maskSecretsIn}. The password comes from the URL or `PGPASSWORD` (node-postgres reads that
 * variable itself); Sepia stores neither.
 */
import { SepiaError } from '../../shared/api'

/** True when `text` is a PostgreSQL connection URL (`postgres://` or `postgresql://`). */
export function isPostgresUrl(text: unknown): text is string {
  return typeof text === 'string' && /^postgres(ql)?:\/\//i.test(text)
}

const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^:@/?#]*):([^@/?#]*)@/i

/** The password of `url` (userinfo or a `password=` parameter), or undefined. */
function passwordOf(url: string): string | undefined {
  const m = USERINFO.exec(url)
  if (m && m[3]) return m[3]
  const q = /[?&]password=([^&#]*)/i.exec(url)
  return q?.[1] || undefined
}

/** `url` with its password (userinfo or a `password=` parameter) replaced by `***`. */
export function maskUrl(url: string): string {
  return url.replace(USERINFO, (_m, scheme: string, user: string, pw: string) => (pw ? `${scheme}${user}:***@` : `${scheme}${user}@`)).replace(/([?&]password=)[^&#]*/gi, '$1***')
}

/**
 * `text` with the password of `url` (and `PGPASSWORD`'s value) replaced by `***`, and any
 * connection URL in it masked: for error messages of the driver, which may quote what it was given.
 */
export function maskSecretsIn(text: string, url?: string): string {
  let out = text.replace(/postgres(?:ql)?:\/\/[^\s'"]+/gi, (m) => maskUrl(m))
  const secrets: string[] = []
  const pw = url ? passwordOf(url) : undefined
  if (pw) {
    secrets.push(pw)
    try {
      secrets.push(decodeURIComponent(pw))
    } catch {
      // not percent-encoded
    }
  }
  if (process.env.PGPASSWORD) secrets.push(process.env.PGPASSWORD)
  for (const s of secrets) if (s.length >= 1) out = out.split(s).join('***')
  return out
}

/** Check a `--to`/`--catalog` value; rejects `BAD_ARGUMENT` (with the value masked) when it is not a postgres URL. */
export function checkPostgresUrl(url: unknown, option: string): string {
  if (isPostgresUrl(url)) return url
  const shown = typeof url === 'string' ? maskUrl(url) : String(url)
  throw new SepiaError({ code: 'BAD_ARGUMENT', message: `${option} takes a PostgreSQL connection URL (postgres://user@host:5432/db), not "${shown}".` })
}

/** An error from the driver or the server as a {@link SepiaError} whose message names the masked URL and never the password. */
export function teamError(e: unknown, url: string, doing: string): SepiaError {
  if (e instanceof SepiaError) return new SepiaError({ code: e.code, message: maskSecretsIn(e.message, url) })
  const raw = e instanceof Error ? e.message : String(e)
  return new SepiaError({ code: 'READ_FAILED', message: `Sepia could not ${doing} the team catalog at ${maskUrl(url)}: ${maskSecretsIn(raw, url)}` })
}
