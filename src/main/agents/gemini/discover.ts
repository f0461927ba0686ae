/**
 * Find Gemini CLI sessions under one home: directory listings, `stat`s and the first bytes of
 * each chats file (for its `sessionId`).
 *
 * Layout (fixtures/real/gemini/README.md, Gemini CLI 0.61.0; google-gemini/gemini-cli
 * packages/core/src/services/chatRecordingService.ts):
 * - `~/.gemini/tmp/<slug or projectHash>/chats/session-<yyyy-mm-ddThh-mm>-<first 8 of id>.jsonl`
 *   (older: `.json`) — one session. A resume in a later minute can leave a second file with the
 *   same `sessionId` (README "Worth knowing"), and resuming a `.json` session migrates it to
 *   `.jsonl`: files are grouped by the `sessionId` of their header, read in name order.
 * - `~/.gemini/tmp/<slug>/chats/<parent session id>/<id>.jsonl` — a sub-agent's chat.
 * - Project files listed with each session (read for the project path, prompt log and saved
 *   chats, see project.ts): `~/.gemini/projects.json`, `tmp/<slug>/.project_root`,
 *   `tmp/<slug>/logs.json`, `tmp/<slug>/checkpoint-*.json`.
 */
import type { Dirent } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { isUtf8 } from 'node:buffer'
import { basename, join } from 'node:path'
import { storeEntries } from '../link-loop'
import type { Diagnostic } from '../../../shared/ir'
import type { HomeLayout } from '../../platform'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'
import { FORMAT_JSON, FORMAT_JSONL, FORMAT_SUBAGENT } from './format'
import { openRegularFile } from '../../util/regular-file'

const SESSION_FILE = /^session-.+\.jsonl?$/
/** Bytes read from the start of a chats file to find its `sessionId`. */
const HEAD_BYTES = 64 * 1024

/** Directory entries sorted by name, or undefined (plus a diagnostic unless the folder does not exist). */
async function list(dir: string, diagnostics: Diagnostic[]): Promise<Dirent[] | undefined> {
  try {
    return (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: 'gemini' })
    }
    return undefined
  }
}

/** The warning for a chats file that is a FIFO, device, socket or dangling link (issue 16: never dropped silently). */
function notRegular(path: string, diagnostics: Diagnostic[]): void {
  diagnostics.push({ severity: 'warning', skipped: 1, path, message: `${path} is not a regular file (a named pipe, device, socket or broken link); Sepia reads only regular files, so it was skipped.`, agent: 'gemini' })
}

/** File or folder, following a symbolic link; undefined when it cannot be stat'ed. */
async function kindOf(e: Dirent, path: string): Promise<'file' | 'dir' | undefined> {
  if (e.isDirectory()) return 'dir'
  if (e.isFile()) return 'file'
  if (!e.isSymbolicLink()) return undefined
  try {
    const s = await stat(path)
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : undefined
  } catch {
    return undefined
  }
}

/**
 * The `sessionId` a chats file declares: the header (first line) of a `.jsonl`, the top-level
 * member of a `.json` (looked for in its first bytes). Undefined when there is none.
 */
export async function sniffSessionId(path: string, diagnostics: Diagnostic[] = []): Promise<string | undefined> {
  let bytes: Buffer
  try {
    const fh = await openRegularFile(path)
    try {
      const buf = Buffer.alloc(HEAD_BYTES)
      const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0)
      bytes = buf.subarray(0, bytesRead)
    } finally {
      await fh.close()
    }
  } catch {
    return undefined
  }
  const head = bytes.toString('utf8')
  const id = idFromHead(path, head)
  if (id === undefined) return undefined
  // Issue 16: a damaged header changes the id the session is listed under (the session read by
  // its old id is gone). Say so: invalid UTF-8 in the bytes the id was read from (decoded as
  // U+FFFD, as Gemini CLI's own reading would), or an id the file name does not match.
  const nl = bytes.indexOf(0x0a)
  const headerBytes = path.endsWith('.jsonl') && nl >= 0 ? bytes.subarray(0, nl) : bytes
  if (id.includes('\uFFFD') && !isUtf8(headerBytes)) {
    diagnostics.push({ severity: 'warning', path, line: 1, message: `the sessionId in the header is not valid UTF-8; the session is listed under the sessionId read from it (${id}), which may not be the one Gemini CLI wrote`, agent: 'gemini' })
  } else {
    const named = /-([0-9A-Za-z]{8})\.jsonl?$/.exec(basename(path))?.[1]
    if (named !== undefined && !id.startsWith(named)) diagnostics.push({ severity: 'warning', path, line: 1, message: `the header's sessionId ${id} does not start with ${named}, the id in the file name (a damaged header?); listed under ${id}`, agent: 'gemini' })
  }
  return id
}

/** The `sessionId` in the first bytes of a chats file (see {@link sniffSessionId}). */
function idFromHead(path: string, head: string): string | undefined {
  const first = head.split('\n', 1)[0] ?? ''
  try {
    const r = JSON.parse(first) as Record<string, unknown>
    // The header; one whose projectHash is damaged (not text) is still the header (read.ts names it).
    if (typeof r?.sessionId === 'string' && r.projectHash !== undefined && r.type === undefined) return r.sessionId
    if (path.endsWith('.jsonl')) return undefined
  } catch {
    // not one JSON line: a pretty-printed object (looked for below) or a cut-short line
    if (path.endsWith('.jsonl') && first.trim() !== '{') return undefined
  }
  const m = /^\s*\{[\s\S]*?"sessionId"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(head)
  if (!m) return undefined
  try {
    return JSON.parse(`"${m[1]}"`) as string
  } catch {
    return undefined // a bad escape inside the id
  }
}

/** A ref for `files` (sizes summed, newest mtime), or undefined when the primary file is gone. */
async function makeRef(home: string, sessionId: string, format: string, files: string[], extra: Partial<StoreRef>): Promise<StoreRef | undefined> {
  let size = 0
  let mtimeMs = 0
  const kept: string[] = []
  for (const f of files) {
    try {
      const s = await stat(f)
      if (!s.isFile()) continue
      size += s.size
      mtimeMs = Math.max(mtimeMs, s.mtimeMs)
      kept.push(f)
    } catch {
      // absent or vanished: skip it
    }
  }
  if (kept[0] !== files[0]) return undefined
  return { agent: 'gemini', sessionId, format, files: kept, size, mtimeMs, home, ...extra }
}

/** Every session and sub-agent chat of one `tmp/<slug>` folder. */
async function project(home: string, geminiDir: string, projectDir: string, diagnostics: Diagnostic[]): Promise<StoreRef[]> {
  const chatsDir = join(projectDir, 'chats')
  const entries = await list(chatsDir, diagnostics)
  if (!entries) return []
  const checkpoints = ((await list(projectDir, diagnostics)) ?? []).filter((e) => /^checkpoint-.+\.json$/.test(e.name)).map((e) => join(projectDir, e.name))
  const projectFiles = [join(geminiDir, 'projects.json'), join(projectDir, '.project_root'), join(projectDir, 'logs.json')]
  const groups = new Map<string, string[]>()
  const refs: StoreRef[] = []
  // Folders and files, links followed one step; a link that loops or leads above, and a folder named
  // like a chats file, are named in a warning and in neither (agents/link-loop.ts storeEntries).
  const sorted = await storeEntries(chatsDir, entries, 'gemini', diagnostics, (n) => SESSION_FILE.test(n))
  const byName = new Map(entries.map((e) => [e.name, e]))
  for (const name of sorted.files) {
    if (!SESSION_FILE.test(name)) continue
    const path = join(chatsDir, name)
    const kind = await kindOf(byName.get(name)!, path)
    if (kind === 'file') {
      const id = (await sniffSessionId(path, diagnostics)) ?? name.replace(/\.jsonl?$/, '')
      groups.set(id, [...(groups.get(id) ?? []), path])
    } else notRegular(path, diagnostics)
  }
  // A sub-agent folder (`chats/<parent session id>/<id>.jsonl`).
  for (const name of sorted.folders) {
    const path = join(chatsDir, name)
    for (const s of (await list(path, diagnostics)) ?? []) {
      if (!s.name.endsWith('.jsonl')) continue
      const subKind = await kindOf(s, join(path, s.name))
      if (subKind === undefined) notRegular(join(path, s.name), diagnostics)
      if (subKind !== 'file') continue
      const ref = await makeRef(home, s.name.slice(0, -'.jsonl'.length), FORMAT_SUBAGENT, [join(path, s.name), ...projectFiles], { parentSessionId: name })
      if (ref) refs.push(ref)
    }
  }
  const main: StoreRef[] = []
  for (const [id, files] of groups) {
    const format = files[0]!.endsWith('.json') ? FORMAT_JSON : FORMAT_JSONL
    const ref = await makeRef(home, id, format, [...files, ...projectFiles, ...checkpoints], {})
    if (ref) main.push(ref)
  }
  return [...main, ...refs]
}

/**
 * List Gemini CLI sessions under `<home>/.gemini/tmp`. Never throws: an unreadable folder is a
 * warning diagnostic and the other folders still load; a missing folder means no sessions.
 */
export async function discoverSessions(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const geminiDir = join(layout.home, '.gemini')
  const tmp = join(geminiDir, 'tmp')
  const refs: StoreRef[] = []
  const entries = await list(tmp, diagnostics)
  if (!entries) return { refs, diagnostics }
  // Project folders, links followed; a link that loops or leads above is named, not followed.
  for (const name of (await storeEntries(tmp, entries, 'gemini', diagnostics)).folders) {
    refs.push(...(await project(layout.home, geminiDir, join(tmp, name), diagnostics)))
  }
  return { refs, diagnostics }
}
