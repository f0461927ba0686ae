/**
 * The report of `npm run resume-rewind` (resume/rewind.ts): rendered rows parse back, and the
 * committed resume/REWIND.md, written by a run with the real Claude Code CLI, says every
 * checkpoint's files after the CLI's /rewind equal Sepia's restore. No CLI is run here.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseRewindReport, PROMPTS, renderReport } from '../resume/rewind'

describe('resume/REWIND.md', () => {
  it('renders and parses back rows, PASS only when every row is identical', () => {
    const row = (n: number, same: boolean) => ({ n, messageId: `0000000${n}-aaaa`, prompt: PROMPTS[n - 1]!, cli: 'README.md=54d7f341', sepia: 'wrote/deleted a | b', same, note: 'list: "x"' })
    const meta = { cli: '@anthropic-ai/claude-code@2.1.332', sessionId: 's', seconds: 1, finalTree: '' }
    expect(parseRewindReport(renderReport([row(1, true), row(2, true)], meta))).toEqual({ pass: true, rows: [{ n: 1, messageId: '00000001', same: true }, { n: 2, messageId: '00000002', same: true }] })
    expect(parseRewindReport(renderReport([row(1, true), row(2, false)], meta)).pass).toBe(false)
    expect(parseRewindReport(renderReport([], meta)).pass).toBe(false)
  })

  it('the committed report covers the four checkpoints, all identical', () => {
    const r = parseRewindReport(readFileSync(join(__dirname, '../resume/REWIND.md'), 'utf8'))
    expect(r.rows.map((x) => [x.n, x.same])).toEqual([[1, true], [2, true], [3, true], [4, true]])
    expect(r.pass).toBe(true)
  })
})
