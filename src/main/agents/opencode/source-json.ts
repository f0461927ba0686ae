/**
 * The JSON file storage OpenCode used before its SQLite database (and still leaves behind after
 * migrating): `<xdg data>/opencode/storage/`.
 *
 * Layout (packages/opencode/src/storage/json-migration.ts, which derives every id from the paths,
 * not the JSON; public samples fixtures/public/opencode/luoyuctl__agenttrace__*):
 * - `session/<projectID>/<sessionID>.json` — session info `{id, projectID, directory, parentID,
 *   title, version, time{created, updated}, ...}`
 * - `message/<sessionID>/<messageID>.json` — message info `{id, sessionID, role, time, ...}`
 * - `part/<messageID>/<partID>.json` — part `{id, sessionID, messageID, type, ...}`
 * Other folders (`project`, `session_diff`, `todo`, `migration`) are not sessions.
 * A file that is not JSON becomes a diagnostic with the line where parsing failed.
 */
import type { Dirent } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { lineAt } from '../../util/json'
import type { Problem, StoredMessage, StoredPart, StoredSession } from './store'
import { type Json, byId, byTimeThenId, obj, str, timeOf } from './values'
import { readRegularFile } from '../../util/regular-file'

/** A JSON file's object, or a problem naming the line where it broke. */
export async function readJsonFile(path: string): Promise<{ value?: Json; problem?: Problem }> {
  let text: string
  try {
    text = await readRegularFile(path)
  } catch (e) {
    return { problem: { severity: 'error', path, message: `cannot read file: ${(e as Error).message}` } }
  }
  try {
    const value = obj(JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text))
    if (value) return { value }
    return { problem: { severity: 'error', path, line: 1, message: 'the file is not a JSON object; skipped' } }
  } catch (e) {
    const message = (e as Error).message
    return { problem: { severity: 'error', path, line: errorLine(text, message), message: `not valid JSON (${message}); skipped` } }
  }
}

/** 1-based line of a JSON.parse error: its "(line N", its "position N", else the last line (cut short). */
function errorLine(text: string, message: string): number {
  const lc = /\(line (\d+) column \d+\)/.exec(message)
  if (lc) return Number(lc[1])
  const pos = /position (\d+)/.exec(message)
  const end = pos ? Number(pos[1]) : text.trimEnd().length
  return lineAt(text, end)
}

/** `.json` files of a folder, sorted by name; [] when the folder does not exist. */
export async function jsonFiles(dir: string): Promise<string[]> {
  let entries: Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return []
  }
  return entries
    .filter((e) => !e.isDirectory() && e.name.endsWith('.json'))
    .map((e) => e.name)
    .sort()
    .map((n) => join(dir, n))
}

/** The id a storage file stands for: its name without `.json`. */
export function idOfFile(path: string): string {
  return basename(path, '.json')
}

/** Load one session from the JSON storage rooted at `storage`. */
export async function loadJsonSession(storage: string, sessionFile: string): Promise<StoredSession> {
  const id = idOfFile(sessionFile)
  const problems: Problem[] = []
  const head = await readJsonFile(sessionFile)
  if (head.problem) problems.push(head.problem)
  const s: StoredSession = { id, info: head.value ?? {}, messages: [], files: [sessionFile], problems, extra: {} }
  const messageFiles = await jsonFiles(join(storage, 'message', id))
  for (const file of messageFiles) {
    const r = await readJsonFile(file)
    if (r.problem) problems.push(r.problem)
    if (!r.value) continue
    s.files.push(file)
    const m: StoredMessage = { id: idOfFile(file), data: r.value, path: file, parts: [] }
    const parts: StoredPart[] = []
    for (const pf of await jsonFiles(join(storage, 'part', m.id))) {
      const p = await readJsonFile(pf)
      if (p.problem) problems.push(p.problem)
      if (p.value) parts.push({ id: idOfFile(pf), messageId: m.id, data: p.value })
    }
    m.parts = byId(parts)
    s.messages.push(m)
  }
  s.messages = byTimeThenId(s.messages, (m) => timeOf(m.data, 'created'))
  return s
}

/**
 * An `opencode export` file — `{info, messages: [{info, parts}]}`, what `opencode import` reads
 * (fixtures/real/opencode/handwritten/04-import-of-a-hand-written-info-messages-info-parts-file/import.json) — as a stored session. Ids come from the
 * JSON (`info.id`, message `info.id`, part `id`); entries without one are diagnostics. The session
 * id falls back to the file name.
 */
export async function loadExportFile(path: string): Promise<StoredSession> {
  const r = await readJsonFile(path)
  const info = obj(r.value?.info) ?? {}
  const s: StoredSession = { id: str(info.id) ?? idOfFile(path), info, messages: [], files: [path], problems: r.problem ? [r.problem] : [], extra: {} }
  const messages = Array.isArray(r.value?.messages) ? r.value.messages : []
  messages.forEach((raw, i) => {
    const entry = obj(raw)
    const mi = obj(entry?.info)
    const id = str(mi?.id)
    if (!mi || !id) {
      s.problems.push({ severity: 'error', path, message: `messages[${i}] has no info.id; skipped` })
      return
    }
    const parts: StoredPart[] = []
    for (const p of Array.isArray(entry?.parts) ? entry.parts : []) {
      const po = obj(p)
      const pid = str(po?.id)
      if (po && pid) parts.push({ id: pid, messageId: id, data: po })
      else s.problems.push({ severity: 'error', path, message: `messages[${i}] has a part without an id; skipped` })
    }
    s.messages.push({ id, data: mi, path, parts: byId(parts) })
  })
  s.messages = byTimeThenId(s.messages, (m) => timeOf(m.data, 'created'))
  return s
}
