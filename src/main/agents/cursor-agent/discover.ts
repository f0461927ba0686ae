/**
 * Find Cursor agent CLI sessions under one home (shared/formats/cursor-devin-atif-acp.md §B1,
 * §F20–§F22, §F29; seed 002 "Cursor" A):
 * - `~/.cursor/chats/<md5(cwd)>/<agentId>/{store.db, meta.json, prompt_history.json}` (also the
 *   `~/.config/cursor/chats` root one tool saw, [L]); `~/.cursor/acp-sessions/<id>/` (ACP variant);
 * - `~/.cursor/projects/<slug>/agent-transcripts/<id>.jsonl` (CLI, flat) or `<id>/<id>.jsonl`
 *   (nested), with `<id>/subagents/<subId>.jsonl` sub-agent transcripts.
 *
 * One session per id: the store wins over a transcript of the same id (the transcript stays a
 * fallback hint). `meta.json` with `hasConversation:false` and no store is not a session unless a
 * transcript exists. Transcripts whose id is an IDE composer (`composerData:<id>` in a Cursor
 * global `state.vscdb`) belong to the Cursor IDE reader and are skipped here, with their sub-agents.
 * `.txt` transcripts are not read (their format is not documented).
 */
import type { Dirent } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import type { PlatformPath } from 'node:path'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { storeEntries } from '../link-loop'
import { ideComposerIds } from '../cursor/global'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'
import { type AgentHints, FORMAT_STORE, FORMAT_SUBAGENT, FORMAT_TRANSCRIPT } from './refs'
import { plural } from '../../../shared/plural'

/**
 * The entries of `dir` in name order, each `{ name, folder }` (a link to a folder counts as one). A
 * link that loops or leads above, and a folder `fileLike` accepts, are named in a warning and left
 * out (agents/link-loop.ts `storeEntries`). Empty when the folder cannot be listed.
 */
async function list(dir: string, diagnostics: Diagnostic[], fileLike?: (name: string) => boolean): Promise<{ name: string; folder: boolean }[]> {
  let entries: Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: 'cursor-agent' })
    return []
  }
  const { folders, files } = await storeEntries(dir, entries, 'cursor-agent', diagnostics, fileLike)
  const all = [...folders.map((name) => ({ name, folder: true })), ...files.map((name) => ({ name, folder: false }))]
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

const isJsonl = (name: string): boolean => name.endsWith('.jsonl')

/** The warning for a store file that exists but is not a regular file (issue 16: never dropped silently). */
function notRegular(path: string, diagnostics: Diagnostic[]): void {
  diagnostics.push({ severity: 'warning', skipped: 1, path, message: `${path} is not a regular file (a named pipe, device, socket, link or folder); Sepia reads only regular files, so it was skipped.`, agent: 'cursor-agent' })
}

/**
 * Size and mtime of a regular file; undefined when missing or not regular (then a warning when
 * `diagnostics` is given). `listed`: the path came from a folder listing, so one that cannot be
 * followed (a link to nothing) is named too.
 */
async function fileStat(path: string, diagnostics?: Diagnostic[], listed = false): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    const s = await stat(path)
    if (s.isFile()) return { size: s.size, mtimeMs: s.mtimeMs }
    if (diagnostics) notRegular(path, diagnostics)
    return undefined
  } catch {
    if (diagnostics && listed) notRegular(path, diagnostics)
    return undefined
  }
}

/** A ref over `files` that exist (size summed, newest mtime). */
async function makeRef(home: string, sessionId: string, format: string, files: string[], hints: AgentHints, parent?: string): Promise<StoreRef> {
  let size = 0
  let mtimeMs = 0
  for (const f of files) {
    const s = (await fileStat(f)) ?? { size: 0, mtimeMs: 0 }
    size += s.size
    mtimeMs = Math.max(mtimeMs, s.mtimeMs)
  }
  const r: StoreRef = { agent: 'cursor-agent', sessionId, format, files, size, mtimeMs, home, hints: { ...hints } }
  if (parent !== undefined) r.parentSessionId = parent
  return r
}

interface ChatDir {
  id: string
  dir: string
  acp: boolean
  storeDb?: string
  metaJson?: string
  promptHistory?: string
}

async function chatDir(p: PlatformPath, dir: string, id: string, acp: boolean, diagnostics: Diagnostic[]): Promise<ChatDir> {
  const c: ChatDir = { id, dir, acp }
  if (await fileStat(p.join(dir, 'store.db'), diagnostics)) c.storeDb = p.join(dir, 'store.db')
  if (await fileStat(p.join(dir, 'meta.json'))) c.metaJson = p.join(dir, 'meta.json')
  if (await fileStat(p.join(dir, 'prompt_history.json'))) c.promptHistory = p.join(dir, 'prompt_history.json')
  return c
}

/** Every chat folder under the `chats/<hash>/<id>` roots and `acp-sessions/<id>`, first one per id. */
async function chatDirs(p: PlatformPath, layout: HomeLayout, diagnostics: Diagnostic[]): Promise<Map<string, ChatDir>> {
  const out = new Map<string, ChatDir>()
  const cursorDir = p.join(layout.home, '.cursor')
  for (const root of [p.join(cursorDir, 'chats'), p.join(layout.xdgConfigHome, 'cursor', 'chats')]) {
    for (const h of await list(root, diagnostics)) {
      if (!h.folder) continue
      for (const a of await list(p.join(root, h.name), diagnostics)) {
        if (a.folder && !out.has(a.name)) out.set(a.name, await chatDir(p, p.join(root, h.name, a.name), a.name, false, diagnostics))
      }
    }
  }
  const acpRoot = p.join(cursorDir, 'acp-sessions')
  for (const a of await list(acpRoot, diagnostics)) {
    if (a.folder && !out.has(a.name)) out.set(a.name, await chatDir(p, p.join(acpRoot, a.name), a.name, true, diagnostics))
  }
  return out
}

interface Transcript {
  id: string
  path: string
  projectDir: string
  workspaceTrusted?: string
  subagents: { id: string; path: string }[]
}

/** Every transcript under `projects/<slug>/agent-transcripts`, first one per id. */
async function transcripts(p: PlatformPath, home: string, diagnostics: Diagnostic[]): Promise<Map<string, Transcript>> {
  const out = new Map<string, Transcript>()
  const root = p.join(home, '.cursor', 'projects')
  for (const proj of await list(root, diagnostics)) {
    if (!proj.folder) continue
    const projectDir = p.join(root, proj.name)
    const trusted = p.join(projectDir, '.workspace-trusted')
    const workspaceTrusted = (await fileStat(trusted)) ? trusted : undefined
    const dir = p.join(projectDir, 'agent-transcripts')
    // A folder named like a transcript (`<id>.jsonl/`) is named, not taken for a session folder.
    for (const e of await list(dir, diagnostics, isJsonl)) {
      if (!e.folder && isJsonl(e.name)) {
        // A FIFO, device or link to one named like a transcript: skipped, but named (fileStat).
        if (!(await fileStat(p.join(dir, e.name), diagnostics, true))) continue
        const id = e.name.slice(0, -'.jsonl'.length)
        if (!out.has(id)) out.set(id, { id, path: p.join(dir, e.name), projectDir, subagents: [], ...(workspaceTrusted ? { workspaceTrusted } : {}) })
      } else if (e.folder) {
        const path = p.join(dir, e.name, `${e.name}.jsonl`)
        const subs: { id: string; path: string }[] = []
        for (const s of await list(p.join(dir, e.name, 'subagents'), diagnostics, isJsonl)) {
          if (!isJsonl(s.name) || s.folder) continue
          const subPath = p.join(dir, e.name, 'subagents', s.name)
          if (await fileStat(subPath, diagnostics, true)) subs.push({ id: s.name.slice(0, -'.jsonl'.length), path: subPath })
        }
        const has = (await fileStat(path, diagnostics)) !== undefined
        if ((has || subs.length) && !out.has(e.name)) out.set(e.name, { id: e.name, path: has ? path : '', projectDir, subagents: subs, ...(workspaceTrusted ? { workspaceTrusted } : {}) })
      }
    }
  }
  return out
}

/** Composer ids of every Cursor IDE global store of this home (empty when none can be read). */
function ideIds(layout: HomeLayout, p: PlatformPath, diagnostics: Diagnostic[]): Set<string> {
  const ids = new Set<string>()
  for (const g of layout.globalStorage.filter((x) => x.editor === 'Cursor')) {
    const db = p.join(g.dir, 'state.vscdb')
    try {
      for (const id of ideComposerIds(db)) ids.add(id)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        diagnostics.push({ severity: 'info', path: db, message: `cannot list Cursor IDE composers (${(e as Error).message}); IDE transcripts may be listed twice`, agent: 'cursor-agent' })
      }
    }
  }
  return ids
}

/** List Cursor agent CLI sessions under `layout`. Never throws: unreadable folders are diagnostics. */
export async function discoverCursorAgent(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const p = pathApiFor(layout.home)
  const chats = await chatDirs(p, layout, diagnostics)
  const trans = await transcripts(p, layout.home, diagnostics)
  const ide = trans.size ? ideIds(layout, p, diagnostics) : new Set<string>()
  const refs: StoreRef[] = []
  let ideOwned = 0
  for (const c of chats.values()) {
    const t = trans.get(c.id)
    const hints: AgentHints = { kind: c.storeDb ? 'store' : 'transcript', chatDir: c.dir, acp: c.acp }
    for (const k of ['storeDb', 'metaJson', 'promptHistory'] as const) if (c[k] !== undefined) hints[k] = c[k]
    if (t?.path) hints.transcript = t.path
    if (t) hints.projectDir = t.projectDir
    if (t?.workspaceTrusted) hints.workspaceTrusted = t.workspaceTrusted
    if (!c.storeDb && !t?.path) continue
    const files = [c.storeDb ?? t!.path, ...(c.storeDb && t?.path ? [t.path] : []), ...[c.metaJson, c.promptHistory].filter((x): x is string => !!x)]
    refs.push(await makeRef(layout.home, c.id, c.storeDb ? FORMAT_STORE : FORMAT_TRANSCRIPT, files, hints))
  }
  for (const t of trans.values()) {
    if (ide.has(t.id)) {
      ideOwned++
      continue
    }
    const where: AgentHints = { kind: 'transcript', projectDir: t.projectDir, ...(t.workspaceTrusted ? { workspaceTrusted: t.workspaceTrusted } : {}) }
    if (t.path && !chats.has(t.id)) refs.push(await makeRef(layout.home, t.id, FORMAT_TRANSCRIPT, [t.path], { ...where, transcript: t.path }))
    for (const s of t.subagents) refs.push(await makeRef(layout.home, s.id, FORMAT_SUBAGENT, [s.path], { ...where, transcript: s.path }, t.id))
  }
  if (ideOwned) diagnostics.push({ severity: 'info', path: p.join(layout.home, '.cursor', 'projects'), message: `${plural(ideOwned, 'transcript belongs', 'transcripts belong')} to Cursor IDE chats and ${ideOwned === 1 ? 'is' : 'are'} read by the Cursor reader`, agent: 'cursor-agent' })
  return { refs, diagnostics }
}
