/**
 * Help and argument errors in plain words (a new user's pass, session 11): each command's help
 * shows the options it takes (`--home` for usage, search, bundle), Node's parseArgs messages
 * never reach the user, `--since` names the forms it takes, `--role` the roles; and `sepia show`
 * of an id prefix that a session shares with its own sub-agents (Claude Code sidechains are
 * `<parent id>/sidechain-<uuid>`) shows that session.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli-run'
import { tempDirs, useEnv } from './helpers/temp'
import { findAppRoot } from '../src/main/context'

const temp = tempDirs()
const dir = temp('sepia-cli-args-')
mkdirSync(join(dir, 'own'))
useEnv(() => ({ HOME: join(dir, 'own'), SEPIA_DATA_DIR: join(dir, 'data') }))
const CC = join(findAppRoot(), 'fixtures/real/claude-code/home')

describe('help and argument errors', () => {
  it('each command\'s help shows its options, --home among them', async () => {
    for (const [cmd, line] of [['usage', /sepia usage .*\n.*--home DIR/], ['search', /sepia search .*\n.*--home DIR/], ['bundle', /sepia bundle <session-id> --out FILE \[--home DIR\]/]] as const) {
      const r = await runCli(cmd, '--help')
      expect(r.code, cmd).toBe(0)
      expect(r.out, cmd).toMatch(line)
      expect(r.out, cmd).not.toContain('sepia list ') // that command's lines only
      expect(r.out, cmd).toContain('Options:')
    }
    // move and put-back refuse an opened home: their help offers no --home.
    for (const cmd of ['move', 'put-back']) {
      const r = await runCli(cmd, '--help')
      expect(r.out, cmd).toContain(`sepia ${cmd} <session-id>`)
      expect(r.out, cmd).not.toContain('--home DIR   read this home folder')
    }
    expect((await runCli('--help')).out).toContain('sepia list ')
  })

  it('an unknown option, a missing value and a value given to a switch are said in plain words', async () => {
    const unknown = await runCli('list', '--nope')
    expect(unknown.code).toBe(2)
    expect(unknown.err).toBe('sepia: sepia list has no option --nope; "sepia list --help" lists its options.\n')
    const missing = await runCli('list', '--home')
    expect(missing.code).toBe(2)
    expect(missing.err).toBe('sepia: --home needs a value (--home VALUE); "sepia list --help" lists the options.\n')
    const value = await runCli('search', 'x', '--json=yes')
    expect(value.err).toBe('sepia: --json takes no value (write --json alone); "sepia search --help" lists the options.\n')
    for (const r of [unknown, missing, value]) expect(r.err).not.toMatch(/positional argument|<value>|argument missing/)
  })

  it('--since names the forms it takes; --role lists the roles', async () => {
    const since = await runCli('search', 'x', '--since', 'yesterday', '--home', CC)
    expect(since.code).toBe(1)
    expect(since.err).toContain('--since "yesterday" is not a date Sepia reads. Give a day (2026-11-30), a day and time (2026-11-30T14:00) or a number of days ago (7d).')
    expect(since.err).not.toContain('ms since epoch')
    const usage = await runCli('usage', '--until', 'tomorrow', '--home', CC)
    expect(usage.err).toContain('--until "tomorrow" is not a date Sepia reads. Give a day (2026-11-30) or a number of days ago (7d).')
    expect((await runCli('search', 'x', '--since', '7d', '--home', CC)).code).toBe(0)
    const role = await runCli('search', 'x', '--role', 'wizard', '--home', CC)
    expect(role.code).toBe(1)
    expect(role.err).toContain('--role "wizard" is not a role; the roles are user, assistant, tool, system.')
  })
})

describe('a prefix a session shares with its own sub-agents', () => {
  // fixtures/public-real/claude-code/sword-1090-siblings: session 155c3456-… ran 5 sub-agents, kept
  // as sidechains in its own transcript (`"isSidechain":true` records), listed as `155c3456-…/sidechain-<uuid>`.
  const SWORD = join(findAppRoot(), 'fixtures/public-real/claude-code/sword-1090-siblings/home')
  const FOLDER = '.claude/projects/-home-ubuntu-Documents-livecd-gen'
  const ID = '155c3456-9cd0-4d8f-8db3-d0560ca1851c'

  it('sepia show <prefix> --agent shows the top-level session', async () => {
    expect(readFileSync(join(SWORD, FOLDER, `${ID}.jsonl`), 'utf8')).toContain('"isSidechain":true')
    const r = await runCli('show', ID.slice(0, 8), '--agent', 'claude-code', '--home', SWORD, '--json')
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out).id).toBe(ID)
  })

  it('two top-level sessions with one prefix: "give more of the id", no --agent hint when --agent was given', async () => {
    const home = temp('sepia-cli-args-home-')
    cpSync(SWORD, home, { recursive: true })
    const twin = `${ID.slice(0, 8)}-0000-4000-8000-000000000000`
    writeFileSync(join(home, FOLDER, `${twin}.jsonl`), readFileSync(join(home, FOLDER, `${ID}.jsonl`), 'utf8').split(ID).join(twin))
    const amb = await runCli('show', ID.slice(0, 8), '--agent', 'claude-code', '--home', home)
    expect(amb.code).toBe(1)
    expect(amb.err).toContain(`"${ID.slice(0, 8)}" matches 2 sessions; give more of the id:`)
    expect(amb.err).not.toContain('--agent')
  })
})

describe('sepia list names an empty session', () => {
  it('a 0-byte transcript is listed as "(empty session)", not a blank title', async () => {
    const home = join(temp('sepia-cli-empty-'), 'home')
    const project = join(home, '.claude', 'projects', '-tmp-p')
    mkdirSync(project, { recursive: true })
    writeFileSync(join(project, '11111111-2222-4333-8444-000000000009.jsonl'), '')
    const r = await runCli('list', '--home', home)
    expect(r.code, r.err).toBe(0)
    expect(r.out).toMatch(/11111111-2222-4333-8444-000000000009 .* 0 msgs .*\(empty session\)/)
  })
})

describe('sepia show names a session\'s sub-agent sessions', () => {
  it('168ccd27 (fixtures/real/claude-code): the ids of the transcripts in its subagents/ folder', async () => {
    const sid = '168ccd27-38fe-4712-8b25-f636c48dc3b8'
    const project = join(CC, '.claude/projects/-home-ana-src-ledger-api')
    // Independent reading: Claude Code keeps each sub-agent's transcript as subagents/agent-<id>.jsonl.
    const ids = readdirSync(join(project, sid, 'subagents'))
      .filter((n) => /^agent-.+\.jsonl$/.test(n))
      .map((n) => n.slice('agent-'.length, -'.jsonl'.length))
    expect(ids.length).toBeGreaterThan(0)
    const home = join(temp('sepia-cli-subs-'), 'home')
    cpSync(CC, home, { recursive: true })
    const r = await runCli('show', sid.slice(0, 8), '--home', home)
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain(`- **Sub-agent sessions:** ${ids.join(', ')}`)
  })
})
