/**
 * "Report a problem": a masked copy of one session file that a user can attach to a bug report.
 * Sepia never sends it anywhere. The copy keeps the file's structure (same lines, same JSON
 * shape) and replaces:
 * - secrets, with the markers of src/main/secrets (`sk-a•••• (Anthropic API key)`);
 * - the home folder paths given (also in their JSON-escaped Windows form) with `~`;
 * - user names in home-like paths (`/Users/<name>`, `/home/<name>`, `C:\Users\<name>`, also
 *   with JSON-escaped backslashes and `-Users-<name>-` as in Claude Code project folder names),
 *   and the home folders' own names, with `user`.
 * Text files only (a SQLite store is refused: its pages cannot be masked without rewriting it).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { SepiaError } from '../../shared/api'
import type { ProblemReport } from '../../shared/health'
import { maskText } from '../secrets'

const MAX_BYTES = 64 << 20

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** `text` with home paths and user names replaced; counts the replacements. */
export function anonymize(text: string, homes: readonly string[]): { text: string; count: number } {
  let count = 0
  let out = text
  const sub = (re: RegExp, to: string | ((...m: string[]) => string)): void => {
    out = out.replace(re, (...m: string[]) => {
      count++
      return typeof to === 'string' ? to : to(...m)
    })
  }
  const names = new Set<string>()
  for (const h of homes) {
    const clean = h.replace(/[\\/]+$/, '')
    if (clean.length < 2) continue
    const name = basename(clean.replace(/\\/g, '/'))
    if (name.length >= 3) names.add(name)
    for (const form of new Set([clean, clean.replace(/\\/g, '\\\\')])) sub(new RegExp(escapeRe(form) + '(?![\\w.-])', 'g'), '~')
  }
  // User names in home-like paths, whatever the home was on the machine that wrote the file.
  sub(/(\/Users\/|\/home\/|[A-Za-z]:(?:\\\\|\\|\/)Users(?:\\\\|\\|\/))(?!user(?![\w.-]))([^/\\"\s]+)/g, (_m, pre) => `${pre}user`)
  sub(/(-Users-|-home-)(?!user-)([A-Za-z0-9_.]+)(?=-)/g, (_m, pre) => `${pre}user`)
  for (const name of names) if (!['user', 'home', 'root'].includes(name)) sub(new RegExp(`(?<![\\w.-])${escapeRe(name)}(?![\\w-])`, 'g'), 'user')
  return { text: out, count }
}

/**
 * Write the masked copy of `path` into `outDir` (created if missing) as
 * `sepia-report-<ms>-<name>`. Never overwrites. Rejects `NOT_FOUND` (no such file) and
 * `BAD_ARGUMENT` (not a text file, or larger than 64 MiB).
 */
export async function writeProblemReport(path: string, outDir: string, homes: readonly string[], now: number): Promise<ProblemReport> {
  let buf: Buffer
  try {
    buf = await readFile(path)
  } catch {
    throw new SepiaError({ code: 'NOT_FOUND', message: `The file ${path} could not be read.`, path })
  }
  if (buf.length > MAX_BYTES) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `${path} is larger than 64 MiB; report a problem with a smaller file.`, path })
  if (buf.subarray(0, 8192).includes(0)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `${path} is not a text file (a database?); Sepia can only mask text files.`, path })
  const masked = maskText(buf.toString('utf8'))
  const anon = anonymize(masked.text, homes)
  await mkdir(outDir, { recursive: true })
  const name = anonymize(basename(path), homes).text
  const out = join(outDir, `sepia-report-${now}-${name}`)
  await writeFile(out, anon.text, { flag: 'wx' })
  return { path: out, source: path, maskedSecrets: masked.count, replacedPaths: anon.count }
}
