/**
 * The report of `npm run resume-rewind` (resume/rewind.ts): rendered rows parse back, and the
 * committed resume/REWIND.md, written by a run with the real Claude Code CLI, says every
 * checkpoint's files after the CLI's /rewind equal Sepia's restore; its Cline section, written by
 * `npm run resume-rewind-cline` (resume/rewind-cline.ts) with the real Cline CLI's `/undo`, says the
 * same for the four Cline runs. No CLI is run here.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseRewindReport, PROMPTS, renderReport } from '../resume/rewind'
import { parseClineSection, renderClineSection, spliceSection } from '../resume/rewind-cline'

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

  it('the Cline section renders, splices in place of an earlier one and parses back', () => {
    const row = (n: number, same: boolean) => ({ n, ref: `abcdef0${n}99`, kind: n === 1 ? 'commit' : 'stash', prompt: `[cw${n}] x`, cli: 'README.md=1', sepia: 'wrote a | b', same, note: '' })
    const meta = { cli: 'cline@3.0.65', sessionId: 's', seconds: 1, finalTree: '' }
    const md = spliceSection(spliceSection('# Claude\n\nResult: **PASS**\n', renderClineSection([row(1, false)], meta)), renderClineSection([row(1, true), row(2, true)], meta))
    expect(md.match(/cline-rewind: written/g)).toHaveLength(1)
    expect(parseClineSection(md)).toEqual({ pass: true, rows: [{ n: 1, ref: 'abcdef01', kind: 'commit', same: true }, { n: 2, ref: 'abcdef02', kind: 'stash', same: true }] })
    expect(parseClineSection(renderClineSection([row(1, true), row(2, false)], meta))!.pass).toBe(false)
    // The Claude Code rows are read from the part before the Cline section only.
    expect(parseRewindReport(md).rows).toEqual([])
  })

  it('the committed Cline section covers the four runs (a commit checkpoint, then stashes), all identical', () => {
    const r = parseClineSection(readFileSync(join(__dirname, '../resume/REWIND.md'), 'utf8'))!
    expect(r.rows.map((x) => [x.n, x.kind, x.same])).toEqual([[1, 'commit', true], [2, 'stash', true], [3, 'stash', true], [4, 'stash', true]])
    expect(r.pass).toBe(true)
  })
})
