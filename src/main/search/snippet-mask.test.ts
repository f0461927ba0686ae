/**
 * Snippets are cut from masked text: a secret that a snippet's edge would split (so the mask no
 * longer recognises what is left of it) never reaches a search hit, not even a fragment.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { AGENTS } from '../agents/registry'
import { LibraryService } from '../library'
import { layoutForHome } from '../platform'
import { FAKE_SECRETS } from '../../../tests/builders/secrets/fake-secrets'
import { searchCatalog } from './search'

const dir = mkdtempSync(join(tmpdir(), 'sepia-snipmask-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('search snippets and secrets', () => {
  it('masks before cutting, so a key at the snippet edge leaves no fragment', async () => {
    const secret = FAKE_SECRETS.find((f) => f.kind === 'anthropic')!.secret
    const home = join(dir, 'home')
    const folder = join(home, '.claude/projects/-home-ana-src-x')
    mkdirSync(folder, { recursive: true })
    // The match is at the start; the snippet (about 160 characters) ends inside the key.
    const text = `zebrafind ${'word '.repeat(26)}key ${secret} tail`
    const id = 'cccccccc-3333-4333-8333-000000000003'
    const lines = [
      { parentUuid: null, type: 'user', message: { role: 'user', content: text }, uuid: 'u1', timestamp: '2026-03-01T10:00:00.000Z', cwd: '/home/ana/src/x', sessionId: id },
      { parentUuid: 'u1', type: 'assistant', message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, uuid: 'a1', timestamp: '2026-03-01T10:00:01.000Z', cwd: '/home/ana/src/x', sessionId: id },
    ]
    writeFileSync(join(folder, `${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
    const lib = new LibraryService([{ layout: await layoutForHome({ home }), isDemo: false }], AGENTS, { now: () => 0 }, { workers: 0 })
    await lib.load()
    await lib.whenIdle()
    const { hits } = searchCatalog(lib.db, [home], 'zebrafind')
    expect(hits).toHaveLength(1)
    const snippet = hits[0]!.snippet
    expect(snippet.startsWith('zebrafind')).toBe(true)
    expect(snippet).toContain('••••')
    for (let i = 13; i + 8 <= secret.length; i += 4) expect(snippet).not.toContain(secret.slice(i, i + 8))
    expect(hits[0]!.highlights[0]).toEqual([0, 'zebrafind'.length])
    await lib.close()
  })
})
