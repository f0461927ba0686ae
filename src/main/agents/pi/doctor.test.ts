/**
 * `sepia doctor` on Pi stores: the census counts every line of the real session files (counted
 * here from the raw JSONL), knows every entry type Pi wrote, and names an entry type it does not
 * know with its file and line.
 */
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { HealthReport } from '../../../shared/health'
import { REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'

const SOURCE = join(REPO_ROOT, 'fixtures', 'real', 'pi', 'home')
const REL = join('.pi', 'agent', 'sessions', '--home-pat-src-todo-cli--')

it('counts every record of the real Pi sessions, and names an unknown entry type by file and line', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sepia-pi-doctor-'))
  cpSync(SOURCE, home, { recursive: true })
  const dir = join(home, REL)
  const files = readdirSync(dir).sort().map((f) => join(dir, f))
  const lines = files.map((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim() !== '').length)
  let report = JSON.parse((await runCli('doctor', '--home', home, '--json')).out) as HealthReport
  let a = report.homes[0]!.agents.find((x) => x.agent === 'pi')!
  expect(a.records).toBe(lines[0]! + lines[1]!)
  expect(a.unknownTypes).toEqual([])
  expect(a.toolCallsWithoutResult).toBe(0)

  appendFileSync(files[1]!, JSON.stringify({ type: 'future_entry', id: 'ffff0000', parentId: null, timestamp: '2026-01-01T00:00:00.000Z' }) + '\n')
  report = JSON.parse((await runCli('doctor', '--home', home, '--json')).out) as HealthReport
  a = report.homes[0]!.agents.find((x) => x.agent === 'pi')!
  expect(a.unknownTypes).toEqual([{ type: 'future_entry', count: 1, first: { agent: 'pi', path: files[1]!, line: lines[1]! + 1 } }])
})
