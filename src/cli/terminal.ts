/**
 * Terminal-safe output. Session files are untrusted: a prompt or a tool output can hold escape
 * sequences that clear the screen or retitle the terminal. Text mode escapes every control
 * character except newline and tab; JSON output is already escaped by JSON.stringify.
 */
import type { Diagnostic } from '../shared/ir'
import { SepiaError } from '../shared/api'
import { quoteArg, shellQuote } from '../shared/convert'
import { plural } from '../shared/plural'
import { localTimeZone } from '../main/usage/zone'

// C0 controls except \t (09) and \n (0a), DEL, and C1 controls.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

/** `text` with control characters shown as `\x1b`-style escapes. */
export function safeText(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

/**
 * Write diagnostics to stderr as `error:`/`warning:`/`note:` lines (their own severity), at most
 * `max` of them, then one line counting the rest.
 */
export function writeDiagnostics(err: NodeJS.WritableStream, diagnostics: readonly Diagnostic[], max = 20): void {
  const label = { error: 'error', warning: 'warning', info: 'note' } as const
  for (const d of diagnostics.slice(0, max)) {
    // A message that opens with its own path ("<path> is not a regular file ...") is not given it twice.
    const where = d.message.startsWith(d.path) && !d.line ? '' : `${d.path}${d.line ? `:${d.line}` : ''}: `
    err.write(safeText(`${label[d.severity]}: ${where}${d.message}`.slice(0, 2000)) + '\n')
  }
  if (diagnostics.length > max) err.write(`… and ${plural(diagnostics.length - max, 'more problem')}; use --json to see them all.\n`)
}

/**
 * The `sepia list` command that lists what this run read: `sepia list` plus the `--home` arguments
 * the user passed, as passed, each POSIX shell-quoted (`sepia list --home 'My Home'`).
 */
export function listCommand(homes: readonly string[] = []): string {
  return ['sepia list', ...homes.map((h) => `--home ${shellQuote(h)}`)].join(' ')
}

/**
 * The `SESSION_NOT_FOUND` error for a session id matching nothing in `searched` (the home folders
 * read); the hint repeats the user's `--home` arguments (`homes`). When every home read is the
 * built-in demo library (no agent history of the user's), it says that instead of listing the
 * demo's folders.
 */
export function sessionNotFound(id: string, searched: readonly { path: string; isDemo?: boolean }[], homes: readonly string[] = []): SepiaError {
  const where = searched.length > 0 && searched.every((h) => h.isDemo) ? 'the demo library (Sepia found no agent history of yours; use --home DIR for a copied home folder)' : searched.map((h) => h.path).join(', ')
  return new SepiaError({ code: 'SESSION_NOT_FOUND', message: `No session "${id}" in ${where}. Run "${listCommand(homes)}" to see the ids.` })
}

/**
 * A session id as the plain `sepia list` prints it, ready to paste after `sepia show`: quoted for
 * this machine's shell when it holds characters a shell expands (Crush's sub-agent sessions are
 * `<message id>$$<tool call id>`, internal/agent/agent_tool.go; an unquoted `$$` is the shell's PID).
 */
export function pasteableId(id: string): string {
  return quoteArg(id, process.platform === 'win32' ? 'win32' : 'linux')
}

/**
 * A time as the human output of `sepia list`, `search` and `checkpoints` shows it: `YYYY-MM-DD HH:MM`
 * in this machine's time zone (the zone `sepia usage` counts days in; {@link localZoneName}), 16
 * spaces when unknown. `ms`: milliseconds since the epoch. JSON output keeps ISO UTC.
 */
export function localMinute(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return ' '.repeat(16)
  const d = new Date(ms)
  const p = (n: number): string => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`
}

/** This machine's time zone name as Intl gives it (`Europe/Paris`, `UTC`): the zone of {@link localMinute}. */
export const localZoneName = localTimeZone
