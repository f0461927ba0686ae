/**
 * Test helpers: discover, read and link every Gemini CLI session under a home folder the way the
 * app does (discover → read each ref → link), and write small synthetic homes. Used by this
 * folder's tests only.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Diagnostic, Session } from '../../../shared/ir'
import { layoutForHome } from '../../platform'
import type { ReadContext, StoreRef } from '../types'
import { gemini } from './index'

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

/** Discover, read and link all Gemini CLI sessions under `home` (a linux-layout home). */
export async function readHome(home: string): Promise<ReadHome> {
  const layout = await layoutForHome({ home, os: 'linux' })
  const { refs, diagnostics } = await gemini.discover(layout, testContext)
  const sessions: Session[] = []
  for (const ref of refs) sessions.push(await gemini.read(ref, testContext))
  gemini.link?.(sessions)
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

/** JSON lines of `records` (strings are written as they are, for broken lines). */
export function jsonl(records: unknown[]): string {
  return records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n'
}

/**
 * A temporary home holding `files` (paths relative to the home). Returns the home folder.
 * The caller removes it.
 */
export function makeHome(files: Record<string, string>): string {
  const home = mkdtempSync(join(tmpdir(), 'sepia-gemini-'))
  for (const [rel, text] of Object.entries(files)) {
    const path = join(home, rel)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text)
  }
  return home
}

/** A header line for synthetic sessions. */
export function header(sessionId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { sessionId, projectHash: 'abc', startTime: '2026-01-01T00:00:00.000Z', lastUpdated: '2026-01-01T00:00:00.000Z', kind: 'main', ...extra }
}
