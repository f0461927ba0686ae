/**
 * Find Aider sessions under one home. Aider keeps no folder of its own: it appends to
 * `.aider.chat.history.md` (and `.aider.input.history`) in the project's git root (its defaults,
 * github:Aider-AI/aider `aider/args.py` `--chat-history-file`, `--input-history-file`). Project
 * folders come from {@link findProjectFolders}: the folders other agents' sessions name (a `stat`
 * each) and a walk of the home down to 5 levels (`../project-folders.ts`).
 * Each `# aider chat started at` block of a history file is one session (`./history.ts`), so
 * discovery reads the history files it finds (split once, cached by size and mtime).
 */
import { stat } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { findProjectFolders } from '../project-folders'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'
import { loadChatHistory, projectKey } from './history'

/** Store generation of `.aider.chat.history.md` sessions. */
export const FORMAT_CHAT_HISTORY = 'aider-chat-history-md'
/** File names Aider writes in the project folder. */
export const CHAT_HISTORY = '.aider.chat.history.md'
export const INPUT_HISTORY = '.aider.input.history'

/**
 * Size and mtime of a regular file; undefined when it is absent. A special file in its place (a
 * FIFO, a device, a link to one) is never opened: it becomes a warning in `diagnostics`.
 */
async function fileStat(path: string, diagnostics: Diagnostic[]): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    const s = await stat(path)
    if (s.isFile()) return { size: s.size, mtimeMs: s.mtimeMs }
    if (!s.isDirectory()) diagnostics.push({ severity: 'warning', skipped: 1, path, message: 'not a regular file (a FIFO, device or link to one); not read', agent: 'aider' })
    return undefined
  } catch {
    return undefined
  }
}

/** List Aider sessions under `layout`. Never throws: an unreadable history is a diagnostic. */
export async function discoverAider(layout: HomeLayout, ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  for (const hit of await findProjectFolders(layout, ctx)) {
    if (!hit.markers.has(CHAT_HISTORY)) continue
    const md = p.join(hit.dir, CHAT_HISTORY)
    const s = await fileStat(md, diagnostics)
    if (!s) continue
    const files = [md]
    let size = s.size
    let mtimeMs = s.mtimeMs
    const input = p.join(hit.dir, INPUT_HISTORY)
    const i = await fileStat(input, diagnostics)
    if (i) {
      files.push(input)
      size += i.size
      mtimeMs = Math.max(mtimeMs, i.mtimeMs)
    }
    const rel = p.relative(layout.home, hit.dir)
    const key = projectKey(rel.startsWith('..') ? hit.dir : rel)
    try {
      const history = await loadChatHistory(md, s.size, s.mtimeMs, key)
      // Aider creates the file by appending a header, so an empty one lost its content.
      if (history.blocks.length === 0) diagnostics.push({ severity: 'warning', path: md, line: 1, message: 'the Aider chat history is empty (no "aider chat started at" session)', agent: 'aider' })
      for (const line of history.damagedHeaders.slice(0, 20)) {
        diagnostics.push({ severity: 'warning', path: md, line, message: 'this line looks like a damaged "# aider chat started at" header: the session it began is shown as part of the one before', agent: 'aider' })
      }
      for (const b of history.blocks) {
        refs.push({ agent: 'aider', sessionId: b.id, format: FORMAT_CHAT_HISTORY, files, size, mtimeMs, home: layout.home, hints: { projectDir: hit.dir, projectKey: key, startLine: b.startLine, ...(hit.known ? { knownProject: true } : {}) } })
      }
    } catch (e) {
      diagnostics.push({ severity: 'warning', skipped: 1, path: md, message: `cannot read Aider chat history: ${(e as Error).message}`, agent: 'aider' })
    }
  }
  return { refs, diagnostics }
}
