/**
 * Search over the catalog: words in code and paths, prefixes, phrases, exclusions, filters,
 * snippets with match offsets; query parsing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AGENTS } from '../agents/registry'
import { findAppRoot } from '../context'
import { LibraryService } from '../library'
import { layoutForHome } from '../platform'
import { parseQuery } from './query'
import { searchCatalog } from './search'
import { snippetOf } from './snippet'

const ROOT = findAppRoot()
const dir = mkdtempSync(join(tmpdir(), 'sepia-search-'))
const home = join(dir, 'home')
const A = 'aaaaaaaa-1111-4111-8111-000000000001'
const B = 'bbbbbbbb-2222-4222-8222-000000000002'
let lib: LibraryService

/** A Claude Code transcript with the given turns (user text, assistant text, optional Bash call + output). */
function transcript(id: string, cwd: string, day: string, turns: { user: string; assistant: string; bash?: string; output?: string }[]): void {
  const folder = join(home, '.claude/projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'))
  mkdirSync(folder, { recursive: true })
  const lines: string[] = []
  let parent: string | null = null
  let n = 0
  const next = () => `${id.slice(0, 24)}${String(++n).padStart(12, '0')}`
  const at = (k: number) => `${day}T10:${String(k).padStart(2, '0')}:00.000Z`
  turns.forEach((t, i) => {
    const u = next()
    lines.push(JSON.stringify({ parentUuid: parent, type: 'user', message: { role: 'user', content: t.user }, uuid: u, timestamp: at(i * 3), cwd, sessionId: id }))
    const a = next()
    const content: unknown[] = [{ type: 'text', text: t.assistant }]
    if (t.bash) content.push({ type: 'tool_use', id: `toolu_${id.slice(0, 4)}${i}`, name: 'Bash', input: { command: t.bash } })
    lines.push(JSON.stringify({ parentUuid: u, type: 'assistant', requestId: `req_${a}`, message: { id: `msg_${a}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, usage: { input_tokens: 10, output_tokens: 5 } }, uuid: a, timestamp: at(i * 3 + 1), cwd, sessionId: id }))
    parent = a
    if (t.bash) {
      const r = next()
      lines.push(JSON.stringify({ parentUuid: a, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${id.slice(0, 4)}${i}`, content: t.output ?? '' }] }, uuid: r, timestamp: at(i * 3 + 2), cwd, sessionId: id }))
      parent = r
    }
  })
  writeFileSync(join(folder, `${id}.jsonl`), lines.join('\n') + '\n')
}

beforeAll(async () => {
  transcript(A, '/home/ana/src/ledger', '2026-03-01', [
    { user: 'Why does parse_invoice_line fail?', assistant: 'The function getSessionPage in src/main/library.ts returns early.', bash: 'grep -rn parse_invoice_line src/', output: 'src/parser/invoice.ts:12: export function parse_invoice_line(row) {' },
    { user: 'Fix the café rounding error please', assistant: 'Fixed the rounding in money.ts.' },
  ])
  transcript(B, '/home/ana/src/weather', '2026-04-10', [{ user: 'Add a forecast command', assistant: 'Added forecast in src/cli.ts; no parse errors.', bash: 'npm test', output: 'all tests passed' }])
  lib = new LibraryService([{ layout: await layoutForHome({ home }), isDemo: false }, { layout: await layoutForHome({ home: join(ROOT, 'fixtures/real/cline/home') }), isDemo: false }], AGENTS, { now: () => 0 }, { workers: 0 })
  await lib.load()
  await lib.whenIdle()
})
afterAll(async () => {
  await lib.close()
  rmSync(dir, { recursive: true, force: true })
})

const search = (q: string, f = {}) => searchCatalog(lib.db, lib.homePaths, q, f)
/** Only the generated Claude Code home (the Cline fixtures mention parsers too). */
const cc = (q: string, f = {}) => search(q, { agent: 'claude-code', ...f })

describe('search', () => {
  it('finds identifiers, snake_case names and paths, with highlighted snippets', () => {
    const r = search('parse_invoice_line')
    expect(r.partial).toBe(false)
    expect(r.hits.map((h) => [h.sessionId, h.role]).sort()).toEqual([[A, 'assistant'], [A, 'tool'], [A, 'user']])
    for (const h of r.hits) {
      expect(h.highlights.length).toBeGreaterThan(0)
      for (const [a, b] of h.highlights) expect(h.snippet.slice(a, b).toLowerCase()).toBe('parse_invoice_line')
    }
    const user = r.hits.find((h) => h.role === 'user')!
    expect(user.snippet).toBe('Why does parse_invoice_line fail?')
    expect(user.nodeIndex).toBe(0)
    expect(user.createdAt).toBe(Date.parse('2026-03-01T10:00:00.000Z'))
    expect(user.project).toBe('/home/ana/src/ledger')

    const path = search('src/main/library.ts')
    expect(path.hits.map((h) => h.sessionId)).toEqual([A])
    const [a, b] = path.hits[0]!.highlights[0]!
    expect(path.hits[0]!.snippet.slice(a, b)).toBe('src/main/library.ts')
    // A word inside a path is found too (the tokenizer splits on / and .).
    expect(search('library').hits.map((h) => h.sessionId)).toEqual([A])
  })

  it('matches the last word as a prefix while typing, phrases, exclusions, diacritics', () => {
    expect(search('getSess').hits.map((h) => h.role)).toEqual(['assistant'])
    expect(search('getSess ').hits).toEqual([]) // a finished word is not a prefix
    expect(search('"rounding error"').hits.map((h) => h.role)).toEqual(['user'])
    expect(search('"error rounding"').hits).toEqual([])
    expect(cc('parse -invoice').hits.map((h) => h.sessionId)).toEqual([B])
    expect(search('cafe').hits.map((h) => h.sessionId)).toEqual([A])
    expect(search('-parse').hits).toEqual([])
    expect(search('   ').hits).toEqual([])
    expect(search('"unclosed AND (').hits).toEqual([])
  })

  it('filters by agent, project, date range, model, role and tool name', () => {
    expect(search('forecast', { agent: 'cline' }).hits).toEqual([])
    expect(search('forecast', { agent: ['claude-code', 'cline'] }).hits.length).toBe(2)
    expect(new Set(cc('parse', { project: '/home/ana/src/weather' }).hits.map((h) => h.sessionId))).toEqual(new Set([B]))
    expect(cc('parse', { project: '/home/ana/src' }).hits.length).toBe(4)
    expect(cc('parse', { project: '/home/ana/sr' }).hits).toEqual([])
    expect(new Set(cc('parse', { since: '2026-04-01' }).hits.map((h) => h.sessionId))).toEqual(new Set([B]))
    expect(new Set(cc('parse', { until: '2026-04-01' }).hits.map((h) => h.sessionId))).toEqual(new Set([A]))
    expect(cc('parse', { role: 'tool' }).hits.map((h) => h.sessionId)).toEqual([A])
    expect(cc('parse', { toolName: 'bash' }).hits.map((h) => `${h.sessionId === A ? 'A' : 'B'} ${h.role}`).sort()).toEqual(['A assistant', 'A tool', 'B assistant'])
    expect(search('forecast', { model: 'claude-sonnet-4-5' }).hits.map((h) => h.role).sort()).toEqual(['assistant', 'user'])
    expect(search('forecast', { model: 'gpt-5' }).hits).toEqual([])
    expect(() => search('x', { agent: 'nobody' as never })).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }))
    expect(() => search('x', { since: 'yesterday-ish' })).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }))
  })

  it('searches the real Cline fixtures next to the generated home', () => {
    const r = search('capital France', { agent: 'cline' })
    expect(r.hits.length).toBeGreaterThan(0)
    expect(r.hits.every((h) => h.agent === 'cline')).toBe(true)
    expect(r.hits.some((h) => /capital/i.test(h.snippet))).toBe(true)
  })

  it('pages with limit and offset and says when more exist', () => {
    const all = cc('parse', { limit: 500 })
    expect(all.hits.length).toBe(4)
    const first = cc('parse', { limit: 2 })
    expect(first.more).toBe(true)
    const second = cc('parse', { limit: 2, offset: 2 })
    expect(second.more).toBe(false)
    expect([...first.hits, ...second.hits].map((h) => h.nodeId).sort()).toEqual(all.hits.map((h) => h.nodeId).sort())
  })
})

describe('query parsing and snippets', () => {
  it('quotes words, prefixes the last one, excludes, keeps phrases', () => {
    expect(parseQuery('foo bar').match).toBe('"foo" AND "bar"*')
    expect(parseQuery('foo bar ').match).toBe('"foo" AND "bar"')
    expect(parseQuery('"a b" -c d').match).toBe('("a b" AND "d"*) NOT "c"')
    expect(parseQuery('say "hi').match).toBe('"say" AND "hi"')
    expect(parseQuery('x"y').match).toBe('"x""y"*')
    expect(parseQuery('-only').match).toBeUndefined()
    expect(parseQuery('src/a.ts').parts).toEqual([{ tokens: ['src', 'a', 'ts'], prefix: true }])
  })

  it('cuts a snippet around the first match and maps highlights through whitespace', () => {
    const text = `${'lorem '.repeat(60)}the   needle\n\nis here ${'ipsum '.repeat(60)}`
    const at = text.indexOf('needle')
    const s = snippetOf(text, [[at, at + 6]])
    expect(s.snippet.startsWith('…')).toBe(true)
    expect(s.snippet.endsWith('…')).toBe(true)
    const [a, b] = s.highlights[0]!
    expect(s.snippet.slice(a, b)).toBe('needle')
    expect(s.snippet).toContain('the needle is here')
  })
})

describe('search when the catalog also holds homes that are not open', () => {
  it('still finds the open home\'s matches behind newer matches of other homes', () => {
    // The catalog holds both homes; open only the fixture Cline home. Its matches are older
    // (smaller message ids) than the temp home's, which must not hide them.
    const cline = [join(ROOT, 'fixtures/real/cline/home')]
    const all = searchCatalog(lib.db, lib.homePaths, 'NOTES.md', { limit: 500 })
    const only = searchCatalog(lib.db, cline, 'NOTES.md', { limit: 500 })
    expect(only.hits.length).toBeGreaterThan(0)
    expect(only.hits.every((h) => h.agent === 'cline')).toBe(true)
    expect(only.hits.length).toBe(all.hits.filter((h) => h.agent === 'cline').length)
  })
})

