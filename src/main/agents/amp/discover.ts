/**
 * Find Amp (npm `@sourcegraph/amp`, now `@ampcode/cli`) threads under one home:
 * `~/.local/share/amp/threads/T-<uuid>.json`, one JSON file a thread.
 *
 * The CLI (`@ampcode/cli-linux-x64` 0.0.1790142911-g7618fb) is a compiled binary whose JavaScript
 * is not stored as readable text, so the layout comes from public readers of the store:
 * plyght/amp-acp `src/amp_agent.rs` (commit 09f2897c, `threads_directory`) and
 * jonathan-kellerai/cross_agent_session_resumer `src/providers/amp.rs` (commit ec0eab96,
 * `CENTRAL_THREADS_DIR`). `XDG_DATA_HOME` overrides and the VS Code extension's older
 * `globalStorage/sourcegraph.amp/threads3/` folder are not read.
 */
import { readdir } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { storeEntries } from '../link-loop'
import { statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'

/** Store generation of Amp's one-JSON-file-a-thread store. */
export const FORMAT_AMP = 'amp-thread-json'

/** List Amp threads under `layout`. Never throws: an unreadable folder is a diagnostic. */
export async function discoverAmp(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  const root = p.join(layout.home, '.local', 'share', 'amp', 'threads')
  let names: string[] = []
  try {
    // A link that loops or leads above, and a folder named like a thread file, are named, not read (agents/link-loop.ts).
    names = (await storeEntries(root, await readdir(root, { withFileTypes: true }), 'amp', diagnostics, (n) => n.endsWith('.json'))).files.filter((n) => n.endsWith('.json'))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: root, message: `cannot list folder: ${(e as Error).message}`, agent: 'amp' })
  }
  for (const name of names) {
    const path = p.join(root, name)
    const s = await statSessionFile(path, 'amp', diagnostics)
    if (s) refs.push({ agent: 'amp', sessionId: name.replace(/\.json$/, ''), format: FORMAT_AMP, files: [path], size: s.size, mtimeMs: s.mtimeMs, home: layout.home })
  }
  return { refs, diagnostics }
}
