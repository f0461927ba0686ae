/** `sepia timeline` on the seed000 home: CSV, JSONL, JSON and the text table, filters, bad usage. */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findAppRoot } from '../src/main/context'
import { runCli } from './helpers/cli-run'

const HOME = join(findAppRoot(), 'fixtures/seed000/home')

const run = runCli

describe('sepia timeline', () => {
  it('--csv prints the export with the seed columns', async () => {
    const r = await run('timeline', '--home', HOME, '--session', '1759980000000_hk001', '--csv')
    expect(r.code).toBe(0)
    const lines = r.out.trimEnd().split('\r\n')
    expect(lines[0]).toBe('timestamp_utc,session_id,project_path,git_branch,turn_type,model,tool_name,tool_use_id,text,source_file,source_line,agent,recovered_from')
    expect(lines.slice(1).map((l) => l.split(',')[4])).toEqual(['system', 'user', 'tool_use', 'tool_result', 'assistant'])
    expect(lines.every((l, i) => i === 0 || l.endsWith(',cline,hooks.jsonl'))).toBe(true)
  })

  it('--jsonl and --json print every row; the text table marks recovered rows', async () => {
    const jsonl = await run('timeline', '--home', HOME, '--agent', 'cline', '--project', '/home/u/proj', '--jsonl')
    expect(jsonl.code).toBe(0)
    const records = jsonl.out.trimEnd().split('\n').map((l) => JSON.parse(l) as { project_path: string })
    expect(records.length).toBeGreaterThan(40)
    expect(records.every((r) => r.project_path === '/home/u/proj')).toBe(true)
    const json = await run('timeline', '--home', HOME, '--agent', 'cline', '--project', '/home/u/proj', '--json')
    const doc = JSON.parse(json.out) as { total: number; rows: unknown[] }
    expect(doc.total).toBe(records.length)
    expect(doc.rows).toHaveLength(records.length)
    const text = await run('timeline', '--home', HOME, '--session', '1759990000000_del01')
    expect(text.code).toBe(0)
    expect(text.out.split('\n')[0]).toBe('7 rows')
    expect(text.out).toContain('rename the config loader  [recovered: session-search.db]')
  })

  it('refuses two formats and an unknown agent', async () => {
    expect((await run('timeline', '--home', HOME, '--csv', '--jsonl')).code).toBe(2)
    const r = await run('timeline', '--home', HOME, '--agent', 'vim')
    expect(r.code).toBe(1)
    expect(r.err).toContain('"vim" is not an agent id.')
  })
})
