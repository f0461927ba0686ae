/**
 * `npm run resume-rewind`: prove Sepia's Claude Code checkpoint restore against the real CLI's
 * own rewind (issue 14, "Checkpoints as the agent itself restores them").
 *
 * 1. The real `claude` (2.1.332, `drivers/claude-code.ts`) runs in its terminal UI in a private
 *    tmux server against the mock (`scenarios/rewind.json`) and records one session of four
 *    turns that create, edit and delete files: turn 1 creates `notes/plan.md` and edits
 *    `README.md`; turn 2 edits the plan, creates `todo.txt` and removes `README.md` and
 *    `src/main.js` with Bash (the second was never edited by a tool, so the CLI never tracked
 *    it); turn 3 writes `README.md` again, edits `todo.txt` and rewrites the plan; turn 4 changes
 *    nothing. The whole sandbox (home + project) is then saved.
 * 2. For each checkpoint (the snapshot before each prompt): the sandbox is put back to the saved
 *    state, the CLI resumes the session in its terminal UI, `/rewind` is typed, the checkpoint is
 *    picked in the CLI's list and "Restore code" chosen. The project's files are read.
 * 3. Sepia (library + checkpoint service, the saved home as a copied home) restores the same
 *    checkpoint into a copy of the saved project. Both trees are compared byte for byte (every
 *    file outside `.git`, with its mode).
 *
 * Writes `resume/REWIND.md` (parsed back by {@link parseRewindReport}). Not part of `npm test`
 * (real CLI, ~1-2 minutes).
 *
 *   npm run resume-rewind -- [--keep] [--no-write] [--out FILE]
 *
 * Exit status 0 when every checkpoint matched.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { claudeCode } from '../src/main/agents/claude-code'
import { createCheckpointService } from '../src/main/checkpoints'
import { libraryFor } from '../tests/builders/checkpoints/testing'
import { claudeCodeDriver, claudeCodeEnv } from './drivers/claude-code'
import { startMock, type Mock } from './mock/server'
import { ensureInstalled, ensureTmux, makeSandbox, sleep, stopSandboxProcesses, Tmux, type Sandbox } from './sandbox'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const SCENARIO = join(ROOT, 'resume', 'scenarios', 'rewind.json')

/** Markers around the Cline section of REWIND.md (written by `rewind-cline.ts`; kept when this script rewrites the file). */
export const CLINE_SECTION_BEGIN = '<!-- cline-rewind: written by npm run resume-rewind-cline -->'
export const CLINE_SECTION_END = '<!-- /cline-rewind -->'

/** The prompts typed, in order; each is a checkpoint (the snapshot before it). */
export const PROMPTS = [
  '[rw1] Create notes/plan.md and edit README.md.',
  '[rw2] Extend the plan, add todo.txt, remove README.md and src/main.js.',
  '[rw3] Write README.md again, tick todo.txt, replace the plan.',
  '[rw4] Anything left?',
]

/** One file of a project tree: its bytes' length, mode and a short digest. */
export type Tree = Map<string, { bytes: Buffer; mode: number }>

/** One checkpoint's outcome. */
export interface RewindRow {
  /** 1-based checkpoint number (the prompt it precedes). The report shows the first 8 characters of `messageId`. */
  n: number
  messageId: string
  prompt: string
  /** Files after the CLI's rewind, `path=<first 8 hex digits of sha256>`. */
  cli: string
  /** What Sepia wrote / deleted. */
  sepia: string
  same: boolean
  note: string
}

function log(s: string): void {
  process.stdout.write(s + '\n')
}

/** Every file of `dir` outside its top-level `.git`: bytes and permission bits, by relative path. */
export function readTree(dir: string): Tree {
  const out: Tree = new Map()
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git' && d === dir) continue
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else out.set(relative(dir, p), { bytes: readFileSync(p), mode: lstatSync(p).mode & 0o777 })
    }
  }
  walk(dir)
  return out
}

/** First 8 hex digits of the SHA-256 of `b`. */
export function sha8(b: Buffer): string {
  return spawnSync('sha256sum', { input: b }).stdout.toString().slice(0, 8)
}

/** `path=<sha8>` for each file, sorted, space-separated. */
export function describeTree(t: Tree): string {
  return [...t.keys()].sort().map((k) => `${k}=${sha8(t.get(k)!.bytes)}`).join(' ')
}

/** Differences between two trees, in words (empty when byte-identical with the same modes). */
export function diffTrees(a: Tree, b: Tree): string[] {
  const out: string[] = []
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k)
    const y = b.get(k)
    if (!x) out.push(`${k}: only after Sepia's restore`)
    else if (!y) out.push(`${k}: only after the CLI's rewind`)
    else if (!x.bytes.equals(y.bytes)) out.push(`${k}: bytes differ`)
    else if (x.mode !== y.mode) out.push(`${k}: mode ${x.mode.toString(8)} vs ${y.mode.toString(8)}`)
  }
  return out.sort()
}

function claudeEnv(sandbox: Sandbox, mock: Mock): Record<string, string> {
  // The driver's environment (drivers/claude-code.ts), with a terminal for the UI.
  return claudeCodeEnv(sandbox.home, mock.url, { TERM: 'xterm-256color' })
}

/** Pre-seed the first-run answers (onboarding, API key, folder trust, bypass warning), as the shared kit's gen-claude-code.sh does. */
function seedClaudeConfig(sandbox: Sandbox): void {
  const f = join(sandbox.home, '.claude.json')
  const j = existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>) : {}
  j.hasCompletedOnboarding = true
  j.theme ??= 'dark'
  j.customApiKeyResponses = { approved: ['sk-ant-mock'.slice(-20)], rejected: [] }
  const projects = (j.projects ?? {}) as Record<string, Record<string, unknown>>
  projects[sandbox.cwd] = { ...(projects[sandbox.cwd] ?? {}), hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true }
  j.projects = projects
  writeFileSync(f, JSON.stringify(j, null, 2))
  const settings = join(sandbox.home, '.claude', 'settings.json')
  spawnSync('mkdir', ['-p', dirname(settings)])
  writeFileSync(settings, JSON.stringify({ skipDangerousModePermissionPrompt: true }, null, 2))
}

function transcriptOf(home: string): string | undefined {
  const root = join(home, '.claude', 'projects')
  if (!existsSync(root)) return undefined
  for (const d of readdirSync(root)) for (const f of readdirSync(join(root, d))) if (f.endsWith('.jsonl')) return join(root, d, f)
  return undefined
}

function records(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8').split('\n').flatMap((l) => {
    try {
      return [JSON.parse(l) as Record<string, unknown>]
    } catch {
      return []
    }
  })
}

async function waitFor(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(250)) if (cond()) return true
  return cond()
}

/** The mock answered the last scripted step of turn `marker`. */
function turnDone(mock: Mock, marker: string, lastStep: number): boolean {
  return mock.entries().some((e) => {
    const p = e.picked as { turn?: unknown; step?: unknown } | undefined
    return p?.turn === marker && p.step === lastStep
  })
}

/**
 * Type `text` and press Enter until `accepted()` (the UI may still be busy on a loaded machine,
 * or the command's autocomplete may take the first Enter). Rejects after three tries.
 */
async function submit(tmux: Tmux, text: string, accepted: () => boolean, what: string): Promise<void> {
  await tmux.type(text)
  for (let i = 0; i < 3; i++) {
    if (await waitFor(accepted, 8_000)) return
    tmux.keys('Enter')
  }
  if (!(await waitFor(accepted, 15_000))) throw new Error(`${what}: the terminal UI did not take it:\n${tmux.screen()}`)
}

async function exitTui(tmux: Tmux): Promise<void> {
  await tmux.type('/exit')
  await waitFor(() => spawnSync('tmux', ['-L', tmux.server, 'list-panes', '-t', 'main', '-F', '#{pane_current_command}']).stdout?.toString().includes('sleep') ?? true, 15_000)
}

/** Record the four turns in the terminal UI; resolves the session id. */
async function record(bin: string, sandbox: Sandbox, mock: Mock, screens: string[]): Promise<string> {
  const scenario = JSON.parse(readFileSync(SCENARIO, 'utf8')) as { turns: { match: string; replies: unknown[] }[] }
  const tmux = new Tmux()
  try {
    tmux.start([bin, '--dangerously-skip-permissions'], claudeEnv(sandbox, mock), sandbox.cwd)
    if (!(await tmux.waitScreen(/bypass permissions on/, 45_000))) throw new Error(`the terminal UI did not reach its prompt:\n${tmux.screen()}`)
    for (const prompt of PROMPTS) {
      const marker = prompt.slice(0, prompt.indexOf(']') + 1)
      const turn = scenario.turns.find((t) => t.match === marker)!
      await submit(tmux, prompt, () => mock.entries().some((e) => (e.picked as { turn?: unknown } | undefined)?.turn === marker), `prompt ${marker}`)
      if (!(await waitFor(() => turnDone(mock, marker, turn.replies.length - 1), 90_000))) throw new Error(`turn ${marker} did not finish:\n${tmux.screen()}`)
      const last = turn.replies[turn.replies.length - 1] as string
      // The final text is in the transcript: the turn is recorded.
      if (!(await waitFor(() => { const t = transcriptOf(sandbox.home); return !!t && readFileSync(t, 'utf8').includes(JSON.stringify(last).slice(1, -1)) }, 30_000))) throw new Error(`turn ${marker}'s answer is not in the transcript`)
      await sleep(1500)
    }
    screens.push(tmux.screen())
    await exitTui(tmux)
  } finally {
    tmux.stop()
  }
  const t = transcriptOf(sandbox.home)
  if (!t) throw new Error('the CLI wrote no transcript')
  return t.slice(t.lastIndexOf('/') + 1, -'.jsonl'.length)
}

/**
 * Rewind with the CLI's own `/rewind`: the list shows the session's prompts (oldest first) with the
 * cursor on the newest entry ("(current)"); `Up` moves to older ones. Then "Restore code".
 */
async function cliRewind(bin: string, sandbox: Sandbox, mock: Mock, sessionId: string, n: number, screens: string[]): Promise<string> {
  const tmux = new Tmux()
  try {
    tmux.start([bin, '--dangerously-skip-permissions', '--resume', sessionId], claudeEnv(sandbox, mock), sandbox.cwd)
    if (!(await tmux.waitScreen(/bypass permissions on/, 45_000))) throw new Error(`the terminal UI did not reach its prompt:\n${tmux.screen()}`)
    await sleep(1000)
    const prompt = PROMPTS[n - 1]!
    // The picker: a "Rewind" panel under a ▔ border, "(current)" last, "Enter to continue · Esc to cancel".
    const listShown = (): boolean => /Enter to continue/.test(panel(tmux.screen())) && panel(tmux.screen()).includes(prompt.slice(0, 30))
    await submit(tmux, '/rewind', listShown, '/rewind')
    await sleep(700)
    screens.push(`--- /rewind list (checkpoint ${n})\n${tmux.screen()}`)
    // Move the cursor one entry at a time, reading where it is after each key (the UI lags on a loaded machine).
    const entries = [...PROMPTS.map((p) => p.slice(0, p.indexOf(']') + 1)), '(current)']
    const at = (): number => {
      const line = panel(tmux.screen()).split('\n').find((l) => /^\s*❯/.test(l))
      return line ? entries.findIndex((e) => line.includes(e)) : -1
    }
    for (let i = 0; i < 20 && at() !== n - 1; i++) {
      const from = at()
      if (from < 0) break
      tmux.keys(from > n - 1 ? 'Up' : 'Down')
      await waitFor(() => at() !== from, 3_000)
    }
    const marker = entries[n - 1]!
    if (!cursorOn(tmux.screen(), marker)) throw new Error(`could not put the cursor on ${marker}:\n${tmux.screen()}`)
    const listLines = panel(tmux.screen()).split('\n')
    const stats = listLines[listLines.findIndex((l) => /^\s*❯/.test(l)) + 1]?.trim() ?? ''
    tmux.keys('Enter')
    const options = (): string => panel(tmux.screen())
    if (!(await waitFor(() => /Restore conversation/.test(options()), 15_000))) throw new Error(`no restore options:\n${tmux.screen()}`)
    await sleep(700)
    screens.push(`--- options (checkpoint ${n})\n${tmux.screen()}`)
    if (/The code will be unchanged/.test(options()) && !/Restore code/.test(options())) {
      // The CLI offers no code restore here (its dry run `AWt` found no file to change): Never mind.
      tmux.keys('Escape')
      await sleep(500)
      tmux.keys('Escape')
      await sleep(500)
      await exitTui(tmux)
      return `list: "${stats}"; The CLI offers no code restore: "The code will be unchanged."`
    }
    for (let i = 0; i < 6 && !optionOn(tmux.screen(), /Restore code\s*$/); i++) {
      tmux.keys('Down')
      await sleep(400)
    }
    if (!optionOn(tmux.screen(), /Restore code\s*$/)) throw new Error(`could not select "Restore code":\n${tmux.screen()}`)
    tmux.keys('Enter')
    await sleep(3000)
    const after = tmux.screen()
    screens.push(`--- after (checkpoint ${n})\n${after}`)
    await exitTui(tmux)
    return `list: "${stats}"`
  } finally {
    tmux.stop()
  }
}

/** The rewind panel: the screen below its top border (a line of `▔`), where the conversation's own `❯ <prompt>` lines are not. */
function panel(screen: string): string {
  const lines = screen.split('\n')
  let at = -1
  lines.forEach((l, i) => {
    if (/^▔{10,}/.test(l.trim())) at = i
  })
  return at < 0 ? '' : lines.slice(at + 1).join('\n')
}

/** The selected line of the panel's list starts with the pointer `❯`. */
function cursorOn(screen: string, marker: string): boolean {
  return panel(screen).split('\n').some((l) => /^\s*❯/.test(l) && l.includes(marker))
}

function optionOn(screen: string, label: RegExp): boolean {
  return panel(screen).split('\n').some((l) => /^\s*❯/.test(l) && label.test(l.replace(/^\s*❯\s*(\d+\.\s*)?/, '').trimEnd()))
}

/** Snapshot message ids in file order (each prompt's checkpoint), read from the raw transcript. */
function snapshotIds(file: string): string[] {
  const ids: string[] = []
  for (const r of records(file)) if (r.type === 'file-history-snapshot' && typeof r.messageId === 'string' && !ids.includes(r.messageId)) ids.push(r.messageId)
  return ids
}

/** The user message id of each prompt, from the raw transcript. */
function promptIds(file: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const r of records(file)) {
    if (r.type !== 'user') continue
    const c = (r.message as { content?: unknown } | undefined)?.content
    const text = typeof c === 'string' ? c : Array.isArray(c) ? (c as { type?: string; text?: string }[]).filter((b) => b.type === 'text').map((b) => b.text).join('') : ''
    const p = PROMPTS.find((x) => text.includes(x))
    if (p && typeof r.uuid === 'string' && !out.has(p)) out.set(p, r.uuid)
  }
  return out
}

async function sepiaRestore(savedHome: string, sessionId: string, messageId: string, target: string, dataDir: string): Promise<string> {
  const library = await libraryFor([claudeCode], [savedHome])
  try {
    const svc = createCheckpointService({ library, appDataDir: dataDir, now: () => Date.now() })
    const list = await svc.list('claude-code', sessionId, { targetDir: target })
    const cp = list.checkpoints.find((c) => c.ref === messageId)
    if (!cp) throw new Error(`Sepia lists no checkpoint ${messageId} (has ${list.checkpoints.map((c) => c.ref).join(', ')})`)
    const r = await svc.restore('claude-code', sessionId, cp.id, { targetDir: target })
    return `wrote/deleted ${r.written.join(', ') || 'nothing'}${r.unchanged.length ? `; unchanged ${r.unchanged.join(', ')}` : ''}${r.refused.length ? `; refused ${r.refused.map((x) => x.path).join(', ')}` : ''}`
  } finally {
    await library.close().catch(() => undefined)
  }
}

/** Render the report. */
export function renderReport(rows: RewindRow[], meta: { cli: string; sessionId: string; seconds: number; finalTree: string; problem?: string }): string {
  const ok = rows.length > 0 && rows.every((r) => r.same) && !meta.problem
  const lines = [
    '# Claude Code rewind vs Sepia restore, proved with the real CLI',
    '',
    `Written by \`npm run resume-rewind\` (\`resume/rewind.ts\`) with \`${meta.cli}\` in its terminal UI (tmux) against the`,
    'loopback mock (`resume/scenarios/rewind.json`). One session of four turns: turn 1 creates `notes/plan.md` and edits',
    '`README.md`; turn 2 edits the plan, creates `todo.txt` and removes `README.md` and `src/main.js` with Bash (`src/main.js`',
    'was never edited by a tool, so the CLI never tracked it); turn 3 writes `README.md` again, edits `todo.txt` and rewrites the',
    'plan; turn 4 changes nothing. For each checkpoint the sandbox is put back to the recorded state, the CLI resumes the',
    'session, `/rewind` → the prompt → "Restore code"; Sepia restores the same checkpoint into a copy of the recorded project;',
    'the two trees (every file outside `.git`, bytes and mode) are compared.',
    '',
    `Session \`${meta.sessionId}\`; ${meta.seconds} s. Files after the four turns: ${meta.finalTree || '(none)'}`,
    '',
    `Result: **${ok ? 'PASS' : 'FAIL'}** (${rows.filter((r) => r.same).length} of ${rows.length} checkpoints identical)`,
    '',
  ]
  if (meta.problem) lines.push(`Problem: ${meta.problem}`, '')
  const has = (n: number, path: string): boolean | undefined => {
    const r = rows.find((x) => x.n === n)
    return r && r.cli ? r.cli.split(' ').some((x) => x.startsWith(`${path}=`)) : undefined
  }
  const facts: [string, boolean | undefined][] = [
    ['a file a later turn created is gone after the rewind (checkpoint 1: no notes/plan.md, no todo.txt; checkpoint 2: no todo.txt)', has(1, 'notes/plan.md') === false && has(1, 'todo.txt') === false && has(2, 'todo.txt') === false],
    ['a tracked file a later turn deleted with Bash comes back (checkpoint 2: README.md, as turn 1 left it)', has(2, 'README.md')],
    ['a tracked file that did not exist at the checkpoint is deleted (checkpoint 3: README.md, removed in turn 2, written again in turn 3)', has(3, 'README.md') === false],
    ['a file no tool ever edited is not restored (src/main.js, removed by Bash in turn 2, is absent after every rewind)', rows.length > 0 && rows.every((r) => r.cli && !r.cli.includes('src/main.js='))],
  ]
  lines.push('What the CLI\'s rewind did (computed from the rows below):', '')
  for (const [f, v] of facts) lines.push(`- ${v === true ? 'yes' : v === false ? 'NO' : 'not run'}: ${f}`)
  lines.push('')
  lines.push('| # | checkpoint (before prompt) | files after the CLI\'s /rewind | Sepia\'s restore | identical | note |', '|---|---|---|---|---|---|')
  for (const r of rows) lines.push(`| ${r.n} | \`${r.messageId.slice(0, 8)}\` ${r.prompt.replace(/\|/g, '\\|')} | ${r.cli || '(none)'} | ${r.sepia.replace(/\|/g, '\\|')} | ${r.same ? 'yes' : 'NO'} | ${r.note.replace(/\|/g, '\\|')} |`)
  lines.push('')
  return lines.join('\n')
}

/** Parse a report written by {@link renderReport}: overall result and one entry per checkpoint row. */
export function parseRewindReport(report: string): { pass: boolean; rows: { n: number; messageId: string; same: boolean }[] } {
  const at = report.indexOf(CLINE_SECTION_BEGIN)
  const md = at < 0 ? report : report.slice(0, at) // the Claude Code part only
  const pass = /^Result: \*\*PASS\*\*/m.test(md)
  const rows: { n: number; messageId: string; same: boolean }[] = []
  for (const l of md.split('\n')) {
    const m = /^\| (\d+) \| `([0-9a-f-]+)` .*\| (yes|NO) \| [^|]*\|$/.exec(l)
    if (m) rows.push({ n: Number(m[1]), messageId: m[2]!, same: m[3] === 'yes' })
  }
  return { pass, rows }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { keep: { type: 'boolean' }, 'no-write': { type: 'boolean' }, out: { type: 'string' } } })
  const started = Date.now()
  await ensureTmux(log)
  const pkg = claudeCodeDriver.package
  const bin = await ensureInstalled(pkg, log)
  const sandbox = makeSandbox('ledger-api')
  const work = mkdtempSync(join(tmpdir(), 'sepia-rewind-'))
  const saved = join(work, 'saved-home')
  const screens: string[] = []
  const rows: RewindRow[] = []
  let sessionId = ''
  let finalTree = ''
  let problem: string | undefined
  seedClaudeConfig(sandbox)
  const mock = await startMock({ scenarioFile: SCENARIO, logFile: join(work, 'mock-requests.jsonl'), cwd: sandbox.cwd })
  try {
    log(`recording in ${sandbox.home} (mock ${mock.url})`)
    sessionId = await record(bin, sandbox, mock, screens)
    await stopSandboxProcesses(sandbox.home)
    const file = transcriptOf(sandbox.home)!
    finalTree = describeTree(readTree(sandbox.cwd))
    log(`session ${sessionId}; files: ${finalTree}`)
    cpSync(sandbox.home, saved, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true })
    const snaps = snapshotIds(file)
    const prompts = promptIds(file)
    for (const [i, prompt] of PROMPTS.entries()) {
      const n = i + 1
      const messageId = prompts.get(prompt)
      if (!messageId) throw new Error(`prompt ${n} is not in the transcript`)
      if (!snaps.includes(messageId)) throw new Error(`no file-history-snapshot for prompt ${n} (${messageId})`)
      // Put the sandbox back to the recorded state (same paths: the session records them).
      rmSync(sandbox.home, { recursive: true, force: true })
      cpSync(saved, sandbox.home, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true })
      let note = ''
      try {
        const after = await cliRewind(bin, sandbox, mock, sessionId, n, screens)
        note = after
      } catch (e) {
        problem = `checkpoint ${n}: ${(e as Error).message.split('\n')[0]}`
        log(`FAIL ${problem}\n${(e as Error).message}`)
        rows.push({ n, messageId, prompt, cli: '', sepia: '', same: false, note: problem })
        continue
      } finally {
        await stopSandboxProcesses(sandbox.home)
      }
      const cliTree = readTree(sandbox.cwd)
      const target = join(work, `sepia-${n}`, 'ledger-api')
      cpSync(join(saved, relative(sandbox.home, sandbox.cwd)), target, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true })
      const sepia = await sepiaRestore(saved, sessionId, messageId, target, join(work, `sepia-${n}`, 'data'))
      const diffs = diffTrees(readTree(target), cliTree)
      rows.push({ n, messageId, prompt, cli: describeTree(cliTree), sepia, same: diffs.length === 0, note: [note, ...diffs].filter(Boolean).join('; ') })
      log(`checkpoint ${n} (${messageId}): ${diffs.length === 0 ? 'identical' : `DIFFERENT: ${diffs.join('; ')}`}`)
    }
  } catch (e) {
    problem = (e as Error).message.split('\n')[0]
    log(`FAIL: ${(e as Error).message}`)
  } finally {
    await mock.stop()
    await stopSandboxProcesses(sandbox.home)
    writeFileSync(join(work, 'screens.txt'), screens.join('\n\n'))
    if (values.keep) log(`kept ${sandbox.home} and ${work} (screens.txt, mock-requests.jsonl)`)
    else {
      rmSync(sandbox.home, { recursive: true, force: true })
      rmSync(work, { recursive: true, force: true })
    }
  }
  const md = renderReport(rows, { cli: `${pkg.pkg}@${pkg.version}`, sessionId, seconds: Math.round((Date.now() - started) / 1000), finalTree, ...(problem ? { problem } : {}) })
  if (!values['no-write']) {
    const file = values.out ?? join(ROOT, 'resume', 'REWIND.md')
    // Keep the Cline section `rewind-cline.ts` wrote.
    const old = existsSync(file) ? readFileSync(file, 'utf8') : ''
    const at = old.indexOf(CLINE_SECTION_BEGIN)
    writeFileSync(file, at < 0 ? md : `${md.trimEnd()}\n\n${old.slice(at)}`)
  }
  log(md)
  return parseRewindReport(md).pass ? 0 : 1
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then((c) => process.exit(c), (e) => {
    log(String(e?.stack ?? e))
    process.exit(2)
  })
}
