/**
 * Test helper: discover, read and link every Claude Code session under a home folder, the way
 * the app does (discover → read each ref → link). Used by this folder's tests only.
 */
import type { Diagnostic, Session } from '../../../shared/ir'
import { layoutForHome } from '../../platform'
import type { ReadContext, StoreRef } from '../types'
import { claudeCode } from './index'

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

/** Discover, read and link all Claude Code sessions under `home` (a linux-layout home). */
export async function readHome(home: string): Promise<ReadHome> {
  const layout = await layoutForHome({ home, os: 'linux' })
  const { refs, diagnostics } = await claudeCode.discover(layout, testContext)
  const sessions: Session[] = []
  for (const ref of refs) sessions.push(await claudeCode.read(ref, testContext))
  claudeCode.link?.(sessions)
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
