/**
 * Read Gemini CLI chats files into a {@link ConversationLog}.
 *
 * - `chats/session-<yyyy-mm-ddThh-mm>-<first 8 of id>.jsonl` and sub-agent
 *   `chats/<parent id>/<id>.jsonl`: one JSON record per line (log.ts). The CLI ignores a line that
 *   is not JSON (chatRecordingService.ts `loadConversationRecord`: "ignore parse errors on
 *   individual lines"); Sepia does too, with one diagnostic per line.
 * - `chats/session-*.json` (older CLIs, fixtures/real/gemini/handwritten/04): one object
 *   `{sessionId, projectHash, startTime, lastUpdated, kind?, summary?, directories?, messages[]}`.
 *   The CLI falls back to this reading when a file has no header line (`parseLegacyRecordFallback`),
 *   so a pretty-printed object in a `.jsonl` file is read the same way.
 */
import { readFile } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { readLines } from '../../util/lines'
import { lineAt, salvageJsonArray } from '../../util/json'
import type { ConversationLog } from './log'
import type { Json } from './values'
import { obj, plainText, str } from './values'
import { readRegularFile } from '../../util/regular-file'
import { plural } from '../../../shared/plural'

/** A problem found while reading one file. */
export type FileProblem = Omit<Diagnostic, 'sessionId' | 'agent'>

/** Keys of unknown records (no `id`, `$set`, `$rewindTo` or header fields), counted for metadata. */
export type UnknownCounts = Record<string, number>

/** Text an unknown record carries, if any. */
function recordText(r: Json): string | undefined {
  const t = str(r.content) ?? str(r.text) ?? str(r.message) ?? plainText(r.content)
  return t.trim() ? t : undefined
}

/**
 * Feed one record to the log, tested in the CLI's order (`$rewindTo`, `id`, `$set`, header).
 * Unknown records are counted; one with text becomes an `unknown-event` message keyed by position.
 */
export function take(r: Json, log: ConversationLog, unknown: UnknownCounts, path: string, line: number, fileIndex: number): void {
  if (typeof r.$rewindTo === 'string') return log.rewind(r.$rewindTo, path, line)
  if (typeof r.id === 'string') return log.message(r, path, line)
  if (obj(r.$set)) return log.set(obj(r.$set)!, path, line)
  if (typeof r.sessionId === 'string' && typeof r.projectHash === 'string') return log.header(r, path, line)
  // A header whose projectHash is damaged (not a string): still the header, named (issue 16, fuzz seed 303).
  if (typeof r.sessionId === 'string' && line === 1 && r.projectHash !== undefined && r.type === undefined) {
    log.badHeaders.push({ path, line, field: 'projectHash' })
    return log.header(r, path, line)
  }
  const kind = str(r.type) ?? Object.keys(r).sort().join(',')
  unknown[kind] = (unknown[kind] ?? 0) + 1
  const text = recordText(r)
  if (text === undefined) return
  log.message({ id: `record@${fileIndex}:${line}`, type: `(record) ${kind}`, content: text, raw: r }, path, line)
}

/** Load a single-object session into the log; false when `value` is not one. */
function takeLegacy(value: unknown, log: ConversationLog, path: string): boolean {
  const r = obj(value)
  if (!r || (typeof r.sessionId !== 'string' && !Array.isArray(r.messages))) return false
  const { messages, ...header } = r
  log.header(header, path)
  for (const m of Array.isArray(messages) ? messages : []) {
    const rec = obj(m)
    if (rec && typeof rec.id === 'string') log.message(rec, path, undefined, 'legacy')
  }
  return true
}

/**
 * Read a whole-object `.json` session. A damaged file keeps every complete message before the
 * damage (one error diagnostic with the line); a file of JSON lines is read as JSONL.
 */
export async function readLegacyFile(path: string, log: ConversationLog, unknown: UnknownCounts, fileIndex: number): Promise<FileProblem[]> {
  const text = await readRegularFile(path)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    const firstLine = text.split('\n', 1)[0] ?? ''
    if (obj(tryParse(firstLine))) return readJsonlFile(path, log, unknown, fileIndex)
    return salvageLegacy(text, path, log, (e as Error).message)
  }
  if (takeLegacy(value, log, path)) return []
  return [{ severity: 'error', path, line: 1, message: 'the file is not a Gemini CLI conversation (no sessionId, no messages); nothing read' }]
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The messages before the damage of a cut-short `.json` session, and its header fields found by pattern. */
function salvageLegacy(text: string, path: string, log: ConversationLog, reason: string): FileProblem[] {
  const header: Json = {}
  for (const k of ['sessionId', 'projectHash', 'startTime', 'lastUpdated', 'kind', 'summary']) {
    const m = new RegExp(`"${k}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(text)
    if (m) header[k] = tryParse(`"${m[1]}"`)
  }
  const at = /"messages"\s*:\s*\[/.exec(text)
  const salvaged = at ? salvageJsonArray(text.slice(at.index + at[0].length - 1)) : undefined
  if (Object.keys(header).length) log.header(header, path)
  let kept = 0
  for (const m of salvaged?.items ?? []) {
    const rec = obj(m)
    if (rec && typeof rec.id === 'string') {
      log.message(rec, path, undefined, 'legacy')
      kept++
    }
  }
  const offset = salvaged?.errorOffset !== undefined && at ? at.index + at[0].length - 1 + salvaged.errorOffset : text.length
  return [{ severity: 'error', path, line: lineAt(text, offset), message: `the file is not valid JSON (${reason}); kept ${plural(kept, 'message')} before the damage` }]
}

/**
 * Read a JSONL chats file. Rejects only when the file cannot be opened; each bad line is one
 * error diagnostic (the last line cut short by a crash says so).
 */
export async function readJsonlFile(path: string, log: ConversationLog, unknown: UnknownCounts, fileIndex: number): Promise<FileProblem[]> {
  const bad: { line: number; message: string }[] = []
  const problems: FileProblem[] = []
  let records = 0
  let lastLine = 0
  for await (const { lineNo, text } of readLines(path)) {
    lastLine = lineNo
    if (!text.trim()) continue
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (e) {
      bad.push({ line: lineNo, message: (e as Error).message })
      continue
    }
    const r = obj(value)
    if (!r) {
      problems.push({ severity: 'warning', path, line: lineNo, message: 'line is JSON but not an object; skipped', skipped: 1 })
      continue
    }
    records++
    take(r, log, unknown, path, lineNo, fileIndex)
  }
  if (records === 0 && bad.length > 0) {
    // A pretty-printed single object (the CLI's legacy fallback reads it whole).
    const whole = tryParse(await readRegularFile(path))
    if (takeLegacy(whole, log, path)) return problems
  }
  for (const b of bad) {
    const cut = b.line === lastLine ? 'the last line is cut short' : 'line is not valid JSON'
    problems.push({ severity: 'error', path, line: b.line, message: `${cut} (${b.message}); skipped` })
  }
  return problems
}
