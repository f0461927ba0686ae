/**
 * `sepia push` to a real PostgreSQL (a throwaway cluster, tests/helpers/postgres.ts; issue 20):
 * - the rows pushed are what an independent reading of the store gives (sessions, and message
 *   rows only for nodes with text or usage), with masked text only;
 * - a second push sends nothing and says so; a changed session is sent again, alone; a session
 *   gone from the home is removed for that machine only;
 * - a push killed with SIGKILL mid-way leaves only whole sessions, and the next push completes;
 * - the connection URL's password never appears in any output or error;
 * - the schema is versioned (schema_version) and a newer schema is refused.
 */
import { spawn } from 'node:child_process'
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findAppRoot } from '../src/main/context'
import { TeamCatalog } from '../src/main/team/catalog'
import { pushHome } from '../src/main/team/push'
import { TEAM_SCHEMA_VERSION } from '../src/main/team/schema'
import { runCli } from './helpers/cli-run'
import { postgresSkipReason, startPostgres, type TestPostgres } from './helpers/postgres'

const ROOT = findAppRoot()
const CLAUDE_HOME = join(ROOT, 'fixtures/real/claude-code/home')
const PROJECT = '.claude/projects/-home-ana-src-ledger-api'
const skip = postgresSkipReason()

/** Top-level session files of the Claude Code fixture (sub-agent files live in per-session folders). */
function sessionFiles(home: string): string[] {
  return readdirSync(join(home, PROJECT)).filter((f) => f.endsWith('.jsonl'))
}

/** A home of `n` copies of one fixture session, each with its own session id. */
function manySessionsHome(n: number): string {
  const home = mkdtempSync(join(tmpdir(), 'sepia-push-many-'))
  const dir = join(home, PROJECT)
  mkdirSync(dir, { recursive: true })
  const id = 'db9d5855-d967-440c-8eac-0e5a668d0e19'
  const text = readFileSync(join(CLAUDE_HOME, PROJECT, `${id}.jsonl`), 'utf8')
  for (let i = 0; i < n; i++) {
    const copy = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
    writeFileSync(join(dir, `${copy}.jsonl`), text.split(id).join(copy))
  }
  return home
}

describe.skipIf(skip !== undefined)(`sepia push${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: TestPostgres
  let db: pg.Pool
  const temp: string[] = []
  const q = async (sql: string, args: unknown[] = []) => (await db.query(sql, args)).rows as Record<string, unknown>[]

  beforeAll(() => {
    server = startPostgres()
    db = new pg.Pool({ connectionString: server.url, max: 2 })
  }, 60_000)
  afterAll(async () => {
    await db?.end()
    server?.stop()
    for (const t of temp) rmSync(t, { recursive: true, force: true })
  })

  it('sends the home once; a second push sends nothing and says so', async () => {
    const first = await runCli('push', '--to', server.url, '--home', CLAUDE_HOME, '--machine', 'laptop-a')
    expect(first.err.replace(/^ +\d+\/\d+ sessions? sent\n/gm, '')).toBe('')
    expect(first.code).toBe(0)
    // Independent reading: one session per top-level JSONL file plus one per sub-agent file.
    const subagents = readdirSync(join(CLAUDE_HOME, PROJECT), { recursive: true }).filter((f) => String(f).includes('subagents') && String(f).endsWith('.jsonl'))
    const expected = sessionFiles(CLAUDE_HOME).length + subagents.length
    const rows = await q(`SELECT count(*)::int AS n FROM sessions WHERE machine = 'laptop-a'`)
    expect(rows[0]!.n).toBe(expected)
    expect(first.out).toMatch(new RegExp(`^Pushed ${expected} sessions? \\(`))
    const again = await runCli('push', '--to', server.url, '--home', CLAUDE_HOME, '--machine', 'laptop-a')
    expect(again.code).toBe(0)
    expect(again.out).toContain('Nothing new to push')
    expect(again.out).toContain('(0 rows sent)')
    const json = await runCli('push', '--to', server.url, '--home', CLAUDE_HOME, '--machine', 'laptop-a', '--json')
    expect(JSON.parse(json.out)).toMatchObject({ sent: 0, removed: 0, messageRows: 0, usageRows: 0, unchanged: expected })
    const v = await q('SELECT max(version) AS v FROM schema_version')
    expect(v[0]!.v).toBe(TEAM_SCHEMA_VERSION)
  })

  it('pushes masked text only', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-push-secret-'))
    temp.push(home)
    cpSync(CLAUDE_HOME, home, { recursive: true })
    const file = join(home, PROJECT, sessionFiles(home)[0]!)
    const line = readFileSync(file, 'utf8').split('\n').find((l) => l.includes('"type":"user"'))!
    const rec = JSON.parse(line)
    const key = 'sk-ant-api03-' + 'Xk7pQ2mZ9vLr4TnW8yBc3HdF6gJs1'.repeat(3) + 'AA'
    rec.uuid = 'secret-line-0001'
    rec.message = { role: 'user', content: `please use ${key} for the deploy` }
    appendFileSync(file, JSON.stringify(rec) + '\n')
    await pushHome({ url: server.url, home, machine: 'secret-box' })
    const dump = JSON.stringify(await q(`SELECT s.summary, m.text FROM sessions s JOIN messages m ON m.sid = s.sid WHERE s.machine = 'secret-box'`))
    expect(dump).toContain('for the deploy')
    expect(dump).not.toContain('Xk7pQ2mZ9vLr4TnW8yBc3HdF6gJs1')
  })

  it('sends a changed session alone and removes a session gone from the home (for that machine only)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-push-change-'))
    temp.push(home)
    cpSync(CLAUDE_HOME, home, { recursive: true })
    await pushHome({ url: server.url, home, machine: 'laptop-c' })
    const [a, b] = sessionFiles(home)
    const line = readFileSync(join(home, PROJECT, a!), 'utf8').split('\n').find((l) => l.includes('"type":"user"'))!
    appendFileSync(join(home, PROJECT, a!), JSON.stringify({ ...JSON.parse(line), uuid: 'added-line-0001', message: { role: 'user', content: 'one more question' } }) + '\n')
    rmSync(join(home, PROJECT, b!))
    const r = await pushHome({ url: server.url, home, machine: 'laptop-c' })
    expect(r).toMatchObject({ sent: 1, removed: 1 })
    const ids = (await q(`SELECT session_id FROM sessions WHERE machine = 'laptop-c'`)).map((x) => x.session_id)
    expect(ids).not.toContain(b!.replace('.jsonl', ''))
    expect((await q(`SELECT count(*)::int AS n FROM sessions WHERE machine = 'laptop-a' AND session_id = $1`, [b!.replace('.jsonl', '')]))[0]!.n).toBe(1)
  })

  it('a push killed mid-way leaves whole sessions only; the next push completes', async () => {
    const n = 60
    const home = manySessionsHome(n)
    temp.push(home)
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'tests/helpers/push-child.ts'), server.url, home, 'killed-box'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += String(d)))
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        output += String(d)
        if (/sent (\d+)\//.test(output)) {
          child.kill('SIGKILL')
        }
      })
      child.on('exit', () => resolve())
      child.on('error', reject)
    })
    expect(output, stderr).toMatch(/sent 1\//)
    expect(output).not.toContain('done')
    const count = async () => (await q(`SELECT count(*)::int AS n FROM sessions WHERE machine = 'killed-box'`))[0]!.n as number
    const partial = await count()
    expect(partial).toBeGreaterThan(0)
    expect(partial).toBeLessThan(n)
    // Every session there is whole: as many message rows as the complete push gives each copy.
    const full = (await q(`SELECT count(*)::int AS n FROM messages m JOIN sessions s ON s.sid = m.sid WHERE s.machine = 'laptop-a' AND s.session_id = 'db9d5855-d967-440c-8eac-0e5a668d0e19'`))[0]!.n
    const per = await q(`SELECT s.session_id, count(m.mid)::int AS n FROM sessions s LEFT JOIN messages m ON m.sid = s.sid WHERE s.machine = 'killed-box' GROUP BY s.session_id`)
    for (const row of per) expect(row.n).toBe(full)
    const r = await pushHome({ url: server.url, home, machine: 'killed-box' })
    expect(r.sent + r.unchanged).toBe(n)
    expect(r.unchanged).toBe(partial)
    expect(await count()).toBe(n)
    expect((await pushHome({ url: server.url, home, machine: 'killed-box' })).sent).toBe(0)
  }, 120_000)

  it('never prints the password of the URL, in output or errors', async () => {
    const secret = 'Sup3rS3cretPW'
    const withPw = server.url.replace('sepia@', `sepia:${secret}@`)
    const ok = await runCli('push', '--to', withPw, '--home', CLAUDE_HOME, '--machine', 'laptop-a')
    expect(ok.code).toBe(0)
    expect(ok.out + ok.err).not.toContain(secret)
    expect(ok.out).toContain('sepia:***@')
    const unreachable = await runCli('push', '--to', `postgres://sepia:${secret}@127.0.0.1:1/sepia`, '--home', CLAUDE_HOME, '--machine', 'x')
    expect(unreachable.code).toBe(1)
    expect(unreachable.err).toContain('sepia:***@127.0.0.1:1')
    expect(unreachable.out + unreachable.err).not.toContain(secret)
    const bad = await runCli('push', '--to', `mysql://u:${secret}@h/db`, '--home', CLAUDE_HOME)
    expect(bad.code).toBe(1)
    expect(bad.err).not.toContain(secret)
    const serve = await runCli('serve', '--catalog', `postgres://sepia:${secret}@127.0.0.1:1/sepia`)
    expect(serve.code).toBe(1)
    expect(serve.err).not.toContain(secret)
  }, 60_000)

  it('finds a CJK word inside a run of CJK text (pg_trgm), where the token index alone would not', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-push-cjk-'))
    temp.push(home)
    cpSync(CLAUDE_HOME, home, { recursive: true })
    const file = join(home, PROJECT, sessionFiles(home)[0]!)
    const line = readFileSync(file, 'utf8').split('\n').find((l) => l.includes('"type":"user"'))!
    appendFileSync(file, JSON.stringify({ ...JSON.parse(line), uuid: 'cjk-line-0001', message: { role: 'user', content: '請把日本語的說明加到文件裡' } }) + '\n')
    await pushHome({ url: server.url, home, machine: 'cjk-box' })
    const team = new TeamCatalog(server.url)
    try {
      const hits = (await team.search('日本語', { limit: 500 })).hits.filter((h) => h.nodeId === 'cjk-line-0001')
      expect(hits.length).toBe(1)
      // The token index alone has the whole run as one token only.
      const tokenOnly = await q(`SELECT count(*)::int AS n FROM messages WHERE node_id = 'cjk-line-0001' AND tsv @@ $1::tsquery`, [`'日本語'`])
      expect(tokenOnly[0]!.n).toBe(0)
    } finally {
      await team.close()
    }
  })

  it('refuses a schema newer than this build, naming the versions', async () => {
    await q('INSERT INTO schema_version (version) VALUES ($1)', [TEAM_SCHEMA_VERSION + 1])
    try {
      await expect(pushHome({ url: server.url, home: CLAUDE_HOME, machine: 'laptop-a' })).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining(`schema version ${TEAM_SCHEMA_VERSION + 1}`) })
    } finally {
      await q('DELETE FROM schema_version WHERE version = $1', [TEAM_SCHEMA_VERSION + 1])
    }
  })
})
