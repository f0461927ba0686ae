/**
 * Issue 14: the resume matrix takes the public-real Claude Code and Codex homes as sources when
 * they exist under fixtures/public-real/<agent>/home, and skips them while they do not. The
 * matrix itself needs the real CLIs and is not run here (resume/README.md).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findAppRoot } from '../src/main/context'
import { readFixtureSessions } from '../src/main/convert/fixture-sources'
import { PUBLIC_REAL_DIR, publicRealSources } from '../resume/public-real'

const roots: string[] = []
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })))

describe('public-real sources of the resume matrix', () => {
  it('skips homes that are not there', () => {
    const root = mkdtempSync(join(tmpdir(), 'sepia-prs-'))
    roots.push(root)
    expect(publicRealSources(root)).toEqual([])
  })

  it('lists a home once it is there and reads its sessions', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sepia-prs-'))
    roots.push(root)
    const home = join(root, PUBLIC_REAL_DIR, 'claude-code', 'home')
    mkdirSync(home, { recursive: true })
    // Stand-in until the public-real fixtures land: the real Claude Code sample home.
    cpSync(join(findAppRoot(), 'fixtures/real/claude-code/home'), home, { recursive: true })
    const sources = publicRealSources(root)
    expect(sources.map((s) => s.label)).toEqual(['public-real-claude-code'])
    expect((await readFixtureSessions(sources[0]!)).length).toBeGreaterThan(0)
  })
})
