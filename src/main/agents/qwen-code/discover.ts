/**
 * Find Qwen Code sessions under one home: `~/.qwen/projects/<sanitized cwd>/chats/<sessionId>.jsonl`
 * (QwenLM/qwen-code packages/core/src/config/storage.ts @013e660f `getProjectDir`: `projects/` +
 * `sanitizeCwd(projectRoot)`, e.g. `-home-lin-src-notes-app`; chatRecordingService.ts writes
 * `chats/<sessionId>.jsonl` there; checked with the real CLI 0.15.10, fixtures/real/qwen-code).
 *
 * Where this differs from Gemini CLI (src/main/agents/gemini/discover.ts): Gemini keeps chats in
 * `~/.gemini/tmp/<slug or projectHash>/chats/session-<time>-<id8>.jsonl` with a `$set` log;
 * Qwen Code keys the folder by the sanitized path under `projects/` and names the file by the
 * full session id. The project's `meta.json` beside `chats/` is listed as a secondary file.
 * `QWEN_RUNTIME_DIR` (a relocated runtime folder) is not followed: a copied home has none.
 * `~/.qwen/tmp/<projectHash>/` (Gemini's older layout, which Qwen Code keeps for shell history and
 * checkpoints, `Storage.getProjectTempDir`) holds no chats and is not read; the 0.15.10 run left none.
 */
import { readdir } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { statRegular, statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'

/** Store generation of `projects/<cwd>/chats/<id>.jsonl` sessions. */
export const FORMAT_CHATS = 'qwen-code-chats-jsonl'

async function dirNames(dir: string, diagnostics: Diagnostic[], want: 'dir' | 'any'): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((d) => want === 'any' || d.isDirectory()).map((d) => d.name).sort()
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: 'qwen-code' })
    return []
  }
}

/** List Qwen Code sessions under `layout`. Never throws: an unreadable folder is a diagnostic. */
export async function discoverQwenCode(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  const root = p.join(layout.home, '.qwen', 'projects')
  for (const project of await dirNames(root, diagnostics, 'dir')) {
    const chats = p.join(root, project, 'chats')
    const meta = p.join(root, project, 'meta.json')
    const m = await statRegular(meta)
    // A folder named like a chat file is named by statSessionFile, not dropped.
    for (const name of await dirNames(chats, diagnostics, 'any')) {
      if (!name.endsWith('.jsonl')) continue
      const path = p.join(chats, name)
      const s = await statSessionFile(path, 'qwen-code', diagnostics)
      if (!s) continue
      refs.push({
        agent: 'qwen-code',
        sessionId: name.slice(0, -'.jsonl'.length),
        format: FORMAT_CHATS,
        files: m ? [path, meta] : [path],
        size: s.size + (m?.size ?? 0),
        mtimeMs: Math.max(s.mtimeMs, m?.mtimeMs ?? 0),
        home: layout.home,
        hints: { projectId: project },
      })
    }
  }
  return { refs, diagnostics }
}
