/**
 * `sepia archive on|status|prune` and `sepia put-back <id>` (issue 19) on a temp copy of the real
 * Claude Code home as the user's own home (HOME and SEPIA_DATA_DIR point at temp folders).
 */
import { cpSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { findAppRoot } from '../src/main/context'
import { runCli } from './helpers/cli-run'
import { tempDirs, useEnv } from './helpers/temp'

const tmp = tempDirs()('sepia-archive-cli-')
const home = join(tmp, 'home')
const ID = '6af80e1b-9349-4dc0-a14a-75375ad2f7e2'
const FILE = join(home, '.claude/projects/-home-ana-src-ledger-api', `${ID}.jsonl`)

beforeAll(() => cpSync(join(findAppRoot(), 'fixtures/real/claude-code/home'), home, { recursive: true }))
useEnv(() => ({ HOME: home, USERPROFILE: home, SEPIA_DATA_DIR: join(tmp, 'data') }))

describe('sepia archive / put-back', () => {
  it('put-back of a listed session the archive holds no copy of says the archive is off and how to turn it on', async () => {
    const r = await runCli('put-back', ID.slice(0, 8)) // the start of the id, as for show
    expect(r.code).toBe(1)
    expect(r.err).toContain(`Sepia's archive has no copy of the claude-code session ${ID}: the archive is off`)
    expect(r.err).toContain('"sepia archive on"')
    expect(r.err).toContain('there is nothing to put back')
    expect(r.err).not.toContain('No session')
  })

  it('put-back refuses a session of a home opened with --home', async () => {
    const r = await runCli('put-back', ID, '--home', join(findAppRoot(), 'fixtures/real/claude-code/home'))
    expect(r.code).toBe(1)
    expect(r.err).toContain('was opened with --home, so Sepia only reads it and never writes into it')
  })

  it('archives, keeps a deleted session and puts it back', async () => {
    const bytes = readFileSync(FILE)
    const off = await runCli('archive', 'status', '--json')
    expect(off.code).toBe(0)
    expect(JSON.parse(off.out).settings.enabled).toBe(false)
    const on = await runCli('archive', 'on', '--json')
    expect(on.code).toBe(0)
    expect(JSON.parse(on.out).sessions).toBe(6) // 5 transcripts and 1 sub-agent file in the fixture
    rmSync(FILE)
    const list = await runCli('list', '--json')
    const listed = (JSON.parse(list.out).sessions as { id: string; archived?: unknown }[]).find((s) => s.id === ID)
    expect(listed?.archived).toBeDefined()
    const put = await runCli('put-back', ID)
    expect(put.code).toBe(0)
    expect(put.out).toContain(`claude --resume ${ID}`)
    expect(readFileSync(FILE).equals(bytes)).toBe(true)
    const prune = await runCli('archive', 'prune', '--json')
    expect(prune.code).toBe(0)
    expect(JSON.parse(prune.out).storedBytes).toBeGreaterThan(0)
  }, 60_000)

  it('an unknown subcommand names the valid ones, as an unknown command lists the commands', async () => {
    const r = await runCli('archive', 'bogus')
    expect(r.code).toBe(2)
    expect(r.err).toContain('Unknown archive command "bogus"; the archive commands are status, prune, on, off.')
    expect(r.err).toContain('sepia archive status|prune|on|off')
  })

  it('status counts in the singular and plural ("6 sessions", not "6 session(s)")', async () => {
    const r = await runCli('archive', 'status')
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^ {2}\d+ sessions?, \d+ file versions?, /m)
    expect(r.out).not.toContain('(s)')
  })
})
