/** Cline's secondary sources one by one, and the duplicate rule's windows and pools. */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { TimelineRow } from '../../../../shared/timeline'
import { removeTempDirs, REPO, tempDir } from '../../../../../tests/builders/cline/test-helpers'
import { makeRow, makeSecondaryRow } from '../timeline/rows'
import { layoutForHome } from '../../../platform'
import { discoverPrimary } from '../discover'
import { dropDuplicates } from './dedup'
import { discoverSecondary } from './discover'
import { readRecoveredSession } from './recover'
import { hookRowsAt, indexHookLog } from './hooks-log'
import { inputHistoryRows } from './input-history'
import { indexText, openSearchIndex, revisionMatchesFile } from './search-index'

afterAll(removeTempDirs)

const REAL = join(REPO, 'fixtures/real/cline/home/.cline/data')
const cline_ = { id: 'cline' as const, displayName: 'Cline', extensionIds: ['saoudrizwan.claude-dev'], readsSdkStore: true }

describe('session-search.db', () => {
  it('holds, for each real message, exactly the text the SDK indexes for it', () => {
    const index = openSearchIndex(join(REAL, 'db/session-search.db'))
    try {
      expect(index.fts5).toBe(true)
      const docs = index.documents().filter((d) => d.ordinal >= 0)
      expect(docs).toHaveLength(20)
      for (const d of docs) {
        const [parent, agent] = d.sessionId.split('__')
        const file = agent ? join(REAL, 'sessions', parent!, `${agent}.messages.json`) : join(REAL, 'sessions', parent!, `${parent}.messages.json`)
        const messages = (JSON.parse(readFileSync(file, 'utf8')) as { messages: unknown[] }).messages
        expect(indexText(messages[d.ordinal]), d.documentId).toBe(d.content)
      }
      expect(index.sessions.get('1796022183774_v75nv')!.sourceRevision).toBe('2026-11-30T07:03:04.609Z:9547:1796022184453.6804')
    } finally {
      index.close()
    }
  })

  it('walks content as the SDK does: keys in order, data/images/thinking/metadata skipped, numbers left out', () => {
    expect(indexText({ role: 'user', content: 'plain' })).toBe('plain')
    expect(indexText({ role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: 'S' }, { type: 'image', data: 'AAAA', mediaType: 'image/png' }, { type: 'tool_use', id: 't', name: 'n', input: { n: 3, ok: true, p: 'a' } }] })).toBe(
      'thinking\nS\nimage\nimage/png\ntool_use\nt\nn\na',
    )
    expect(indexText({ role: 'user' })).toBe('user')
  })

  it('compares a revision with a transcript by size only', () => {
    expect(revisionMatchesFile('2026-11-30T07:03:04.609Z:9547:1796022184453.6804', 9547)).toBe(true)
    expect(revisionMatchesFile('2026-11-30T07:03:04.609Z:9547:1796022184453.6804', 11528)).toBe(false)
    expect(revisionMatchesFile('2026-11-30T07:03:04.609Z:missing', 0)).toBe(false)
  })
})

describe('library discovery without FTS5', () => {
  it('warns once and lists a session known only to indexed_sessions by title, without its messages', async () => {
    const home = join(REPO, 'fixtures/seed000/home')
    const layout = await layoutForHome({ home })
    const { refs, diagnostics } = await discoverPrimary(layout, cline_)
    await discoverSecondary('cline', layout, refs, diagnostics, { fts5: false })
    expect(diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['warning', "This SQLite build has no FTS5, so the Cline search index's copy of each transcript cannot be read; sessions known only from it are listed by title, without messages."],
    ])
    const ref = refs.find((r) => r.sessionId === '1759990000000_del01')!
    const s = await readRecoveredSession(ref, { now: () => 0 })
    expect(s.title).toBe('rename the config loader')
    // its hook lines are still read
    expect(s.nodes.map((n) => [n.role, n.recovered!.source])).toEqual([['assistant', 'hooks.jsonl'], ['tool', 'hooks.jsonl']])
    expect(s.diagnostics.map((d) => d.severity)).toEqual(['warning', 'info'])
  })
})

describe('hooks.jsonl', () => {
  it('indexes turn lines by byte range (CRLF and multi-byte text) and reads them back', async () => {
    const dir = tempDir()
    const log = join(dir, 'hooks.jsonl')
    const line = (o: object) => JSON.stringify(o)
    writeFileSync(
      log,
      [
        line({ ts: '2026-01-01T00:00:00.000Z', hookName: 'agent_start', taskId: 's1' }),
        line({ ts: '2026-01-01T00:00:01.000Z', hookName: 'prompt_submit', taskId: 's1', userPromptSubmit: { prompt: 'héllo wörld ✓' } }),
        'garbage',
        line({ ts: '2026-01-01T00:00:02.000Z', hookName: 'agent_end', sessionContext: { rootSessionId: 's2' }, taskId: 'other', turn: { outputText: 'done' } }),
      ].join('\r\n'),
    )
    const index = await indexHookLog(log)
    expect([...index.sessions]).toEqual(['s1', 's2'])
    expect([...index.turns.keys()]).toEqual(['s1', 's2'])
    const rows = await hookRowsAt(log, [...index.turns.get('s1')!, ...index.turns.get('s2')!], 'cline')
    expect(rows.map((r) => [r.sessionId, r.turnType, r.text, r.sourceLine, r.timestampUtc])).toEqual([
      ['s1', 'user', 'héllo wörld ✓', 2, Date.parse('2026-01-01T00:00:01.000Z')],
      ['s2', 'assistant', 'done', 4, Date.parse('2026-01-01T00:00:02.000Z')],
    ])
  })
})

describe('hooks.jsonl, appended to', () => {
  it('scans only what was appended, and a line cut mid-write again once it is whole', async () => {
    const dir = tempDir()
    const log = join(dir, 'hooks.jsonl')
    const line = (n: number) => JSON.stringify({ ts: `2026-01-01T00:00:0${n}.000Z`, hookName: 'prompt_submit', taskId: 's', userPromptSubmit: { prompt: `p${n}` } })
    writeFileSync(log, `${line(1)}\n${line(2)}\n`)
    expect((await indexHookLog(log)).turns.get('s')!.map((r) => r.line)).toEqual([1, 2])
    const third = line(3)
    appendFileSync(log, third.slice(0, 30))
    expect((await indexHookLog(log)).turns.get('s')!.map((r) => r.line)).toEqual([1, 2])
    appendFileSync(log, `${third.slice(30)}\n${line(4)}\n`)
    const index = await indexHookLog(log)
    expect(index.turns.get('s')!.map((r) => r.line)).toEqual([1, 2, 3, 4])
    expect((await hookRowsAt(log, index.turns.get('s')!, 'cline')).map((r) => r.text)).toEqual(['p1', 'p2', 'p3', 'p4'])
  })
})

describe('user_input_history.jsonl', () => {
  it('dates only the last line, and none when a line is bad (named in one parser: row)', async () => {
    const dir = tempDir()
    const good = join(dir, 'good.jsonl')
    writeFileSync(good, '{"prompt":"a","ts":5}\n{"prompt":"b","ts":5}\n')
    expect((await inputHistoryRows(good, 'cline')).map((r) => [r.text, r.timestampUtc ?? null])).toEqual([['a', null], ['b', 5]])
    const bad = join(dir, 'bad.jsonl')
    writeFileSync(bad, '{"prompt":"a","ts":5}\n{"prompt":\n{"prompt":"b","ts":5}\n')
    expect((await inputHistoryRows(bad, 'cline')).map((r) => [r.turnType, r.text, r.timestampUtc ?? null])).toEqual([
      ['user', 'a', null],
      ['user', 'b', null],
      ['system', `parser: ${bad} has 1 bad line (line 2); skipped, and no prompt's time is known`, null],
    ])
  })
})

describe('the duplicate rule', () => {
  const primary = (over: Partial<TimelineRow>) => makeRow({ agent: 'cline', sessionId: 's', turnType: 'user', sourceFile: '/t', ...over })
  const hook = (over: Partial<TimelineRow>) => makeSecondaryRow({ agent: 'cline', sessionId: 's', turnType: 'user', sourceFile: '/h', recovered: { source: 'hooks.jsonl' }, ...over })
  const prompt = (over: Partial<TimelineRow>) => makeSecondaryRow({ agent: 'cline', turnType: 'user', sourceFile: '/p', recovered: { source: 'user_input_history.jsonl' }, ...over })
  const doc = (ordinal: number, over: Partial<TimelineRow>) => makeSecondaryRow({ agent: 'cline', sessionId: 's', turnType: 'user', sourceFile: '/db', recovered: { source: 'session-search.db' }, ...over }, { ordinal })
  const HOUR = 3_600_000

  it('pairs hook turns with the transcript by call id or text, same session, within an hour', () => {
    const p = [
      primary({ turnType: 'tool_use', toolUseId: 'c1', timestampUtc: 0 }),
      primary({ turnType: 'tool_result', toolUseId: 'c1', timestampUtc: 0 }),
      primary({ text: '<user_input mode="act">go</user_input>', timestampUtc: 0 }),
    ]
    const kept = dropDuplicates({
      primary: p,
      secondary: [
        hook({ turnType: 'tool_use', toolUseId: 'c1', timestampUtc: HOUR }),
        hook({ turnType: 'tool_result', toolUseId: 'c1', timestampUtc: HOUR + 1, text: 'late' }),
        hook({ text: 'go', timestampUtc: 10 }),
        hook({ text: 'go', sessionId: 'other', timestampUtc: 10 }),
        hook({ turnType: 'system', text: 'hook audit: agent_start' }),
      ],
    })
    expect(kept.map((r) => r.text || r.turnType)).toEqual(['late', 'go', 'hook audit: agent_start'])
    expect(kept[1]!.sessionId).toBe('other')
  })

  it('pairs a prompt-history line with any session on text; the dated one within 2 seconds', () => {
    const p = [primary({ sessionId: 'a', text: 'x', timestampUtc: 10_000 }), primary({ sessionId: 'b', text: 'y', timestampUtc: 10_000 })]
    const kept = dropDuplicates({ primary: p, secondary: [prompt({ text: 'x' }), prompt({ text: 'y', timestampUtc: 13_000 }), prompt({ text: 'z' })] })
    expect(kept.map((r) => r.text)).toEqual(['y', 'z'])
  })

  it('drops an index document that is the transcript message at its ordinal, and shares a pool with the prompt history', () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }, { role: 'user', content: 'again' }]
    const p = [primary({ text: 'go' }), primary({ text: 'again' })]
    const kept = dropDuplicates({
      primary: p,
      secondary: [
        // the hook pool is separate: taking "again" there does not stop the prompt history
        hook({ text: 'again' }),
        prompt({ text: 'again' }),
        doc(0, { text: 'text\ngo' }),
        doc(1, { text: 'again', sessionId: 's' }),
        doc(7, { text: 'again' }),
        doc(8, { text: 'lost turn' }),
      ],
      transcripts: new Map([['s', messages]]),
    })
    // doc 1 is message 1 itself; doc 7 is a second copy whose transcript row the prompt history already took
    expect(kept.map((r) => [r.recovered.source, r.text])).toEqual([
      ['session-search.db', 'again'],
      ['session-search.db', 'lost turn'],
    ])
  })
})
