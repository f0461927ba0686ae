/**
 * The first opening of the homes is one for every caller. The renderer asks for the library, the
 * archive status, the retention warnings and the index status at once; before, the later callers
 * went on while the first was still opening the own home, and the library came back empty
 * instead of the demo library (an empty home falls back to the demo).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createApi } from '../src/main/api'
import { demoHomes, findAppRoot } from '../src/main/context'
import { processContext } from '../src/main/host'

const temps: string[] = []
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })))

describe('first opening of the homes', () => {
  it('concurrent first calls on an empty own home all get the demo library', async () => {
    const ctx = processContext({ mode: 'browser', homes: [], appRoot: findAppRoot() })
    const own = mkdtempSync(join(tmpdir(), 'sepia-own-'))
    const data = mkdtempSync(join(tmpdir(), 'sepia-data-'))
    temps.push(own, data)
    ctx.ownHome = own
    ctx.env = { HOME: own }
    ctx.appDataDir = data
    const api = createApi(ctx)
    const [, , lib] = await Promise.all([api.getArchiveStatus(), api.getRetentionWarnings(), api.getLibrary(), api.getIndexStatus()])
    expect(lib.homes.every((h) => h.isDemo)).toBe(true)
    expect(lib.homes.map((h) => h.path).sort()).toEqual(demoHomes(ctx.fixturesDir).sort())
    expect(lib.sessions.length).toBeGreaterThan(0)
    // Independent of Sepia: the Claude Code demo home holds this many transcripts.
    const ccDir = join(findAppRoot(), 'fixtures/real/claude-code/home/.claude/projects')
    const transcripts = readdirSync(ccDir, { recursive: true }).filter((f) => String(f).endsWith('.jsonl') && !String(f).includes('subagents')).length
    expect(lib.sessions.filter((s) => s.agent === 'claude-code').length).toBeGreaterThanOrEqual(Math.min(transcripts, 1))
  })
})
