/**
 * The team catalog from a terminal (issue 20):
 *
 *   sepia push --to postgres://... [--home DIR] [--machine NAME] [--json]
 *   sepia serve --catalog postgres://... [--port N]     (src/cli/serve.ts serves it)
 *
 * The connection URL's password (or `PGPASSWORD`, which the driver reads) is never printed:
 * messages name the URL with its password masked (src/main/team/url.ts).
 */
import { SepiaError } from '../shared/api'
import { checkPostgresUrl, maskSecretsIn } from '../main/team/url'
import { plural } from '../shared/plural'

/** Usage lines of the team commands (for the CLI's help). */
export const TEAM_USAGE = `  sepia push  --to postgres://... [--home DIR] [--machine NAME] [--json]
                                                send this home's catalog (masked) to a team catalog on PostgreSQL
  sepia serve --catalog postgres://... [--port N] serve the app on a team catalog, read-only
`

/** Options of {@link runPush}. */
export interface PushCliOptions {
  to?: string
  homes: string[]
  ownHome: string
  machine?: string
  json: boolean
}

/** `sepia push`. Resolves the exit code (2: bad usage); a failure rejects with the URL masked. */
export async function runPush(o: PushCliOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  if (!o.to) {
    err.write(`sepia push needs --to postgres://user@host:5432/db (the password from the URL or PGPASSWORD).\n`)
    return 2
  }
  if (o.homes.length > 1) {
    err.write('sepia push sends one home at a time: give one --home (run it once per home, each with its own --machine).\n')
    return 2
  }
  const url = checkPostgresUrl(o.to, '--to')
  // Imported here: the PostgreSQL driver is loaded only by the command that uses it (CLI start-up).
  const { pushHome, pushSummary } = await import('../main/team/push')
  try {
    const result = await pushHome({
      url,
      home: o.homes[0] ?? o.ownHome,
      ...(o.machine !== undefined ? { machine: o.machine } : {}),
      onProgress: o.json ? undefined : (done, total) => err.write(`  ${done}/${plural(total, 'session')} sent\n`),
    })
    out.write(o.json ? JSON.stringify(result, null, 2) + '\n' : `${pushSummary(result)}\n`)
    return 0
  } catch (e) {
    const se = SepiaError.from(e)
    throw new SepiaError({ code: se.code, message: maskSecretsIn(se.message, url) })
  }
}
