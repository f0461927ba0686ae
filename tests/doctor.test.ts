/**
 * `sepia doctor` (issue 14 "Reading health"): what was read, record types Sepia does not know
 * (with the first file and line), tool calls without a result, stores of agents Sepia cannot read
 * yet, and "Report a problem" (a masked copy of one file). Counts come from an independent
 * reading of the raw files written or copied here.
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli as run } from './helpers/cli-run'
import { findAppRoot } from '../src/main/context'
import { findUnreadStores, UNREAD_DETECTORS, unreadAgentNames, unreadSentence } from '../src/main/health/unread'
import { layoutForHome, type HomeLayout } from '../src/main/platform'
import { FAKE_SECRETS, secretText } from './builders/secrets/fake-secrets'
import type { HealthReport } from '../src/shared/health'

const ROOT = findAppRoot()
const PUBLIC = join(ROOT, 'fixtures/public-real')
const temps: string[] = []
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})

const SID = '7d3c1e52-9a41-4b8e-b0c3-2f6d4a1e8b90'

/** A Claude Code home with one session: typed records, two records of a made-up newer type, a call with no result. */
function claudeHome(): { home: string; file: string; lines: string[] } {
  const home = mkdtempSync(join(tmpdir(), 'sepia-doctor-'))
  temps.push(home)
  const dir = join(home, '.claude', 'projects', '-home-ana-app')
  mkdirSync(dir, { recursive: true })
  const base = { sessionId: SID, cwd: '/home/ana/app', version: '2.1.300' }
  const records = [
    { ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content: `Look at ${home}/app, my key is ${secretText(FAKE_SECRETS[0]!)}` } },
    { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: '2026-11-01T10:00:01.000Z', message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls /Users/peyton/src' } }], usage: { input_tokens: 10, output_tokens: 5 } } },
    { ...base, type: 'brand-new-kind', uuid: 'x1', timestamp: '2026-11-01T10:00:02.000Z' },
    { ...base, type: 'user', uuid: 'u2', parentUuid: 'a1', timestamp: '2026-11-01T10:00:03.000Z', message: { role: 'user', content: 'thanks' } },
    { ...base, type: 'brand-new-kind', uuid: 'x2', timestamp: '2026-11-01T10:00:04.000Z' },
  ]
  const lines = records.map((r) => JSON.stringify(r))
  const file = join(dir, `${SID}.jsonl`)
  writeFileSync(file, lines.join('\n') + '\n')
  return { home, file, lines }
}

describe('sepia doctor', () => {
  it('counts records by type and version, names the unknown type with its first line, and the call without a result', async () => {
    const { home, file, lines } = claudeHome()
    // Independent reading of the raw file.
    const types = lines.map((l) => (JSON.parse(l) as { type: string }).type)
    const unknownLines = types.flatMap((t, i) => (t === 'brand-new-kind' ? [i + 1] : []))
    const r = await run('doctor', '--home', home, '--json')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.out) as HealthReport
    const cc = report.homes[0]!.agents.find((a) => a.agent === 'claude-code')!
    expect(cc.records).toBe(lines.length)
    expect(cc.sessions).toBe(1)
    expect(cc.filesRead).toBe(1)
    expect(cc.unknownTypes).toEqual([{ type: 'brand-new-kind', count: unknownLines.length, first: { path: file, line: unknownLines[0], agent: 'claude-code' } }])
    expect(cc.recordTypes.find((t) => t.type === 'user')).toEqual({ type: 'user', version: '2.1.300', count: types.filter((t) => t === 'user').length, known: true })
    expect(cc.toolCallsWithoutResult).toBe(1)
    expect(cc.unansweredCalls).toEqual([expect.objectContaining({ sessionId: SID, count: 1, names: ['Bash'] })])
    expect(report.totals).toMatchObject({ records: 5, recordsSkipped: 2, toolCallsWithoutResult: 1 })
    expect(report.summary).toBe('We read 60.0% of your 5 records in 1 session; 2 records of a kind Sepia does not read yet were skipped; 1 tool call has no recorded result.')

    const text = await run('doctor', '--home', home)
    expect(text.out.split('\n')[0]).toBe(report.summary)
    expect(text.out).toContain(`skipped: 2 "brand-new-kind" records of a kind Sepia does not read yet (first at ${file}:${unknownLines[0]})`)
    expect(text.out).toContain(`no result recorded: 1 tool call (Bash) in session ${SID}`)
  })

  it('names a session file it skipped at discovery (a FIFO, a warning) as a file that could not be read', async () => {
    // Before: `sepia list` warned about the FIFO but the doctor said "We read 100%" and named no file.
    const { home, lines } = claudeHome()
    const fifo = join(home, '.claude', 'projects', '-home-ana-app', '11111111-1111-4111-8111-111111111111.jsonl')
    execFileSync('mkfifo', [fifo])
    const r = await run('doctor', '--home', home, '--json')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.out) as HealthReport
    const cc = report.homes[0]!.agents.find((a) => a.agent === 'claude-code')!
    expect(cc.records).toBe(lines.length)
    expect(cc.skippedFiles).toEqual([expect.objectContaining({ path: fifo, agent: 'claude-code', reason: expect.stringContaining('not a regular file') })])
    expect(report.totals.skippedFiles).toBe(1)
    expect(report.summary).toContain('1 file could not be read')
    const text = await run('doctor', '--home', home)
    expect(text.out).toContain(fifo)
  })

  it('counts a session whose reader skipped a JSONL line (jsonLineObject, a warning) as read in part', async () => {
    // Pi and Qwen Code read their lines through jsonLineObject; one session of each gets a line
    // that is not a JSON object and a last line cut short (a crash mid-write).
    const home = mkdtempSync(join(tmpdir(), 'sepia-doctor-skip-'))
    temps.push(home)
    for (const agent of ['pi', 'qwen-code']) cpSync(join(ROOT, 'fixtures/real', agent, 'home'), home, { recursive: true })
    const piDir = join(home, '.pi/agent/sessions/--home-pat-src-todo-cli--')
    const piFile = join(piDir, readdirSync(piDir).sort()[0]!)
    const qwenDir = join(home, '.qwen/projects/-home-lin-src-notes-app/chats')
    const qwenFile = join(qwenDir, readdirSync(qwenDir).sort()[0]!)
    const damaged = [
      { agent: 'pi', file: piFile, id: (JSON.parse(readFileSync(piFile, 'utf8').split('\n')[0]!) as { id: string }).id },
      { agent: 'qwen-code', file: qwenFile, id: (JSON.parse(readFileSync(qwenFile, 'utf8').split('\n')[0]!) as { sessionId: string }).sessionId },
    ]

    const clean = JSON.parse((await run('doctor', '--home', home, '--json')).out) as HealthReport
    expect(clean.totals.partialSessions).toBe(0)

    const at = new Map<string, number>()
    for (const d of damaged) {
      const n = readFileSync(d.file, 'utf8').split('\n').filter((l) => l !== '').length
      appendFileSync(d.file, '[1,2]\n{"type":"mess')
      at.set(d.agent, n + 1)
    }
    const r = await run('doctor', '--home', home, '--json')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.out) as HealthReport
    for (const d of damaged) {
      const a = report.homes[0]!.agents.find((x) => x.agent === d.agent)!
      const line = at.get(d.agent)!
      expect(a.sessions).toBe(clean.homes[0]!.agents.find((x) => x.agent === d.agent)!.sessions)
      expect(a.partialSessions.map((p) => [p.sessionId, p.problems.map((q) => [q.path, q.line, q.message])])).toEqual([
        [d.id, [[d.file, line, 'line is not a JSON object; skipped'], [d.file, line + 1, 'line is not JSON (cut short?); skipped']]],
      ])
    }
    expect(report.totals.partialSessions).toBe(2)
    expect(report.summary).toContain('2 sessions were read only in part')

    const text = await run('doctor', '--home', home)
    for (const d of damaged) {
      expect(text.out).toContain(`read in part: session ${d.id}`)
      expect(text.out).toContain(`${d.file}:${at.get(d.agent)! + 1}: line is not JSON (cut short?); skipped`)
    }
  })

  it('counts a session whose reader skipped a message, log entry or event file (Diagnostic.skipped, a warning) as read in part', async () => {
    // Amp, VS Code Copilot Chat and OpenHands (both generations) word their skips their own way;
    // skipRecord marks them all. fixtures/built copies (no real store of these agents is public),
    // each with one record damaged.
    const home = mkdtempSync(join(tmpdir(), 'sepia-doctor-skip-record-'))
    temps.push(home)
    for (const b of ['amp/home', 'vscode-copilot-chat/jsonl/home', 'openhands/home', 'openhands-v1/home']) cpSync(join(ROOT, 'fixtures/built', b), home, { recursive: true })
    const clean = JSON.parse((await run('doctor', '--home', home, '--json')).out) as HealthReport
    expect(clean.totals.partialSessions).toBe(0)

    // Amp: message 1 of a thread becomes a string (named at the "messages" key: the messages no longer all have ids).
    const ampId = 'T-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'
    const ampFile = join(home, '.local/share/amp/threads', `${ampId}.json`)
    const thread = JSON.parse(readFileSync(ampFile, 'utf8')) as { messages: unknown[] }
    thread.messages[1] = 'not a message'
    const ampText = JSON.stringify(thread, null, 2)
    writeFileSync(ampFile, ampText)
    const ampLine = ampText.slice(0, ampText.indexOf('"messages"')).split('\n').length
    // VS Code Copilot Chat: a log entry cut short at the end of the file.
    const vsDir = join(home, '.vscode-server/data/User/workspaceStorage/0123456789abcdef0123456789abcdef/chatSessions')
    const vsFile = join(vsDir, readdirSync(vsDir)[0]!)
    const vsLine = readFileSync(vsFile, 'utf8').split('\n').filter((l) => l !== '').length + 1
    appendFileSync(vsFile, '{"kind":2,"k":["requests"],"v":[{"requ')
    // OpenHands: an event file cut short (V0) and one that is a JSON list (V1).
    const ohId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90'
    const ohFile = join(home, '.openhands/sessions', ohId, 'events/7.json')
    writeFileSync(ohFile, readFileSync(ohFile, 'utf8').slice(0, 40))
    const v1Id = 'c0ffee0012344abc9def0123456789ab'
    const v1Dir = join(home, '.openhands/conversations', v1Id, 'events')
    const v1File = join(v1Dir, readdirSync(v1Dir).sort()[5]!)
    writeFileSync(v1File, '[1, 2]')

    const r = await run('doctor', '--home', home, '--json')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.out) as HealthReport
    const partial = (agent: string) => report.homes[0]!.agents.find((x) => x.agent === agent)!.partialSessions.map((p) => [p.sessionId, p.problems.map((q) => [q.path, q.line, q.message])])
    expect(partial('amp')).toEqual([[ampId, [[ampFile, ampLine, 'message 1 is not a JSON object; skipped']]]])
    expect(partial('vscode-copilot-chat')).toEqual([['9d8e7f60-1a2b-4c3d-8e9f-0a1b2c3d4e5f', [[vsFile, vsLine, 'log entry is not JSON (cut short?); skipped']]]])
    expect(partial('openhands')).toEqual([
      [ohId, [[ohFile, 1, 'event file is not JSON (cut short?); skipped']]],
      [v1Id, [[v1File, 1, 'event file is not a JSON object; skipped']]],
    ])
    expect(report.totals.partialSessions).toBe(4)
    for (const a of report.homes[0]!.agents) expect(a.sessions).toBe(clean.homes[0]!.agents.find((x) => x.agent === a.agent)!.sessions)

    const text = await run('doctor', '--home', home)
    expect(text.out).toContain(`read in part: session ${ampId}`)
    expect(text.out).toContain(`${vsFile}:${vsLine}: log entry is not JSON (cut short?); skipped`)
  })

  it('counts a session whose JSONL reader skipped a line of its own (skipRecord) as read in part: real Codex, Gemini, Droid, Copilot CLI, Pi copies', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-doctor-skip-real-'))
    temps.push(home)
    const cases = [
      { agent: 'codex', file: '.codex/sessions/2026/11/30/rollout-2026-11-30T07-02-47-01a22b43-6965-7f70-8305-26886e29fe44.jsonl', add: '[1]', message: 'line is JSON but not an object; skipped' },
      { agent: 'gemini', file: '.gemini/tmp/notes-app/chats/session-2026-11-30T07-08-9fe12dc6.jsonl', add: '[1]', message: 'line is JSON but not an object; skipped' },
      { agent: 'droid', file: '.factory/sessions/-home-pat-src-notes-cli/46e406a8-0608-4af3-9f6f-9ea0aef3a16a.jsonl', add: '{"type":"message","id":"zz-lost"}', message: 'message event without a message object; skipped' },
      { agent: 'copilot-cli', file: '.copilot/session-state/fa6e1ae2-706f-498c-937a-516ebe77a632/events.jsonl', add: '{"type":"tool.execution_complete","data":{}}', message: 'tool.execution_complete without toolCallId; skipped' },
      { agent: 'pi', file: '.pi/agent/sessions/--home-pat-src-todo-cli--/2026-12-02T04-25-53-425Z_01a23500-7a0a-75d4-a432-0c32c4d21fd5.jsonl', add: '{"type":"message","id":"zz-lost","parentId":null}', message: 'message entry without a message object; skipped' },
    ]
    for (const c of cases) cpSync(join(ROOT, 'fixtures/real', c.agent, 'home'), home, { recursive: true })
    const clean = JSON.parse((await run('doctor', '--home', home, '--json')).out) as HealthReport
    expect(clean.totals.partialSessions).toBe(0)
    const lines = new Map<string, number>()
    for (const c of cases) {
      const file = join(home, c.file)
      const text = readFileSync(file, 'utf8')
      const prefix = text.endsWith('\n') ? '' : '\n'
      lines.set(c.agent, (text + prefix).split('\n').length)
      appendFileSync(file, `${prefix}${c.add}\n`)
    }
    const report = JSON.parse((await run('doctor', '--home', home, '--json')).out) as HealthReport
    for (const c of cases) {
      const a = report.homes[0]!.agents.find((x) => x.agent === c.agent)!
      expect(a.partialSessions.map((p) => p.problems.map((q) => [q.path, q.line, q.message])), c.agent).toEqual([[[join(home, c.file), lines.get(c.agent), c.message]]])
      expect(a.sessions).toBe(clean.homes[0]!.agents.find((x) => x.agent === c.agent)!.sessions)
    }
    expect(report.totals.partialSessions).toBe(cases.length)
  })

  it('Gemini public-real: every message counted, none unknown', async () => {
    for (const c of ['entire-write-file', 'entire-hook-warning-only']) {
      const home = join(PUBLIC, 'gemini', c, 'home')
      const tmp = join(home, '.gemini', 'tmp')
      const hash = readdirSync(tmp)[0]!
      const chats = join(tmp, hash, 'chats')
      const raw = JSON.parse(readFileSync(join(chats, readdirSync(chats)[0]!), 'utf8')) as { messages: unknown[] }
      const report = JSON.parse((await run('doctor', '--home', home, '--json')).out) as HealthReport
      const g = report.homes[0]!.agents.find((a) => a.agent === 'gemini')!
      expect(g.records).toBe(raw.messages.length)
      expect(g.unknownTypes).toEqual([])
      expect(report.summary).toMatch(/^We read 100% of your \d+ records? in 1 session\.$/)
    }
  })

  it('reads every record of the public Copilot CLI sessions (census from the raw events.jsonl)', async () => {
    for (const c of ['agentv-permissions', 'agentv-eval-shutdown']) {
      const home = join(PUBLIC, 'copilot-cli', c, 'home')
      const dir = join(home, '.copilot', 'session-state')
      const lines = readFileSync(join(dir, readdirSync(dir)[0]!, 'events.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '')
      const report = JSON.parse((await run('doctor', '--home', home, '--json')).out) as HealthReport
      const a = report.homes[0]!.agents.find((x) => x.agent === 'copilot-cli')!
      expect(a.records).toBe(lines.length)
      expect(a.unknownTypes).toEqual([])
      expect(report.summary).toMatch(/^We read 100% of your \d+ records? in 1 session\.$/)
    }
  })

  it('says plainly which stores it found but cannot read yet (a detector for a made-up agent; the only ones listed are encrypted stores)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-unread-'))
    temps.push(home)
    const store = join(home, '.zork', 'history.db')
    mkdirSync(dirname(store), { recursive: true })
    writeFileSync(store, '')
    const detectors = [{ agentName: 'Zork', paths: (l: HomeLayout) => [join(l.home, '.zork', 'history.db')] }]
    const layout = await layoutForHome({ home, os: 'linux' })
    expect(await findUnreadStores(layout, detectors)).toEqual([{ agentName: 'Zork', paths: [store], count: 1 }])
    expect(await unreadAgentNames([layout], detectors)).toEqual(['Zork'])
    expect(unreadSentence(['Zork', 'Amp'])).toBe('it found Zork and Amp history, which Sepia cannot read yet.')
    expect(UNREAD_DETECTORS.every((d) => d.reason === 'encrypted')).toBe(true)
  })

  it('reads the Aider, Crush and Goose stores it used to list as unreadable (counts from the raw files)', async () => {
    const cases: [string, string, number][] = [
      // one row in the sessions table of the public Goose sample (SOURCES.md).
      ['goose/empty-cli-session', 'Goose', 1],
      // `# aider chat started at` lines in the history file; `SELECT COUNT(*) FROM sessions` in the db (SOURCES.md).
      ['aider/zen-mcp-interrupted', 'Aider', readFileSync(join(PUBLIC, 'aider/zen-mcp-interrupted/home/git/github/zen-mcp-server/.aider.chat.history.md'), 'utf8').split('\n').filter((l) => l.startsWith('# aider chat started at')).length],
      ['crush/dbos-api-error', 'Crush', 2],
    ]
    for (const [c, name, n] of cases) {
      const r = await run('doctor', '--home', join(PUBLIC, c, 'home'))
      expect(r.code).toBe(0)
      expect(r.out).not.toContain('cannot read')
      expect(r.out).toContain(`${name}: ${n} session${n === 1 ? '' : 's'}`)
    }
  })

  it('--report writes a masked copy with the structure kept, and never touches the source', async () => {
    const { home, file, lines } = claudeHome()
    const before = readFileSync(file, 'utf8')
    const out = mkdtempSync(join(tmpdir(), 'sepia-report-'))
    temps.push(out)
    const r = await run('doctor', '--home', home, '--report', file, '--out', out, '--json')
    expect(r.code).toBe(0)
    const written = JSON.parse(r.out) as { path: string; maskedSecrets: number; replacedPaths: number }
    expect(readdirSync(out)).toHaveLength(1)
    const copy = readFileSync(written.path, 'utf8')
    expect(copy).not.toContain(FAKE_SECRETS[0]!.secret)
    expect(copy).not.toContain(home)
    expect(copy).not.toContain('peyton')
    expect(copy).toContain('/Users/user/src')
    expect(written.maskedSecrets).toBe(1)
    // Structure kept: the same number of lines, each still JSON with the same keys and types.
    const copied = copy.trimEnd().split('\n')
    expect(copied).toHaveLength(lines.length)
    copied.forEach((l, i) => {
      const a = JSON.parse(l) as Record<string, unknown>
      const b = JSON.parse(lines[i]!) as Record<string, unknown>
      expect(Object.keys(a)).toEqual(Object.keys(b))
      expect(a.type).toBe(b.type)
    })
    expect(readFileSync(file, 'utf8')).toBe(before)
  })
})
