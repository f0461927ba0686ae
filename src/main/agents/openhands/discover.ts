/**
 * Find OpenHands sessions under one home. The OpenHands V0 CLI (`openhands`, removed from
 * All-Hands-AI/OpenHands in 297af05d53, `openhands/cli/main.py`) and `openhands serve` keep their
 * event streams in the local file store at `file_store_path`, default `~/.openhands`
 * (openhands/core/config/openhands_config.py @156d0686; `~` expanded by LocalFileStore,
 * openhands/storage/local.py; the CLI's runtime opens it in `create_runtime`, openhands/core/setup.py
 * at 297af05d53^: `EventStream(session_id, get_file_store(config.file_store, config.file_store_path))`),
 * laid out by
 * openhands/storage/locations.py @156d0686:
 * `sessions/<sid>/events/<id>.json` (one event per file, `id` from 0), `sessions/<sid>/metadata.json`
 * (ConversationMetadata, written by the server's conversation store; the CLI may leave none) and
 * `sessions/<sid>/event_cache/<start>-<end>.json` (pages of 25 events duplicating the event files;
 * not read). One ref per `sessions/<sid>/` folder with at least one event file; `files` lists the
 * event files in id order, then `metadata.json` when present.
 *
 * The newer CLI (`openhands`, OpenHands/OpenHands-CLI, built on OpenHands/software-agent-sdk:
 * "V1") writes another store, found by {@link discoverOpenHandsV1}: `~/.openhands/conversations/
 * <uuid hex>/` (openhands_cli/locations.py @6b3838ce `get_conversations_dir`, the SDK appends the
 * conversation id's hex: `BaseConversation.get_persistence_dir`, openhands-sdk/openhands/sdk/
 * conversation/base.py @611629e6) holding `base_state.json` (the ConversationState) and
 * `events/event-<idx:05d>-<event uuid>.json` (persistence_const.py `EVENT_FILE_PATTERN`,
 * `EVENT_NAME_RE`: five or more digits). One ref per folder with at least one event file;
 * `files` lists the event files in index order, then `base_state.json` when present. The
 * `OPENHANDS_PERSISTENCE_DIR` / `OPENHANDS_CONVERSATIONS_DIR` overrides are not followed.
 */
import { readdir } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { storeEntries } from '../link-loop'
import { statRegular, statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'

/** Store generation of `~/.openhands/sessions/<sid>/events/<n>.json`. */
export const FORMAT_EVENTS = 'openhands-events'

/** Store generation of `~/.openhands/conversations/<hex>/events/event-<n>-<uuid>.json` (V1). */
export const FORMAT_V1 = 'openhands-v1-conversation'

/** `event-<idx>-<uuid>.json` → idx, for V1 event files (persistence_const.py `EVENT_NAME_RE`). */
export function v1EventFileIndex(name: string): number | undefined {
  const m = /^event-(\d{5,})-[0-9a-fA-F-]{8,}\.json$/.exec(name)
  return m ? Number(m[1]) : undefined
}

/** `<n>.json` → n, for event files (locations.py `get_conversation_event_filename`). */
export function eventFileId(name: string): number | undefined {
  const m = /^(\d+)\.json$/.exec(name)
  return m ? Number(m[1]) : undefined
}

/** The `sessions/` folder of the default file store under `layout` (`~/.openhands/sessions`). */
export function openhandsSessionsDir(layout: HomeLayout): string {
  return pathApiFor(layout.home).join(layout.home, '.openhands', 'sessions')
}

/** List OpenHands sessions (V0 and V1 stores) under `layout`. Never throws: an unreadable folder is a diagnostic. */
export async function discoverOpenHands(layout: HomeLayout, ctx: ReadContext): Promise<DiscoverResult> {
  const v0 = await discoverOpenHandsV0(layout, ctx)
  const v1 = await discoverOpenHandsV1(layout, ctx)
  return { refs: [...v0.refs, ...v1.refs], diagnostics: [...v0.diagnostics, ...v1.diagnostics] }
}

/** The V1 conversations folder under `layout` (`~/.openhands/conversations`). */
export function openhandsConversationsDir(layout: HomeLayout): string {
  return pathApiFor(layout.home).join(layout.home, '.openhands', 'conversations')
}

/** List openhands-cli (V1) conversations under `layout`. Never throws. */
export async function discoverOpenHandsV1(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  const root = openhandsConversationsDir(layout)
  let ids: string[]
  try {
    // Conversation folders, links to folders followed; a link that loops or leads above is named, not followed (agents/link-loop.ts).
    ids = (await storeEntries(root, await readdir(root, { withFileTypes: true }), 'openhands', diagnostics)).folders
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: root, message: `cannot list folder: ${(e as Error).message}`, agent: 'openhands' })
    return { refs, diagnostics }
  }
  for (const id of ids) {
    const eventsDir = p.join(root, id, 'events')
    let names: string[]
    try {
      names = await readdir(eventsDir)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: eventsDir, message: `cannot list folder: ${(e as Error).message}`, agent: 'openhands' })
      continue
    }
    const events = names.flatMap((n) => {
      const idx = v1EventFileIndex(n)
      return idx === undefined ? [] : [{ idx, name: n, path: p.join(eventsDir, n) }]
    }).sort((a, b) => a.idx - b.idx || (a.name < b.name ? -1 : 1))
    const files: string[] = []
    let size = 0
    let mtimeMs = 0
    for (const ev of events) {
      const s = await statSessionFile(ev.path, 'openhands', diagnostics)
      if (!s) continue
      files.push(ev.path)
      size += s.size
      mtimeMs = Math.max(mtimeMs, s.mtimeMs)
    }
    if (files.length === 0) continue
    const state = p.join(root, id, 'base_state.json')
    const ss = await statRegular(state)
    if (ss) {
      files.push(state)
      size += ss.size
      mtimeMs = Math.max(mtimeMs, ss.mtimeMs)
    }
    refs.push({ agent: 'openhands', sessionId: id, format: FORMAT_V1, files, size, mtimeMs, home: layout.home })
  }
  return { refs, diagnostics }
}

/** List V0 sessions (`~/.openhands/sessions/<sid>/events/<n>.json`) under `layout`. Never throws. */
export async function discoverOpenHandsV0(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  const root = openhandsSessionsDir(layout)
  let sids: string[]
  try {
    // Session folders, links to folders followed; a link that loops or leads above is named, not followed (agents/link-loop.ts).
    sids = (await storeEntries(root, await readdir(root, { withFileTypes: true }), 'openhands', diagnostics)).folders
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: root, message: `cannot list folder: ${(e as Error).message}`, agent: 'openhands' })
    return { refs, diagnostics }
  }
  for (const sid of sids) {
    const eventsDir = p.join(root, sid, 'events')
    let names: string[]
    try {
      names = await readdir(eventsDir)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: eventsDir, message: `cannot list folder: ${(e as Error).message}`, agent: 'openhands' })
      continue
    }
    const events = names.flatMap((n) => {
      const id = eventFileId(n)
      return id === undefined ? [] : [{ id, path: p.join(eventsDir, n) }]
    }).sort((a, b) => a.id - b.id)
    if (events.length === 0) continue
    const files: string[] = []
    let size = 0
    let mtimeMs = 0
    for (const ev of events) {
      const s = await statSessionFile(ev.path, 'openhands', diagnostics)
      if (!s) continue
      files.push(ev.path)
      size += s.size
      mtimeMs = Math.max(mtimeMs, s.mtimeMs)
    }
    const metadata = p.join(root, sid, 'metadata.json')
    const ms = await statRegular(metadata)
    if (ms) {
      files.push(metadata)
      size += ms.size
      mtimeMs = Math.max(mtimeMs, ms.mtimeMs)
    }
    if (files.length === 0) continue
    refs.push({ agent: 'openhands', sessionId: sid, format: FORMAT_EVENTS, files, size, mtimeMs, home: layout.home })
  }
  return { refs, diagnostics }
}
