/**
 * The pure helpers of the Search, Usage, Timeline and Settings views and of live updates:
 * snippet highlighting, the focus row of a search hit, folding a change set into the library,
 * the usage chart's day series, search filters from the form, timeline cells, front matter.
 */
import { describe, expect, it } from 'vitest'
import type { UsageRow } from '../../shared/catalog'
import type { TimelineRow } from '../../shared/timeline'
import { findFocusRow } from './focus'
import { splitFrontMatter } from './frontmatter'
import { highlightSegments } from './highlight'
import { applyChanges, touches } from './live'
import { localDayStart, toFilters, type SearchForm } from './stores/search'
import { kitchenSink, library, summary } from './test/fixtures'
import { cellText, cellTitle } from './timeline-columns'
import { buildTranscript } from './transcript'
import { daySeries, daySpan } from './usage-chart'

describe('highlightSegments', () => {
  it('cuts a snippet at its match ranges', () => {
    const text = 'let me re-read NOTES.md. cat NOTES.md'
    expect(highlightSegments(text, [[15, 23], [29, 37]])).toEqual([
      { text: 'let me re-read ', mark: false },
      { text: 'NOTES.md', mark: true },
      { text: '. cat ', mark: false },
      { text: 'NOTES.md', mark: true },
    ])
  })

  it('merges overlapping ranges, sorts, clamps and drops empty ones', () => {
    expect(highlightSegments('abcdefgh', [[5, 20], [1, 3], [2, 4], [6, 6], [-5, 0]])).toEqual([
      { text: 'a', mark: false },
      { text: 'bcd', mark: true },
      { text: 'e', mark: false },
      { text: 'fgh', mark: true },
    ])
  })

  it('keeps markup as text (never HTML)', () => {
    const segs = highlightSegments('<b>x</b>', [[3, 4]])
    expect(segs.map((s) => s.text).join('')).toBe('<b>x</b>')
    expect(highlightSegments('', [])).toEqual([{ text: '', mark: false }])
  })
})

describe('findFocusRow', () => {
  const s = kitchenSink()
  const hidden = buildTranscript(s.nodes, false)

  it('finds a message row', () => {
    expect(findFocusRow(hidden.items, s.nodes, 'a2', false)).toEqual({ kind: 'row', index: 4, rowNodeId: 'a2' })
  })

  it('sends a paired tool result to the message that made the call', () => {
    expect(findFocusRow(hidden.items, s.nodes, 'r2', false)).toEqual({ kind: 'row', index: 1, rowNodeId: 'a1' })
  })

  it('asks to show injected messages for a hidden one, then finds it', () => {
    expect(findFocusRow(hidden.items, s.nodes, 'm1', false)).toEqual({ kind: 'hidden-meta' })
    const shown = buildTranscript(s.nodes, true)
    expect(findFocusRow(shown.items, s.nodes, 'm1', true)).toEqual({ kind: 'row', index: 1, rowNodeId: 'm1' })
  })

  it('falls back to the row before a node with nothing to show; null for an unknown id', () => {
    expect(findFocusRow(hidden.items, s.nodes, 'a3', false)).toEqual({ kind: 'row', index: 4, rowNodeId: 'a2' })
    expect(findFocusRow(hidden.items, s.nodes, 'nope', false)).toBeNull()
  })
})

describe('applyChanges', () => {
  const lib = library([summary('a', { createdAt: 3 }), summary('b', { createdAt: 2 }), summary('c', { agent: 'cline', createdAt: 1 })])

  it('replaces changed sessions in place, adds new ones newest first, drops removed ones, recounts', () => {
    const next = applyChanges(lib, {
      changedSessions: [summary('b', { createdAt: 2, messageCount: 9 }), summary('d', { agent: 'cline', createdAt: 5 })],
      removedSessions: [{ agent: 'claude-code', id: 'a' }],
    })!
    expect(next.sessions.map((s) => [s.id, s.messageCount])).toEqual([
      ['d', 2],
      ['b', 9],
      ['c', 2],
    ])
    expect(next.agents.map((a) => [a.id, a.sessionCount])).toEqual([
      ['claude-code', 1],
      ['cline', 2],
    ])
    expect(lib.sessions).toHaveLength(3)
  })

  it('returns the same library when nothing changed, null for an agent it does not list', () => {
    expect(applyChanges(lib, { changedSessions: [], removedSessions: [] })).toBe(lib)
    expect(applyChanges(lib, { changedSessions: [summary('x', { agent: 'codex' })], removedSessions: [] })).toBeNull()
  })

  it('tells whether a change touches a session', () => {
    const ch = { changedSessions: [summary('b')], removedSessions: [{ agent: 'cline' as const, id: 'c' }] }
    expect([touches(ch, 'claude-code/b'), touches(ch, 'cline/c'), touches(ch, 'claude-code/a')]).toEqual([true, true, false])
  })
})

describe('daySeries', () => {
  const row = (key: string, input: number, cost: number): UsageRow => ({
    key,
    label: key,
    models: [],
    inputTokens: input,
    outputTokens: 1,
    cacheReadTokens: 2,
    cacheWriteTokens: 3,
    thinkingTokens: 0,
    totalTokens: input + 6,
    cost,
    recordedCost: 0,
    messages: 1,
    unpricedMessages: 0,
    tokensUnknownMessages: 0,
  })

  it('fills the days between the first and the last with zeros', () => {
    const s = daySeries([row('2026-03-03', 30, 0.3), row('2026-02-27', 10, 0.1)])
    expect(s.days).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03'])
    expect(s.tokens.inputTokens).toEqual([10, 0, 0, 0, 30])
    expect(s.tokens.cacheWriteTokens).toEqual([3, 0, 0, 0, 3])
    expect(s.cost).toEqual([0.1, 0, 0, 0, 0.3])
  })

  it('shows only the days with usage over a long span', () => {
    expect(daySpan('2025-10-09', '2026-11-30')).toBe(417)
    expect(daySeries([row('2026-11-30', 1, 0), row('2025-10-09', 2, 0)]).days).toEqual(['2025-10-09', '2026-11-30'])
  })
})

describe('search filters', () => {
  const form: SearchForm = { agent: '', project: '', since: '', until: '', model: '', role: '', toolName: '', sort: 'relevance' }

  it('sends only the filters set; days are whole local days, the last one included', () => {
    expect(toFilters(form)).toEqual({ limit: 50, offset: 0, sort: 'relevance' })
    const f = toFilters({ ...form, agent: 'cline', since: '2026-03-01', until: '2026-03-02', model: ' claude ', role: 'user', toolName: 'Bash', sort: 'recent' }, 50)
    expect(f).toEqual({
      limit: 50,
      offset: 50,
      sort: 'recent',
      agent: 'cline',
      since: new Date(2026, 2, 1).getTime(),
      until: new Date(2026, 2, 3).getTime(),
      model: 'claude',
      role: 'user',
      toolName: 'Bash',
    })
    expect(localDayStart('nope')).toBeUndefined()
  })
})

describe('timeline cells', () => {
  const row: TimelineRow = {
    timestampUtc: Date.UTC(2025, 9, 9, 8, 53, 20),
    sessionId: 's1',
    projectPath: '/home/u/proj',
    gitBranch: '',
    turnType: 'tool_use',
    model: 'claude-sonnet-4-5',
    toolName: 'read_file',
    toolUseId: 'toolu_1',
    text: 'line one\n  line two',
    sourceFile: '/home/u/.cline/data/logs/hooks.jsonl',
    sourceLine: 7,
    agent: 'cline',
    recovered: { source: 'hooks.jsonl' },
  }

  it('reads a row as one line per cell, with the whole value in the title', () => {
    expect(cellText(row, 'source')).toBe('hooks.jsonl:7')
    expect(cellTitle(row, 'source')).toBe('/home/u/.cline/data/logs/hooks.jsonl:7')
    expect(cellText(row, 'text')).toBe('line one line two')
    expect(cellText(row, 'turn_type')).toBe('tool use')
    expect(cellText(row, 'recovered')).toBe('hooks.jsonl')
    expect(cellTitle(row, 'timestamp_utc')).toBe('2025-10-09T08:53:20.000Z')
    expect(cellText(row, 'timestamp_utc')).toMatch(/2025/)
    expect(cellText(row, 'timestamp_utc')).toMatch(/08:53:20/)
  })
})

describe('splitFrontMatter', () => {
  it('splits key: value front matter from the body', () => {
    expect(splitFrontMatter('---\nname: pdf\ndescription: "Work with PDF files"\n---\nUse pdftotext.\n')).toEqual({
      meta: [
        ['name', 'pdf'],
        ['description', 'Work with PDF files'],
      ],
      body: 'Use pdftotext.\n',
    })
  })

  it('leaves text without (simple) front matter alone', () => {
    expect(splitFrontMatter('# Rules\n---\n')).toEqual({ meta: [], body: '# Rules\n---\n' })
    expect(splitFrontMatter('---\n- list\n---\nx').meta).toEqual([])
  })
})
