/** `sepia list|show` on the real fixture homes, through `main()` with captured output. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../src/cli/index'
import { findAppRoot } from '../src/main/context'
import { runCli } from './helpers/cli-run'

const ROOT = findAppRoot()
const CC = join(ROOT, 'fixtures/real/claude-code/home')
const CLINE = join(ROOT, 'fixtures/real/cline/home')
const LEGACY = join(ROOT, 'fixtures/real/cline-legacy/home')

const run = runCli

describe('sepia CLI', () => {
  it('lists the real Claude Code and Cline sessions as JSON', async () => {
    const r = await run('list', '--home', CC, '--home', CLINE, '--home', LEGACY, '--json')
    expect(r.code).toBe(0)
    const data = JSON.parse(r.out) as { sessions: { id: string; agent: string; parentSessionId?: string }[] }
    const ids = data.sessions.map((s) => `${s.agent}/${s.id}`)
    for (const id of ['6af80e1b-9349-4dc0-a14a-75375ad2f7e2', 'c79310a4-1627-4beb-8788-81d2e0fc6af8', '168ccd27-38fe-4712-8b25-f636c48dc3b8', '59d2b1d8-139c-406e-9af8-d7379d3f42fd', 'db9d5855-d967-440c-8eac-0e5a668d0e19']) {
      expect(ids).toContain(`claude-code/${id}`)
    }
    for (const id of ['1796022179495_agv8g', '1796022183774_v75nv', '1796022188670_1nyn0', '1796022193411_yw3k7', '1796022253554', '1796022270019', '1796022286548']) {
      expect(ids).toContain(`cline/${id}`)
    }
    const sub = data.sessions.find((s) => s.agent === 'cline' && s.parentSessionId === '1796022193411_yw3k7')
    expect(sub).toBeDefined()
  })

  it('lists as text grouped agent → project → session', async () => {
    const r = await run('list', '--home', CC)
    expect(r.code).toBe(0)
    expect(r.out).toContain('claude-code (')
    expect(r.out).toContain('  /home/ana/src/ledger-api')
    expect(r.out).toContain('c79310a4-1627-4beb-8788-81d2e0fc6af8')
  })

  it('prints a sub-agent under its parent, even when the parent sits in another project group', async () => {
    // fixtures/public-real/claude-code/pai-project-folder: agent-a35030a.jsonl names its parent
    // session in its own records; that parent file has no cwd, so it is listed under (no project).
    const home = join(ROOT, 'fixtures/public-real/claude-code/pai-project-folder/home')
    const dir = join(home, '.claude/projects/-home-jenkins-Personal-AI-Infrastructure')
    const parent = (JSON.parse(readFileSync(join(dir, 'agent-a35030a.jsonl'), 'utf8').split('\n')[0] ?? '') as { sessionId: string }).sessionId
    const r = await run('list', '--home', home)
    expect(r.code).toBe(0)
    const lines = r.out.split('\n')
    const p = lines.findIndex((l) => l.trim().startsWith(parent))
    const c = lines.findIndex((l) => l.includes('└ a35030a'))
    expect(p).toBeGreaterThan(-1)
    expect(c).toBeGreaterThan(p)
    expect(lines.slice(p + 1, c).every((l) => l.includes('└ '))).toBe(true)
  })

  it('shows a session as Markdown with its first prompt and tool calls with results', async () => {
    const r = await run('show', 'c79310a4', '--home', CC)
    expect(r.code).toBe(0)
    expect(r.out).toContain('[tools] List the files, then create NOTES.md and mark its TODO line as done.')
    expect(r.out).toContain('**Tool call: Bash** (execute) — completed')
    expect(r.out).toContain('Makefile')
  })

  it('shows a Cline session as IR JSON', async () => {
    const r = await run('show', '1796022183774_v75nv', '--home', CLINE, '--json')
    expect(r.code).toBe(0)
    const s = JSON.parse(r.out) as { agent: string; workingDirectory: string; irVersion: number }
    expect(s).toMatchObject({ agent: 'cline', workingDirectory: '/home/ana/src/invoice-service', irVersion: 1 })
  })

  it('says plainly when a folder or a session is missing, and on bad usage', async () => {
    const missing = await run('list', '--home', '/no/such/folder')
    expect(missing.code).toBe(1)
    expect(missing.err).toContain('The folder /no/such/folder does not exist')
    const none = await run('show', 'nope', '--home', CC)
    expect(none.code).toBe(1)
    expect(none.err).toContain('No session "nope"')
    expect((await run('frobnicate')).code).toBe(2)
  })

  it('escapes terminal control characters from session files and labels problems by severity', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-cli-ctl-'))
    const dir = join(home, '.claude/projects/-tmp-x')
    mkdirSync(dir, { recursive: true })
    const rec = (o: object) => JSON.stringify({ cwd: '/tmp/x', sessionId: '11111111-1111-4111-8111-111111111111', timestamp: '2026-01-01T00:00:00.000Z', ...o })
    writeFileSync(
      join(dir, '11111111-1111-4111-8111-111111111111.jsonl'),
      [rec({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: '\u001b[2J\u001b]0;pwned\u0007 hello' } }), 'not json \u001b[31m'].join('\n') + '\n',
    )
    const r = await run('list', '--home', home)
    expect(r.out).not.toContain('\u001b')
    expect(r.out).toContain('\\x1b[2J')
    expect(r.err).toMatch(/^error: .*:2: /m)
    expect(r.err).not.toContain('\u001b')
    const shown = await run('show', '11111111', '--home', home)
    expect(shown.out).not.toContain('\u001b')
    expect(shown.err).toMatch(/:2: /)
  })

  it('answers help and version, and names an unknown agent', async () => {
    expect((await run('help')).out).toContain('Usage:')
    expect((await run('--version')).out).toMatch(/^sepia \d+\.\d+\.\d+/)
    const bad = await run('show', 'c79310a4', '--agent', 'nosuch', '--home', CC)
    expect(bad.code).toBe(1)
    expect(bad.err).toContain('"nosuch" is not an agent id')
  })

  it("prints a Crush sub-agent's id ('<msg>$$<call>') quoted, so it pastes into a shell", async () => {
    const home = join(ROOT, 'fixtures/built/crush/home')
    const r = await run('list', '--home', home)
    expect(r.code).toBe(0)
    const id = 'c1a2b3c4-0005-4000-8000-000000000005$$call_agent_01'
    if (process.platform !== 'win32') expect(r.out).toContain(`└ '${id}'  `)
    expect(r.out).toContain('3f0c9a52-7d1e-4b8a-9c2f-1a6e5d4b3c21  ') // a plain id stays as it is
    const shown = await run('show', id, '--home', home) // what the shell passes for the quoted id
    expect(shown.code).toBe(0)
    expect(shown.out).toContain('Find every shell script')
  })

  it('takes a relative --home from the working directory', async () => {
    const prev = process.cwd()
    process.chdir(ROOT)
    try {
      const r = await run('list', '--home', 'fixtures/real/claude-code/home', '--json')
      expect(r.code).toBe(0)
      expect((JSON.parse(r.out) as { sessions: unknown[] }).sessions.length).toBe(6)
    } finally {
      process.chdir(prev)
    }
  })
})
