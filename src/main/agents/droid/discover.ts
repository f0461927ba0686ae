/**
 * Find Factory Droid (npm `@factory/cli` 0.225.x, `droid`) sessions under one home:
 * `~/.factory/sessions/<project slug>/<id>.jsonl` with its `<id>.settings.json` side file, plus the
 * layouts Droid's own `findSessionFilePath` knows: the global root `sessions/<id>.jsonl` and btw
 * forks `sessions/btw/<id>.jsonl`.
 *
 * Layout read from the bundled code of the `@factory/cli-linux-x64` 0.225.2 binary (the 0.225.1
 * platform package is not in the registry): `getSessionMessagesPath` (`<sessions dir>/<id>.jsonl`),
 * `Nw` (`<project key>/<id>.jsonl` and `<id>.settings.json`), the session-index comment naming the
 * three layouts (`''`, `'btw'`, `-Users-me-repo`), and the real store in fixtures/real/droid
 * (`/home/pat/src/notes-cli` → `-home-pat-src-notes-cli`). The slug is not decoded: the session's
 * `session_start.cwd` names the project. `FACTORY_HOME` overrides are not followed.
 */
import { readdir } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { statRegular, statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'

/** Store generation of Droid's JSONL transcripts (`session_start.version` 2 in 0.225). */
export const FORMAT_DROID = 'droid-jsonl'

async function list(dir: string, diagnostics: Diagnostic[]): Promise<{ name: string; isDir: boolean }[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).map((d) => ({ name: d.name, isDir: d.isDirectory() })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: 'droid' })
    return []
  }
}

/** List Droid sessions under `layout`. Never throws: an unreadable folder is a diagnostic. */
export async function discoverDroid(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  const root = p.join(layout.home, '.factory', 'sessions')
  const take = async (dir: string, name: string): Promise<void> => {
    const path = p.join(dir, name)
    const s = await statSessionFile(path, 'droid', diagnostics)
    if (!s) return
    const id = name.replace(/\.jsonl$/, '')
    const settingsPath = p.join(dir, `${id}.settings.json`)
    const settings = await statRegular(settingsPath)
    refs.push({
      agent: 'droid',
      sessionId: id,
      format: FORMAT_DROID,
      files: settings ? [path, settingsPath] : [path],
      size: s.size + (settings?.size ?? 0),
      mtimeMs: Math.max(s.mtimeMs, settings?.mtimeMs ?? 0),
      home: layout.home,
    })
  }
  for (const entry of await list(root, diagnostics)) {
    if (entry.isDir && !entry.name.endsWith('.jsonl')) {
      const dir = p.join(root, entry.name)
      for (const f of await list(dir, diagnostics)) if (f.name.endsWith('.jsonl')) await take(dir, f.name) // a folder so named is named by statSessionFile
    } else if (entry.name.endsWith('.jsonl')) await take(root, entry.name)
  }
  return { refs, diagnostics }
}
