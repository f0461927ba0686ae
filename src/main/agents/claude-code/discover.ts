/**
 * Find Claude Code sessions under one home: directory listings and `stat`s, plus the head of each
 * session file (its `version`); a 0.x/1.x file is also scanned once for inline sub-agent threads
 * (`sidechain.ts`, memoised by size and mtime).
 *
 * Layout (seed 002 "Claude Code"; fixtures/real/claude-code/README.md, Claude Code 2.1.332):
 * - `<claudeConfigDir>/projects/<project folder>/<session id>.jsonl` — one file per session. The
 *   folder name is the cwd with every non-alphanumeric character replaced by `-`; it is never
 *   decoded here (the reader takes the project path from the records' `cwd`).
 * - `<project folder>/<session id>/subagents/agent-<id>.jsonl` (+ `agent-<id>.meta.json`) — a
 *   sub-agent's transcript. Other files under `subagents/` (e.g. `workflows/<id>/journal.jsonl`)
 *   are not sessions.
 * - Legacy layout: `<project folder>/agent-<id>.jsonl` sub-agent files beside the sessions.
 * - Claude Code 1.x: sub-agent records inline in the session file (`isSidechain: true`); each
 *   thread gets a ref of its own ({@link FORMAT_INLINE_SIDECHAIN}, the parent's file, hint
 *   `inlineThread`), and the parent's ref lists them (hint `inlineThreads`).
 */
import type { Dirent } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Diagnostic } from '../../../shared/ir'
import type { HomeLayout } from '../../platform'
import type { FreshnessDeps } from '../../catalog/freshness'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'
import { mapInOrder } from '../../util/in-order'
import { ancestorLinkMessage, folderNamedLikeFileMessage, loopMessage } from '../link-loop'
import { FORMAT_SESSION, FORMAT_SUBAGENT } from './format'
import { FORMAT_INLINE_SIDECHAIN, inlineThreadsOf } from './sidechain'

const SUBAGENT_FILE = /^agent-(.+)\.jsonl$/

/** Directory entries, or undefined (plus a diagnostic unless the folder simply does not exist). */
async function list(dir: string, diagnostics: Diagnostic[]): Promise<Dirent[] | undefined> {
  try {
    return (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: 'claude-code' })
    }
    return undefined
  }
}

/**
 * True for a folder, following a symbolic link. A link that loops (to itself, or to a folder that
 * holds it: agents/link-loop.ts) is not followed: false, plus a warning naming it.
 */
async function isDir(e: Dirent, path: string, dir: string, diagnostics: Diagnostic[]): Promise<boolean> {
  if (e.isDirectory()) return true
  if (!e.isSymbolicLink()) return false
  let folder: boolean
  try {
    folder = (await stat(path)).isDirectory()
  } catch (err) {
    const loop = loopMessage(path, err)
    if (loop) diagnostics.push({ severity: 'warning', skipped: 1, path, message: loop, agent: 'claude-code' })
    return false
  }
  const loop = folder ? await ancestorLinkMessage(path, dir) : undefined
  if (loop) diagnostics.push({ severity: 'warning', skipped: 1, path, message: loop, agent: 'claude-code' })
  return folder && !loop
}

/** A ref for `files` (size summed, newest mtime), or undefined when the primary file is gone. */
async function makeRef(home: string, sessionId: string, format: string, files: string[], extra: Partial<StoreRef>, diagnostics: Diagnostic[]): Promise<StoreRef | undefined> {
  let size = 0
  let mtimeMs = 0
  const kept: string[] = []
  for (const f of files) {
    try {
      const s = await stat(f)
      if (!s.isFile()) {
        // A FIFO, device or socket named like a transcript (issue 16): skipped, but never silently.
        diagnostics.push({ severity: 'warning', skipped: 1, path: f, message: `${f} is not a regular file (a named pipe, device or socket); Sepia reads only regular files, so it was skipped.`, agent: 'claude-code' })
        continue
      }
      size += s.size
      mtimeMs = Math.max(mtimeMs, s.mtimeMs)
      kept.push(f)
    } catch (e) {
      // A link that loops is named (agents/link-loop.ts); a file that vanished between listing and stat is skipped.
      const loop = loopMessage(f, e)
      if (loop) diagnostics.push({ severity: 'warning', skipped: 1, path: f, message: loop, agent: 'claude-code' })
    }
  }
  if (kept[0] !== files[0]) return undefined
  return { agent: 'claude-code', sessionId, format, files: kept, size, mtimeMs, home, ...extra }
}

/** Sub-agent refs in `<sessionDir>/subagents/` (top level of that folder only). */
async function subagents(home: string, sessionDir: string, parentId: string, diagnostics: Diagnostic[]): Promise<StoreRef[]> {
  const dir = join(sessionDir, 'subagents')
  const entries = await list(dir, diagnostics)
  if (!entries) return []
  const names = new Set(entries.filter((e) => !e.isDirectory()).map((e) => e.name))
  for (const e of entries) {
    if (e.isDirectory() && SUBAGENT_FILE.test(e.name)) diagnostics.push({ severity: 'warning', skipped: 1, path: join(dir, e.name), message: folderNamedLikeFileMessage(join(dir, e.name)), agent: 'claude-code' })
  }
  const refs: StoreRef[] = []
  for (const name of names) {
    const m = SUBAGENT_FILE.exec(name)
    if (!m) continue
    const id = m[1]!
    const files = [join(dir, name)]
    if (names.has(`agent-${id}.meta.json`)) files.push(join(dir, `agent-${id}.meta.json`))
    const ref = await makeRef(home, id, FORMAT_SUBAGENT, files, { parentSessionId: parentId }, diagnostics)
    if (ref) refs.push(ref)
  }
  return refs
}

/** Every session and sub-agent transcript of one project folder. */
async function project(home: string, dir: string, diagnostics: Diagnostic[]): Promise<StoreRef[]> {
  const entries = await list(dir, diagnostics)
  if (!entries) return []
  const sessions: StoreRef[] = []
  const children = new Map<string, StoreRef[]>()
  const inline: StoreRef[] = []
  // The entries are looked at side by side (`mapInOrder`), then taken in name order as one loop would.
  const looked = await mapInOrder(entries, async (e) => {
    const own: Diagnostic[] = []
    const path = join(dir, e.name)
    const folder = await isDir(e, path, dir, own)
    if (own.length > 0) return { diagnostics: own } // a link that loops, named by isDir
    if (folder) {
      // A folder named like a transcript (`<id>.jsonl/`) is no session's folder: named, not read.
      if (e.name.endsWith('.jsonl')) {
        own.push({ severity: 'warning', skipped: 1, path, message: folderNamedLikeFileMessage(path), agent: 'claude-code' })
        return { diagnostics: own }
      }
      return { diagnostics: own, subs: await subagents(home, path, e.name, own) }
    }
    if (!e.name.endsWith('.jsonl')) return { diagnostics: own }
    const stem = e.name.slice(0, -'.jsonl'.length)
    const legacy = SUBAGENT_FILE.exec(e.name)
    const ref = legacy
      ? await makeRef(home, legacy[1]!, FORMAT_SUBAGENT, [path], { hints: { legacySubagent: true } }, own)
      : await makeRef(home, stem, FORMAT_SESSION, [path], {}, own)
    if (!ref || legacy) return { diagnostics: own, ref }
    const threads = await inlineThreadsOf(path, stem)
    const kids: StoreRef[] = []
    if (threads.length > 0) {
      ref.hints = { ...ref.hints, inlineThreads: threads }
      for (const t of threads) {
        const child = await makeRef(home, t.id, FORMAT_INLINE_SIDECHAIN, [path], { parentSessionId: stem, hints: { inlineThread: t } }, own)
        if (child) kids.push(child)
      }
    }
    return { diagnostics: own, ref, inline: kids }
  })
  for (const [k, l] of looked.entries()) {
    diagnostics.push(...l.diagnostics)
    if (l.subs?.length) children.set(entries[k]!.name, l.subs)
  }
  for (const l of looked) {
    if (l.ref) sessions.push(l.ref)
    if (l.inline) inline.push(...l.inline)
  }
  const out: StoreRef[] = []
  for (const ref of sessions) {
    const subs = ref.format === FORMAT_SESSION ? children.get(ref.sessionId) : undefined
    if (subs) ref.hints = { ...ref.hints, subagentIds: subs.map((s) => s.sessionId) }
    out.push(ref)
  }
  for (const subs of children.values()) out.push(...subs)
  out.push(...inline)
  return out
}

/**
 * What {@link discoverSessions} depends on besides the sessions' files (`catalog/freshness.ts`):
 * it lists the folder tree under `projects/` and reads only session files (their heads).
 */
export function freshnessDeps(layout: HomeLayout): FreshnessDeps {
  return { trees: [join(layout.claudeConfigDir, 'projects')], dirs: [], files: [] }
}

/**
 * List Claude Code sessions under `layout.claudeConfigDir`. Never throws: an unreadable folder is
 * a warning diagnostic; a missing `projects/` folder means no sessions.
 */
export async function discoverSessions(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const root = join(layout.claudeConfigDir, 'projects')
  const entries = await list(root, diagnostics)
  const refs: StoreRef[] = []
  // Project folders are listed side by side (`mapInOrder`); refs and diagnostics come in folder order.
  const found = await mapInOrder(
    entries ?? [],
    async (e) => {
      const own: Diagnostic[] = []
      const path = join(root, e.name)
      return { refs: (await isDir(e, path, root, own)) ? await project(layout.home, path, own) : [], diagnostics: own }
    },
    4,
  )
  for (const f of found) {
    refs.push(...f.refs)
    diagnostics.push(...f.diagnostics)
  }
  return { refs, diagnostics }
}
