/**
 * Test helper: discover, read and link every Codex session under a home folder, the way the
 * library does (discover → read each ref → link). Used by this folder's tests only.
 */
import type { Diagnostic, Session } from '../../../shared/ir'
import { layoutForHome } from '../../platform'
import type { ReadContext, StoreRef } from '../types'
import { codex } from './index'
import { FORMAT } from './read'

/** A fixed clock for tests (ms since epoch). */
export const testContext: ReadContext = { now: () => 0 }

/** Everything read from one home. */
export interface ReadHome {
  refs: StoreRef[]
  sessions: Session[]
  /** Discovery diagnostics. */
  diagnostics: Diagnostic[]
  /** Session by id; throws when absent (so tests fail with a clear message). */
  byId(id: string): Session
}

/** Discover, read and link all Codex sessions under `home` (a linux-layout home). */
export async function readHome(home: string): Promise<ReadHome> {
  const layout = await layoutForHome({ home, os: 'linux' })
  const { refs, diagnostics } = await codex.discover(layout, testContext)
  const sessions: Session[] = []
  for (const ref of refs) sessions.push(await codex.read(ref, testContext))
  codex.link?.(sessions)
  return {
    refs,
    sessions,
    diagnostics,
    byId(id) {
      const s = sessions.find((x) => x.id === id)
      if (!s) throw new Error(`no session ${id} under ${home} (have ${sessions.map((x) => x.id).join(', ')})`)
      return s
    },
  }
}

/** Read one rollout file directly (no discovery), as a ref with the file-name id. */
export async function readFile(path: string, home = '/'): Promise<Session> {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.jsonl$/, '')
  const ref: StoreRef = { agent: 'codex', sessionId: name, format: FORMAT, files: [path], size: 0, mtimeMs: 0, home }
  return codex.read(ref, testContext)
}
