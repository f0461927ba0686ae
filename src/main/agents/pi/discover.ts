/**
 * Find Pi (npm `@mariozechner/pi-coding-agent`) sessions under one home:
 * `~/.pi/agent/sessions/<encoded cwd>/<timestamp>_<session id>.jsonl`.
 *
 * Layout from pi-mono `packages/coding-agent/src/core/session-manager.ts` (`getDefaultSessionDir`:
 * the folder is `--<cwd without its leading slash, "/", "\" and ":" turned into "-">--`;
 * `newSession`: the file is `<ISO timestamp with ":" and "." as "->_<id>.jsonl`) and the real
 * store in fixtures/real/pi (pi 0.73.1). The session id is the file name after the first `_`
 * (it equals the header line's `id`; the reader says so when they differ). Pi's own
 * `PI_CODING_AGENT_DIR` and `--session-dir` overrides are not followed: a home is read as is.
 */
import { readdir } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'

/** Store generation of Pi's JSONL session tree (header `version` 1 to 3). */
export const FORMAT_PI = 'pi-jsonl'

/** The session id a Pi session file name carries: `<timestamp>_<id>.jsonl` → `<id>`. */
export function sessionIdOfFile(name: string): string {
  const base = name.replace(/\.jsonl$/, '')
  const cut = base.indexOf('_')
  return cut >= 0 && cut < base.length - 1 ? base.slice(cut + 1) : base
}

async function list(dir: string, diagnostics: Diagnostic[]): Promise<{ name: string; isDir: boolean; isFile: boolean }[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).map((d) => ({ name: d.name, isDir: d.isDirectory(), isFile: d.isFile() })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: 'pi' })
    return []
  }
}

/** List Pi sessions under `layout`. Never throws: an unreadable folder is a diagnostic. */
export async function discoverPi(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  const root = p.join(layout.home, '.pi', 'agent', 'sessions')
  for (const folder of await list(root, diagnostics)) {
    if (!folder.isDir) continue
    const dir = p.join(root, folder.name)
    for (const f of await list(dir, diagnostics)) {
      if (!f.name.endsWith('.jsonl')) continue // a folder so named is named by statSessionFile
      const path = p.join(dir, f.name)
      const s = await statSessionFile(path, 'pi', diagnostics)
      if (s) refs.push({ agent: 'pi', sessionId: sessionIdOfFile(f.name), format: FORMAT_PI, files: [path], size: s.size, mtimeMs: s.mtimeMs, home: layout.home })
    }
  }
  return { refs, diagnostics }
}
