/**
 * Test helper: discover, read and link every Codex session under a home folder, the way the
 * library does (discover → read each ref → link). Used by this folder's tests only.
 */
import type { Session } from '../../../src/shared/ir'
import { readHomeOf, testContext, type ReadHome } from '../testing'
import type { StoreRef } from '../../../src/main/agents/types'
import { codex } from '../../../src/main/agents/codex/index'
import { FORMAT } from '../../../src/main/agents/codex/read'

export { testContext, type ReadHome } from '../testing'

/** Discover, read and link all sessions of this agent under `home` (a linux-layout home). */
export function readHome(home: string): Promise<ReadHome> {
  return readHomeOf(codex, home)
}

/** Read one rollout file directly (no discovery), as a ref with the file-name id. */
export async function readFile(path: string, home = '/'): Promise<Session> {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.jsonl$/, '')
  const ref: StoreRef = { agent: 'codex', sessionId: name, format: FORMAT, files: [path], size: 0, mtimeMs: 0, home }
  return codex.read(ref, testContext)
}
