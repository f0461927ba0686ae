/** The generic timeline: exports, orders, the IR projection of other agents. */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Session } from '../../shared/ir'
import type { TimelineRow } from '../../shared/timeline'
import { claudeCode } from '../agents/claude-code'
import { readHome, REPO } from '../../../tests/builders/cline/test-helpers'
import { rowRecord, toCsv, toJsonl } from './export'
import { projectSession } from './project'
import { naturalOrder, sortRows } from './sort'

const row = (over: Partial<TimelineRow>): TimelineRow => ({
  sessionId: 's',
  projectPath: '/p',
  gitBranch: '',
  turnType: 'user',
  model: '',
  toolName: '',
  toolUseId: '',
  text: '',
  sourceFile: '/f',
  agent: 'cline',
  ...over,
})

describe('timeline exports', () => {
  it('CSV: seed column names, RFC 4180 quoting, formula cells defused, empty for absent values', () => {
    const csv = toCsv([
      row({ timestampUtc: 1760000000000, text: 'say "hi", then\nleave', sourceLine: 3 }),
      row({ text: '=HYPERLINK("http://x")', recovered: { source: 'hooks.jsonl' } }),
    ])
    expect(csv.split('\r\n')).toEqual([
      'timestamp_utc,session_id,project_path,git_branch,turn_type,model,tool_name,tool_use_id,text,source_file,source_line,agent,recovered_from',
      '2025-10-09T08:53:20.000Z,s,/p,,user,,,,"say ""hi"", then\nleave",/f,3,cline,',
      `,s,/p,,user,,,,"'=HYPERLINK(""http://x"")",/f,,cline,hooks.jsonl`,
      '',
    ])
  })

  it('JSONL: one record per line with the same columns, texts exact', () => {
    const lines = toJsonl([row({ text: '=1+1' }), row({ timestampUtc: 0, turnType: 'system' })]).trimEnd().split('\n')
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { ...rowRecord(row({ text: '=1+1' })), text: '=1+1' },
      rowRecord(row({ timestampUtc: 0, turnType: 'system' })),
    ])
    expect(JSON.parse(lines[1]!).timestamp_utc).toBe('1970-01-01T00:00:00.000Z')
    expect(toJsonl([])).toBe('')
  })
})

describe('timeline orders', () => {
  it('keeps an undated row beside its file neighbours and puts wholly undated files last', () => {
    const rows = [
      row({ sessionId: 'a', sourceFile: '/a', timestampUtc: 30, text: 'a1' }),
      row({ sessionId: 'a', sourceFile: '/a', text: 'a2 (undated)' }),
      row({ sessionId: 'b', sourceFile: '/b', timestampUtc: 10, text: 'b1' }),
      row({ sessionId: '', sourceFile: '/h', text: 'h1 (undated, before a dated line)' }),
      row({ sessionId: '', sourceFile: '/h', timestampUtc: 20, text: 'h2' }),
      row({ sessionId: 'c', sourceFile: '/c', text: 'c1 (no time at all)' }),
      row({ sessionId: 'b', sourceFile: '/b', timestampUtc: 40, text: 'b2' }),
    ]
    expect(naturalOrder(rows).map((r) => r.text)).toEqual(['b1', 'h1 (undated, before a dated line)', 'h2', 'a1', 'a2 (undated)', 'b2', 'c1 (no time at all)'])
  })

  it('sorts by a column with empty values last, ties in time order, and reverses', () => {
    const rows = [row({ toolName: 'b', timestampUtc: 2, text: '1' }), row({ toolName: '', timestampUtc: 1, text: '2' }), row({ toolName: 'a', timestampUtc: 3, text: '3' }), row({ toolName: 'a', timestampUtc: 0, text: '4' })]
    expect(sortRows(rows, 'toolName').map((r) => r.text)).toEqual(['4', '3', '1', '2'])
    expect(sortRows(rows, 'toolName', true).map((r) => r.text)).toEqual(['2', '1', '3', '4'])
    expect(sortRows(rows).map((r) => r.text)).toEqual(['4', '2', '1', '3'])
  })
})

describe('projection of an IR session (agents without a row parser)', () => {
  it('gives one row per text, thinking, tool call and result of a Claude Code session', async () => {
    const h = await readHome(claudeCode, join(REPO, 'fixtures/real/claude-code/home'))
    for (const s of h.sessions) {
      const rows = projectSession(s)
      const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
      expect(rows.filter((r) => r.turnType === 'tool_use').map((r) => r.toolUseId)).toEqual(calls.map((c) => c.id))
      expect(rows.filter((r) => r.turnType === 'tool_result')).toHaveLength(s.nodes.filter((n) => n.role === 'tool').length)
      expect(rows.filter((r) => r.turnType === 'thinking')).toHaveLength(s.nodes.filter((n) => n.thinking && n.role !== 'tool' && n.role !== 'system' && !n.event).length)
      expect(rows.every((r) => r.agent === 'claude-code' && r.sessionId === s.id && r.projectPath === (s.workingDirectory ?? ''))).toBe(true)
    }
  })

  it('marks recovered nodes with their source, file and line', () => {
    const s: Session = {
      irVersion: 1, id: 'x', agent: 'cline', checkpoints: [], diagnostics: [], metadata: {}, source: { format: 'cline-sdk', files: ['/t.json'] },
      nodes: [
        { nodeId: 'a', role: 'user', content: 'hi', createdAt: 5 },
        { nodeId: 'b', role: 'user', content: 'lost', recovered: { source: 'session-search.db', path: '/db', line: 2 } },
        { nodeId: 'c', role: 'tool', content: 'boom', isError: true, toolCallId: 't1', toolName: 'bash' },
      ],
    }
    expect(projectSession(s).map((r) => [r.turnType, r.text, r.sourceFile, r.sourceLine ?? null, r.recovered?.source ?? null, r.timestampUtc ?? null])).toEqual([
      ['user', 'hi', '/t.json', null, null, 5],
      ['user', 'lost', '/db', 2, 'session-search.db', null],
      ['tool_result', '[error] boom', '/t.json', null, null, null],
    ])
  })
})
