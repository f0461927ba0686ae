/**
 * Test helpers: discover, read and link every Gemini CLI session under a home folder the way the
 * app does (discover → read each ref → link), and write small synthetic homes. Used by this
 * folder's tests only.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { readHomeOf, type ReadHome } from '../testing'
import { gemini } from '../../../src/main/agents/gemini/index'

export { testContext, type ReadHome } from '../testing'

/** Discover, read and link all sessions of this agent under `home` (a linux-layout home). */
export function readHome(home: string): Promise<ReadHome> {
  return readHomeOf(gemini, home)
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
