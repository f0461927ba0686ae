/**
 * Find GitHub Copilot CLI sessions under one home: `~/.copilot/session-state/<sessionId>/events.jsonl`
 * (the layout of the public real sessions in fixtures/public-real/copilot-cli, SOURCES.md "Layout";
 * the CLI also keeps a `workspace.yaml` beside it, listed as a secondary file when present).
 * The session id is the folder name (it equals `session.start.data.sessionId`).
 */
import { readdir } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { storeEntries } from '../link-loop'
import { statRegular, statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'

/** Store generation of `events.jsonl` sessions. */
export const FORMAT_EVENTS = 'copilot-cli-events'

/** List Copilot CLI sessions under `layout`. Never throws: an unreadable root is a diagnostic. */
export async function discoverCopilotCli(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  const root = p.join(layout.home, '.copilot', 'session-state')
  let names: string[] = []
  try {
    // Session folders, links to folders followed; a link that loops or leads above is named, not followed (agents/link-loop.ts).
    names = (await storeEntries(root, await readdir(root, { withFileTypes: true }), 'copilot-cli', diagnostics)).folders
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: root, message: `cannot list folder: ${(e as Error).message}`, agent: 'copilot-cli' })
  }
  for (const name of names) {
    const events = p.join(root, name, 'events.jsonl')
    const s = await statSessionFile(events, 'copilot-cli', diagnostics)
    if (!s) continue
    const files = [events]
    let size = s.size
    let mtimeMs = s.mtimeMs
    const yaml = p.join(root, name, 'workspace.yaml')
    const y = await statRegular(yaml)
    if (y) {
      files.push(yaml)
      size += y.size
      mtimeMs = Math.max(mtimeMs, y.mtimeMs)
    }
    refs.push({ agent: 'copilot-cli', sessionId: name, format: FORMAT_EVENTS, files, size, mtimeMs, home: layout.home })
  }
  return { refs, diagnostics }
}
