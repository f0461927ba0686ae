/**
 * Test helpers for this folder: discover, read and link every session of one OpenCode-family
 * member under a home folder (the way the app does), and snapshot a folder's files to prove that
 * reading never changes them.
 */
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { Diagnostic, Session } from '../../../src/shared/ir'
import { layoutForHome } from '../../../src/main/platform'
import type { AgentDefinition, ReadContext, StoreRef } from '../../../src/main/agents/types'

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

/** Discover, read and link all sessions of `agent` under `home` (a linux-layout home). */
export async function readHome(agent: AgentDefinition, home: string, env: Record<string, string> = {}): Promise<ReadHome> {
  const layout = await layoutForHome({ home, os: 'linux', env })
  const { refs, diagnostics } = await agent.discover(layout, testContext)
  const sessions: Session[] = []
  for (const ref of refs) sessions.push(await agent.read(ref, testContext))
  agent.link?.(sessions)
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

/** Every file under `dir` (relative path → sha256 of its bytes), for before/after comparisons. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name)
      if (statSync(p).isDirectory()) walk(p)
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex')
    }
  }
  walk(dir)
  return out
}
