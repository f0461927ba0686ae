/**
 * Issue 14: the resume matrix takes every public-real Claude Code and Codex case
 * (fixtures/public-real/<agent>/<case>/home) as a source, merged into one home per agent, and
 * skips an agent with no case. The matrix itself needs the real CLIs and is not run here
 * (resume/README.md).
 */
import { readdirSync, rmSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findAppRoot } from '../src/main/context'
import { readFixtureSessions } from './builders/fixture-sources'
import { PUBLIC_REAL_DIR, publicRealSources } from '../resume/public-real'

const roots: string[] = []
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })))

/** The distinct paths, relative to a home, of the `.jsonl` files under `homes`. */
function jsonlPaths(...homes: string[]): Set<string> {
  const out = new Set<string>()
  for (const h of homes) {
    for (const e of readdirSync(h, { withFileTypes: true, recursive: true })) {
      if (e.isFile() && e.name.endsWith('.jsonl')) out.add(relative(h, join(e.parentPath, e.name)))
    }
  }
  return out
}

describe('public-real sources of the resume matrix', () => {
  it('skips agents with no case', () => {
    const root = mkdtempSync(join(tmpdir(), 'sepia-prs-'))
    roots.push(root)
    expect(publicRealSources(root)).toEqual([])
  })

  it('merges every case of an agent into one home that holds all their files and reads', async () => {
    const root = findAppRoot()
    const sources = publicRealSources(root)
    expect(sources.map((s) => s.label)).toEqual(['public-real-claude-code', 'public-real-codex'])
    for (const s of sources) {
      const home = s.home()
      roots.push(home)
      expect(s.caseHomes.every((h) => h.startsWith(join(root, PUBLIC_REAL_DIR, s.agent)))).toBe(true)
      expect([...jsonlPaths(home)].sort()).toEqual([...jsonlPaths(...s.caseHomes)].sort())
      const sessions = await readFixtureSessions(s)
      expect(sessions.length).toBeGreaterThan(0)
    }
  })
})
