/**
 * `npm run resume-move` (issue 19 "Move to another machine or folder"): prove that a moved session
 * resumes in the real CLI under its new project path. For each case, a session of a Linux home
 * written by the real agent (`fixtures/real/<agent>/home`, project `/home/ana/src/<project>`) is
 * bundled into a move bundle zip (`src/main/bundle/move.ts`), read back from the zip, installed into
 * a fresh sandbox home under a NEW project folder (`<sandbox>/src/<project>`; `src/main/move/
 * install.ts`), and resumed there with the real CLI against the mock model (the drivers and checks
 * of the resume matrix); the check is the matrix's (every earlier user text, assistant text and
 * tool result in the first request after the prompt) plus: the request names the new project
 * folder.
 *
 * On Linux a Windows- or macOS-style project folder cannot be run in, so those are proven as
 * remapped text only: the same bundle is installed into a Windows-style and a macOS-style home and
 * the encoded folder name and the recorded cwds are printed into the report.
 *
 *   npm run resume-move -- [--agents claude-code,codex,cline] [--keep] [--out FILE] [--no-write]
 *
 * Writes `resume/MOVE.md`. Exit status 0 when every case passed, 1 otherwise, 2 on bad usage.
 */
import Database from 'better-sqlite3'
import { randomUUID } from 'node:crypto'
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { agentById } from '../src/main/agents/registry'
import { gatherMoveBundle, readMoveBundle, writeMoveBundle } from '../src/main/bundle/move'
import { installMoveBundle } from '../src/main/move/install'
import { layoutForHome } from '../src/main/platform'
import { checkRequests } from './check'
import { claudeCodeDriver } from './drivers/claude-code'
import { clineDriver } from './drivers/cline'
import { codexDriver } from './drivers/codex'
import type { Driver } from './drivers/types'
import { expectationOf } from './expect'
import { startMock } from './mock/server'
import { RESUME_PROMPT } from './run-case'
import { ensureInstalled, ensureTmux, makeSandbox, stopSandboxProcesses } from './sandbox'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const log = (s: string): void => void process.stderr.write(`[resume-move ${new Date().toISOString().slice(11, 19)}] ${s}\n`)

/** One session to move: the real store it comes from, and what it shows. */
interface MoveCase {
  agent: 'claude-code' | 'codex' | 'cline'
  sessionId: string
  project: string
  what: string
}

const CASES: MoveCase[] = [
  { agent: 'claude-code', sessionId: 'c79310a4-1627-4beb-8788-81d2e0fc6af8', project: 'ledger-api', what: 'tools (Bash, Write, Edit) + file-history backups' },
  { agent: 'claude-code', sessionId: '168ccd27-38fe-4712-8b25-f636c48dc3b8', project: 'ledger-api', what: 'Agent tool with a sub-agent transcript' },
  { agent: 'codex', sessionId: '01a22b43-66c3-75f0-90de-6d1ff6499d33', project: 'csv-tools', what: 'exec_command + apply_patch; threads row in state_5.sqlite' },
  { agent: 'codex', sessionId: '01a22b43-6b09-7800-96fe-2a36e38883b0', project: 'csv-tools', what: 'spawn_agent with its sub-agent thread; threads rows + spawn edge' },
  { agent: 'cline', sessionId: '1796022183774_v75nv', project: 'invoice-service', what: 'Cline CLI 3 tools session (SDK store); sessions.db row, messages_path re-rooted' },
]

const DRIVERS: Record<MoveCase['agent'], Driver> = { 'claude-code': claudeCodeDriver, codex: codexDriver, cline: clineDriver }

interface MoveResult {
  c: MoveCase
  ok: boolean
  verdict: string
  newProject: string
  installedId?: string
  files: string[]
  remapped: { style: string; folder: string; cwds: string[] }[]
  error?: string
  seconds: number
}

/** Every `cwd` value of the JSONL files under `dir` (distinct). */
function cwdsUnder(dir: string): string[] {
  const out = new Set<string>()
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === 'cwd' && typeof x === 'string' ? out.add(x) : walk(x)
  }
  const files = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : /\.jsonl$|\d\w*\.json$/.test(e.name) && !e.name.endsWith('.messages.json') ? [join(d, e.name)] : []))
  for (const f of files(dir)) for (const line of f.endsWith('.json') ? [readFileSync(f, 'utf8').replace(/\n/g, ' ')] : readFileSync(f, 'utf8').split('\n')) {
    try {
      walk(JSON.parse(line))
    } catch {
      // not JSON
    }
  }
  return [...out].sort()
}

async function runMoveCase(c: MoveCase, bin: string, keep: boolean): Promise<MoveResult> {
  const started = Date.now()
  const driver = DRIVERS[c.agent]
  const work = mkdtempSync(join(tmpdir(), 'sepia-move-'))
  const result: MoveResult = { c, ok: false, verdict: '', newProject: '', files: [], remapped: [], seconds: 0 }
  const source = join(work, 'source-home')
  cpSync(join(ROOT, 'fixtures/real', c.agent, 'home'), source, { recursive: true })
  const ctx = { now: Date.now }
  const sandbox = makeSandbox(c.project)
  result.newProject = sandbox.cwd
  const mock = await startMock({ scenarioFile: join(ROOT, 'resume', 'scenarios', driver.scenario), logFile: join(sandbox.home, 'mock-requests.jsonl'), cwd: sandbox.cwd })
  try {
    const agent = agentById(c.agent)
    const sourceLayout = await layoutForHome({ home: source })
    const bundle = await gatherMoveBundle({ layout: sourceLayout, agent, sessionId: c.sessionId, ctx, createdBy: 'resume-move' })
    const zip = join(work, 'session.zip')
    await writeMoveBundle(bundle, zip)
    const fromZip = await readMoveBundle(zip, join(work, 'unzipped'))
    // Text proof for the other OS styles (cannot be run on Linux).
    for (const [style, os, project] of [['Windows', 'win32', `C:\\Users\\ana\\src\\${c.project}`], ['macOS', 'darwin', `/Users/ana/src/${c.project}`]] as const) {
      const home = join(work, `home-${os}`)
      mkdirSync(home)
      if (c.agent === 'codex') seedCodexDb(home)
      await installMoveBundle({ bundle: fromZip, layout: await layoutForHome({ home, os }), project, now: Date.now, newId: randomUUID, ctx })
      const store = c.agent === 'claude-code' ? join(home, '.claude/projects') : c.agent === 'codex' ? join(home, '.codex/sessions') : join(home, '.cline/data/sessions')
      const folder = c.agent === 'claude-code' ? readdirSync(store).join(', ') : c.agent === 'codex' ? '(sessions/YYYY/MM/DD, unchanged)' : '(sessions/<id>, unchanged)'
      result.remapped.push({ style, folder, cwds: cwdsUnder(store) })
    }
    // The real proof: a new Linux project folder, resumed by the real CLI.
    await driver.prepareHome({ sandbox, mock, bin, log })
    if (c.agent === 'codex') seedCodexDb(sandbox.home)
    const installed = await installMoveBundle({ bundle: fromZip, layout: await layoutForHome({ home: sandbox.home }), project: sandbox.cwd, now: Date.now, newId: randomUUID, ctx })
    result.installedId = installed.sessionId
    result.files = installed.files.map((f) => f.replace(sandbox.home, '~'))
    const run = await driver.resume({ sandbox, mock, bin, log }, installed.sessionId, RESUME_PROMPT)
    writeFileSync(join(sandbox.home, 'agent-output.txt'), run.output)
    const session = await agent.read((await agent.discover(sourceLayout, ctx)).refs.find((r) => r.sessionId === c.sessionId)!, ctx)
    const verdict = checkRequests(mock.entries(), expectationOf(session), RESUME_PROMPT, false)
    const notes: string[] = []
    let placed = true
    if (c.agent === 'claude-code') {
      // The project folder name, encoded here by hand (Claude Code: every non-[A-Za-z0-9] as "-").
      const folder = join(sandbox.home, '.claude', 'projects', sandbox.cwd.replace(/[^A-Za-z0-9]/g, '-'))
      placed = readdirSync(folder).includes(`${installed.sessionId}.jsonl`)
      notes.push(placed ? `transcript in projects/${sandbox.cwd.replace(/[^A-Za-z0-9]/g, '-').slice(0, 24)}…` : 'FAIL: transcript not in the new project folder')
    } else if (c.agent === 'cline') {
      const d = new Database(join(sandbox.home, '.cline', 'data', 'db', 'sessions.db'), { readonly: true })
      const row = d.prepare('SELECT cwd, messages_path FROM sessions WHERE session_id = ?').get(installed.sessionId) as { cwd: string; messages_path: string } | undefined
      d.close()
      placed = row?.cwd === sandbox.cwd && row.messages_path.startsWith(sandbox.home)
      notes.push(placed ? 'sessions.db row (cwd = new folder, messages_path in this home) after the resume' : `FAIL: sessions row ${JSON.stringify(row)}`)
    } else {
      // After the resume Codex keeps (and updates) the threads row Sepia added, under the new folder.
      const d = new Database(join(sandbox.home, '.codex', 'state_5.sqlite'), { readonly: true })
      const row = d.prepare('SELECT cwd FROM threads WHERE id = ?').get(installed.sessionId) as { cwd: string } | undefined
      d.close()
      placed = row?.cwd === sandbox.cwd
      notes.push(placed ? 'threads row (cwd = new folder) kept by Codex after the resume' : `FAIL: threads row cwd ${row?.cwd ?? '(none)'}`)
    }
    const namesProject = JSON.stringify(mock.entries()).includes(sandbox.cwd)
    notes.push(namesProject ? 'the request names the new project folder' : 'FAIL: the request does not name the new project folder')
    result.ok = verdict.ok && namesProject && placed
    result.verdict = [verdict.line, ...notes].join('; ')
    if (!result.ok) result.error = run.output.slice(-2000)
  } catch (e) {
    result.error = (e as Error).stack ?? String(e)
    result.verdict = `FAIL: ${(e as Error).message}`
  } finally {
    await mock.stop()
    await stopSandboxProcesses(sandbox.home)
    result.seconds = Math.round((Date.now() - started) / 100) / 10
    if (!keep) {
      rmSync(sandbox.home, { recursive: true, force: true })
      rmSync(work, { recursive: true, force: true })
    } else log(`kept ${sandbox.home} and ${work}`)
  }
  return result
}

/** A home where Codex has run: the fixture's `state_5.sqlite` (Codex 0.171.0's schema, backfill done) with no threads. */
function seedCodexDb(home: string): void {
  mkdirSync(join(home, '.codex'), { recursive: true })
  const db = join(home, '.codex', 'state_5.sqlite')
  copyFileSync(join(ROOT, 'fixtures/real/codex/home/.codex/state_5.sqlite'), db)
  const d = new Database(db)
  d.exec('DELETE FROM thread_spawn_edges; DELETE FROM threads;')
  d.close()
}

function report(results: MoveResult[], versions: Record<string, string>): string {
  const lines = [
    '# Moved sessions resumed with the real CLIs',
    '',
    `Written by \`npm run resume-move\` (resume/move.ts) on ${new Date().toISOString().slice(0, 10)}. Each session of a Linux home written by the real agent`,
    '(`fixtures/real/<agent>/home`, project `/home/ana/src/<project>`) was bundled into a move bundle zip, read back from it,',
    'installed into a fresh sandbox home under a new project folder `<sandbox>/src/<project>`, and resumed there with the',
    'real CLI against the scripted model. Versions: ' + Object.entries(versions).map(([a, v]) => `${a} ${v}`).join(', ') + '.',
    '',
    '| agent | session | what | resumed under the new project | installed id | seconds |',
    '|---|---|---|---|---|---|',
    ...results.map((r) => `| ${r.c.agent} | \`${r.c.sessionId}\` | ${r.c.what} | ${r.ok ? '' : 'FAIL: '}${r.verdict.replace(/\|/g, '\\|')} | \`${r.installedId ?? ''}\` | ${r.seconds} |`),
    '',
    '## Other OS styles (remapped text; not runnable on Linux)',
    '',
    'The same bundles installed into a home laid out as Windows (`C:\\Users\\ana\\src\\<project>`) and as macOS',
    '(`/Users/ana/src/<project>`): the Claude Code project folder name and every distinct recorded `cwd` (Codex rollouts also',
    'record file-URL cwds; Cline: the manifests), read from the written files.',
    '',
    '| agent | session | home | project folder | recorded cwd |',
    '|---|---|---|---|---|',
    ...results.flatMap((r) => r.remapped.map((m) => `| ${r.c.agent} | \`${r.c.sessionId.slice(0, 13)}\` | ${m.style} | \`${m.folder}\` | ${m.cwds.map((x) => `\`${x}\``).join(', ')} |`)),
    '',
  ]
  const failed = results.filter((r) => !r.ok && r.error)
  if (failed.length) lines.push('## Failures', '', ...failed.flatMap((r) => [`### ${r.c.agent} ${r.c.sessionId}`, '', '```', r.error!.slice(-1500), '```', '']))
  return lines.join('\n')
}

async function main(): Promise<number> {
  let args
  try {
    args = parseArgs({ options: { agents: { type: 'string' }, keep: { type: 'boolean', default: false }, out: { type: 'string' }, 'no-write': { type: 'boolean', default: false } } }).values
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`)
    return 2
  }
  const agents = args.agents ? args.agents.split(',') : ['claude-code', 'codex', 'cline']
  const cases = CASES.filter((c) => agents.includes(c.agent))
  if (cases.length === 0) {
    process.stderr.write(`No case for ${agents.join(', ')} (agents: claude-code, codex, cline).\n`)
    return 2
  }
  if (cases.some((c) => c.agent === 'cline')) await ensureTmux(log)
  const bins: Record<string, string> = {}
  const versions: Record<string, string> = {}
  for (const a of new Set(cases.map((c) => c.agent))) {
    bins[a] = await ensureInstalled(DRIVERS[a].package, log)
    versions[DRIVERS[a].package.pkg] = DRIVERS[a].package.version
  }
  const results: MoveResult[] = []
  for (const c of cases) {
    log(`${c.agent} ${c.sessionId}: bundle, install under a new project, resume`)
    const r = await runMoveCase(c, bins[c.agent]!, args.keep === true)
    log(`${r.ok ? 'PASS' : 'FAIL'} ${r.verdict}`)
    results.push(r)
  }
  const md = report(results, versions)
  if (!args['no-write']) writeFileSync(args.out ?? join(ROOT, 'resume', 'MOVE.md'), md)
  process.stdout.write(md)
  return results.every((r) => r.ok) ? 0 : 1
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (e) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`)
    process.exitCode = 1
  },
)
