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
 * Not read: the newer openhands-cli (software-agent-sdk) store, said by third parties to be
 * `~/.openhands/conversations/<id>/events/event-*.json`; its source was not available here.
 */
import { readdir } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { statRegular, statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'

/** Store generation of `~/.openhands/sessions/<sid>/events/<n>.json`. */
export const FORMAT_EVENTS = 'openhands-events'

/** `<n>.json` → n, for event files (locations.py `get_conversation_event_filename`). */
export function eventFileId(name: string): number | undefined {
  const m = /^(\d+)\.json$/.exec(name)
  return m ? Number(m[1]) : undefined
}

/** The `sessions/` folder of the default file store under `layout` (`~/.openhands/sessions`). */
export function openhandsSessionsDir(layout: HomeLayout): string {
  return pathApiFor(layout.home).join(layout.home, '.openhands', 'sessions')
}

/** List OpenHands sessions under `layout`. Never throws: an unreadable folder is a diagnostic. */
export async function discoverOpenHands(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  const root = openhandsSessionsDir(layout)
  let sids: string[]
  try {
    sids = (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort()
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', path: root, message: `cannot list folder: ${(e as Error).message}`, agent: 'openhands' })
    return { refs, diagnostics }
  }
  for (const sid of sids) {
    const eventsDir = p.join(root, sid, 'events')
    let names: string[]
    try {
      names = await readdir(eventsDir)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', path: eventsDir, message: `cannot list folder: ${(e as Error).message}`, agent: 'openhands' })
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
