/**
 * `sepia search` where the user has no agent history: the built-in demo library is what gets
 * searched, and the output says so (a first-user try: 15 hits printed as if they were the user's
 * own sessions, while `sepia list` marked the homes "(demo)"), and an id not found there names the
 * demo, not its folders. With `--home` it says nothing of the demo.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli as run } from './helpers/cli-run'
import { tempDirs, useEnv } from './helpers/temp'
import { findAppRoot } from '../src/main/context'

const ROOT = findAppRoot()
const dir = tempDirs()('sepia-search-demo-')
mkdirSync(join(dir, 'home'))
useEnv(() => ({ HOME: join(dir, 'home'), SEPIA_DATA_DIR: join(dir, 'data') }))

describe('sepia search on the demo library', () => {
  it('says the hits come from the demo library when there is no history of the user', async () => {
    const r = await run('search', 'capital')
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^[1-9]\d*\+? match/)
    expect(r.out).toContain('(These are from the demo library')
    // JSON stays the result alone.
    const j = await run('search', 'capital', '--json')
    expect(() => JSON.parse(j.out)).not.toThrow()
  }, 120_000)

  it('sepia usage says its tokens and cost are the demo library\'s, as search and list do; --json and --csv stay data alone', async () => {
    const r = await run('usage')
    expect(r.code).toBe(0)
    expect(r.out).toContain("(These are the demo library's tokens and cost: Sepia found no agent history of yours.")
    const j = await run('usage', '--json')
    expect(() => JSON.parse(j.out)).not.toThrow()
    expect((await run('usage', '--csv')).out).not.toContain('demo')
    expect((await run('usage', '--home', join(ROOT, 'fixtures/real/claude-code/home'))).out).not.toContain('demo library')
  }, 120_000)

  it('an id not found in the demo library says so instead of listing the demo folders (show, put-back)', async () => {
    for (const cmd of ['show', 'put-back']) {
      const r = await run(cmd, 'c79310a4-no-such-id')
      expect(r.code, cmd).not.toBe(0)
      expect(r.err, cmd).toContain('No session "c79310a4-no-such-id" in the demo library')
      expect(r.err, cmd).not.toContain('fixtures')
    }
  }, 120_000)

  it('says nothing of the demo for a home opened with --home', async () => {
    const r = await run('search', 'capital', '--home', join(ROOT, 'fixtures/real/claude-code/home'))
    expect(r.code).toBe(0)
    expect(r.out).not.toContain('demo library')
  }, 120_000)
})
