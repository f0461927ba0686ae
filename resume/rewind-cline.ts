/**
 * `npm run resume-rewind-cline`: prove Sepia's Cline SDK checkpoint restore against the real Cline
 * CLI's own `/undo` → "Restore chat and workspace" (issue 14, "Checkpoints as the agent itself
 * restores them ... Do the same for Cline's checkpoint restore where the CLI offers one").
 *
 * What the CLI does (cline 3.0.65's bundled `bin/.cline`, the same code as cline/cline
 * `sdk/packages/core/src/session/checkpoint-restore.ts` `applyCheckpointToWorktree` and
 * `sdk/packages/core/src/hooks/checkpoint-hooks.ts`, commit 21cb8d2525bcedf1f4b6890b27a74a14fe7451e4):
 * a checkpoint is taken before the first model call of each run in the project's own repository
 * (`stash`: a commit whose parents are HEAD, the index and, when there were untracked files, a
 * commit of those; `commit`: HEAD on a clean tree). Restore: refuse when HEAD moved; `git reset
 * --hard` to the base; `git clean -fd` only when the stash has the third (untracked) parent; then
 * `git stash apply <ref>` for a stash.
 *
 * 1. The real `cline` (3.0.65, `drivers/cline.ts`) runs in its terminal UI in a private tmux
 *    server against the mock (`scenarios/rewind-cline.json`) and records one session of four
 *    runs: run 1 creates `notes/plan.md` and edits `README.md`; run 2 edits the plan, creates
 *    `todo.txt` and removes `README.md` and `src/main.js` with a shell command; run 3 writes
 *    `README.md` again, edits `todo.txt` and rewrites the plan; run 4 changes nothing. The whole
 *    sandbox (home + project with its `.git`) is saved.
 * 2. For each checkpoint: the sandbox is put back, `cline --id <session>` opens the terminal UI,
 *    `/undo` is typed, the run's prompt picked in "Restore to Checkpoint" and "Restore chat and
 *    workspace" chosen. The project's files are read.
 * 3. Sepia (library + checkpoint service over the saved home) restores the same checkpoint into a
 *    copy of the saved project (its `.git` holds the checkpoint commits). Both trees are compared
 *    byte for byte (every file outside `.git`, with its mode).
 *
 * Writes the "Cline" section of `resume/REWIND.md` (between the markers {@link BEGIN} and
 * {@link END}; the Claude Code part written by `rewind.ts` is kept). Not part of `npm test`.
 *
 *   npm run resume-rewind-cline -- [--keep] [--no-write]
 *
 * Exit status 0 when every checkpoint matched.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { cline } from '../src/main/agents/cline'
import { createCheckpointService } from '../src/main/checkpoints'
import { libraryFor } from '../tests/builders/checkpoints/testing'
import { clineDriver } from './drivers/cline'
import { startMock, type Mock } from './mock/server'
import { CLINE_SECTION_BEGIN as BEGIN, CLINE_SECTION_END as END, describeTree, diffTrees, readTree } from './rewind'
import { baseEnv, ensureInstalled, ensureTmux, makeSandbox, run, sleep, stopSandboxProcesses, Tmux, type Sandbox } from './sandbox'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const SCENARIO = join(ROOT, 'resume', 'scenarios', 'rewind-cline.json')
/** Markers around the Cline section of REWIND.md. */
export { CLINE_SECTION_BEGIN as BEGIN, CLINE_SECTION_END as END } from './rewind'

/** The prompts typed, in order; run n's checkpoint is the state before prompt n. */
export const PROMPTS = [
  '[cw1] Create notes/plan.md and edit README.md.',
  '[cw2] Extend the plan, add todo.txt, remove README.md and src/main.js.',
  '[cw3] Write README.md again, tick todo.txt, replace the plan.',
  '[cw4] Anything left?',
]

/** One checkpoint's outcome. */
export interface ClineRewindRow {
  /** Run count (1-based). */
  n: number
  /** The checkpoint commit and kind, from the session manifest. */
  ref: string
  kind: string
  prompt: string
  /** Files after the CLI's restore (`path=<sha8>`). */
  cli: string
  sepia: string
  same: boolean
  note: string
}

function log(s: string): void {
  process.stdout.write(s + '\n')
}

// `CLINE_DISABLE_CLINE_PASS_NOTICE`: the start-up notice "Try ClinePass" ("Press Enter to open, any
// other key to close") would take the first typed line (cline 3.0.65 `bin/.cline`).
const ENV = { CLINE_NO_AUTO_UPDATE: '1', CLINE_SESSION_BACKEND_MODE: 'local', CLINE_DISABLE_CLINE_PASS_NOTICE: '1', TERM: 'xterm-256color' }

/** Close any start-up notice ("Introducing Cline Desktop", ...): any key but Enter closes it. */
async function dismissNotices(tmux: Tmux): Promise<void> {
  for (let i = 0; i < 4 && /any other key to close/.test(tmux.screen()); i++) {
    tmux.keys('Escape')
    await sleep(800)
  }
}

async function waitFor(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(250)) if (cond()) return true
  return cond()
}

function turnDone(mock: Mock, marker: string, lastStep: number): boolean {
  return mock.entries().some((e) => {
    const p = e.picked as { turn?: unknown; step?: unknown } | undefined
    return p?.turn === marker && p.step === lastStep
  })
}

/** Session manifests under the home: `~/.cline/data/sessions/<id>/<id>.json`. */
function manifests(home: string): { id: string; file: string }[] {
  const root = join(home, '.cline', 'data', 'sessions')
  if (!existsSync(root)) return []
  return readdirSync(root).filter((id) => existsSync(join(root, id, `${id}.json`))).map((id) => ({ id, file: join(root, id, `${id}.json`) }))
}

/** The checkpoint history the session manifest records (`metadata.checkpoint.history`). */
function checkpointHistory(file: string): { ref: string; runCount: number; kind: string }[] {
  const m = JSON.parse(readFileSync(file, 'utf8')) as { metadata?: { checkpoint?: { history?: { ref: string; runCount: number; kind?: string }[] } } }
  return (m.metadata?.checkpoint?.history ?? []).map((h) => ({ ref: h.ref, runCount: h.runCount, kind: h.kind ?? '' }))
}

async function submit(tmux: Tmux, text: string, accepted: () => boolean, what: string): Promise<void> {
  await tmux.type(text)
  for (let i = 0; i < 3; i++) {
    if (await waitFor(accepted, 8_000)) return
    tmux.keys('Enter')
  }
  if (!(await waitFor(accepted, 15_000))) throw new Error(`${what}: the terminal UI did not take it:\n${tmux.screen()}`)
}

async function quit(tmux: Tmux): Promise<void> {
  tmux.keys('C-c')
  await sleep(800)
  tmux.keys('C-c')
  await sleep(1500)
}

/** Record the four runs in one terminal UI session; resolves the session id. */
async function record(bin: string, sandbox: Sandbox, mock: Mock, screens: string[]): Promise<string> {
  const scenario = JSON.parse(readFileSync(SCENARIO, 'utf8')) as { turns: { match: string; replies: unknown[] }[] }
  const tmux = new Tmux()
  try {
    tmux.start([bin], baseEnv(sandbox.home, ENV), sandbox.cwd)
    if (!(await tmux.waitScreen(/Ask anything|mock-model/, 45_000))) throw new Error(`the terminal UI did not show its input:\n${tmux.screen()}`)
    await sleep(2000)
    await dismissNotices(tmux)
    for (const prompt of PROMPTS) {
      const marker = prompt.slice(0, prompt.indexOf(']') + 1)
      const turn = scenario.turns.find((t) => t.match === marker)!
      await submit(tmux, prompt, () => mock.entries().some((e) => (e.picked as { turn?: unknown } | undefined)?.turn === marker), `prompt ${marker}`)
      if (!(await waitFor(() => turnDone(mock, marker, turn.replies.length - 1), 90_000))) throw new Error(`run ${marker} did not finish:\n${tmux.screen()}`)
      const last = turn.replies[turn.replies.length - 1] as string
      // The run is stored once its final text is in the messages file.
      const stored = (): boolean => manifests(sandbox.home).some(({ id, file }) => readFileSync(join(dirname(file), `${id}.messages.json`), 'utf8').includes(last))
      if (!(await waitFor(() => { try { return stored() } catch { return false } }, 30_000))) throw new Error(`run ${marker}'s answer is not in the session`)
      await sleep(1500)
    }
    screens.push(tmux.screen())
    await quit(tmux)
  } finally {
    tmux.stop()
  }
  const ms = manifests(sandbox.home)
  if (ms.length !== 1) throw new Error(`expected one session, found ${ms.length}`)
  return ms[0]!.id
}

/**
 * The selected row of an open dialog: the dialog is drawn over the conversation, so its pointer
 * `❯` stands mid-line, while the input box (`❯ Ask anything...`, column 0) and the history's
 * prompts (` ❯ [cw1] ...`, column 1) have theirs at the start. Resolves the text after it.
 */
function selected(screen: string): string | undefined {
  for (const l of screen.split('\n')) {
    const at = l.indexOf('❯')
    if (at > 3) return l.slice(at + 1).trim()
  }
  return undefined
}

/** `/undo` → pick run `n` → "Restore chat and workspace"; resolves a note on what the UI said. */
async function cliRestore(bin: string, sandbox: Sandbox, sessionId: string, n: number, screens: string[]): Promise<string> {
  const tmux = new Tmux()
  try {
    tmux.start([bin, '--id', sessionId], baseEnv(sandbox.home, ENV), sandbox.cwd)
    if (!(await tmux.waitScreen(/^ ❯ \S/m, 45_000))) throw new Error(`the restored history did not show:\n${tmux.screen()}`)
    await sleep(2500)
    await dismissNotices(tmux)
    const marker = PROMPTS[n - 1]!.slice(0, PROMPTS[n - 1]!.indexOf(']') + 1)
    const pickerShown = (): boolean => /Restore to Checkpoint/.test(tmux.screen())
    await submit(tmux, '/undo', pickerShown, '/undo')
    await sleep(700)
    screens.push(`--- /undo picker (checkpoint ${n})\n${tmux.screen()}`)
    // The cursor starts on the newest run; Up moves to older ones (and wraps).
    for (let i = 0; i < 12 && !(selected(tmux.screen()) ?? '').includes(marker); i++) {
      const before = selected(tmux.screen())
      tmux.keys('Up')
      await waitFor(() => selected(tmux.screen()) !== before, 3_000)
    }
    if (!(selected(tmux.screen()) ?? '').includes(marker)) throw new Error(`could not select ${marker}:\n${tmux.screen()}`)
    tmux.keys('Enter')
    if (!(await waitFor(() => /Restore chat and workspace/.test(tmux.screen()), 15_000))) throw new Error(`no restore options:\n${tmux.screen()}`)
    await sleep(500)
    for (let i = 0; i < 4 && !/Restore chat and workspace/.test(selected(tmux.screen()) ?? ''); i++) {
      tmux.keys('Down')
      await sleep(400)
    }
    if (!/Restore chat and workspace/.test(selected(tmux.screen()) ?? '')) throw new Error(`could not select "Restore chat and workspace":\n${tmux.screen()}`)
    screens.push(`--- options (checkpoint ${n})\n${tmux.screen()}`)
    tmux.keys('Enter')
    const outcome = (): string | undefined => {
      const s = tmux.screen()
      const failed = /Checkpoint restore failed[^\n]*/.exec(s)
      if (failed) return failed[0].trim()
      return /Restored to checkpoint/.test(s) ? 'Restored to checkpoint' : undefined
    }
    await waitFor(() => outcome() !== undefined, 30_000)
    const said = outcome() ?? 'no outcome shown within 30 s'
    await sleep(1000)
    screens.push(`--- after (checkpoint ${n})\n${tmux.screen()}`)
    await quit(tmux)
    return `the UI said: "${said}"`
  } finally {
    tmux.stop()
  }
}

async function sepiaRestore(savedHome: string, sessionId: string, ref: string, target: string, dataDir: string): Promise<string> {
  const library = await libraryFor([cline], [savedHome])
  try {
    const svc = createCheckpointService({ library, appDataDir: dataDir, now: () => Date.now() })
    const list = await svc.list('cline', sessionId, { targetDir: target })
    const cp = list.checkpoints.find((c) => c.ref === ref)
    if (!cp) throw new Error(`Sepia lists no checkpoint ${ref} (has ${list.checkpoints.map((c) => c.ref).join(', ')})`)
    const r = await svc.restore('cline', sessionId, cp.id, { targetDir: target })
    return `wrote/deleted ${r.written.join(', ') || 'nothing'}${r.unchanged.length ? `; unchanged ${r.unchanged.join(', ')}` : ''}${r.refused.length ? `; refused ${r.refused.map((x) => x.path).join(', ')}` : ''}`
  } finally {
    await library.close().catch(() => undefined)
  }
}

/** Render the Cline section (with its markers). */
export function renderClineSection(rows: ClineRewindRow[], meta: { cli: string; sessionId: string; seconds: number; finalTree: string; problem?: string }): string {
  const ok = rows.length > 0 && rows.every((r) => r.same) && !meta.problem
  const lines = [
    BEGIN,
    '',
    '# Cline checkpoint restore vs Sepia restore, proved with the real CLI',
    '',
    `Written by \`npm run resume-rewind-cline\` (\`resume/rewind-cline.ts\`) with \`${meta.cli}\` in its terminal UI (tmux)`,
    'against the loopback mock (`resume/scenarios/rewind-cline.json`). The CLI offers a restore for its SDK store: `/undo`',
    '(also in the command palette) → "Restore to Checkpoint" (one row per prompt) → "Restore chat and workspace". One session',
    'of four runs: run 1 creates `notes/plan.md` and edits `README.md`; run 2 edits the plan, creates `todo.txt` and removes',
    '`README.md` and `src/main.js` with a shell command; run 3 writes `README.md` again, edits `todo.txt` and rewrites the',
    'plan; run 4 changes nothing. For each checkpoint the sandbox (home and project with its `.git`) is put back to the',
    'recorded state, the CLI restores it; Sepia restores the same checkpoint into a copy of the recorded project; the two',
    'trees (every file outside `.git`, bytes and mode) are compared.',
    '',
    'What the CLI runs (cline 3.0.65 `bin/.cline`; readable source: cline/cline',
    '`sdk/packages/core/src/session/checkpoint-restore.ts` `applyCheckpointToWorktree` and',
    '`sdk/packages/core/src/hooks/checkpoint-hooks.ts`, commit 21cb8d2525bcedf1f4b6890b27a74a14fe7451e4): refuse when HEAD',
    'moved since the checkpoint; `git reset --hard` to the checkpoint\'s base; `git clean -fd` only when the checkpoint is a',
    'stash with a third (untracked files) parent; `git stash apply <ref>` for a stash. Before that, the restore transaction',
    '(`beginWorktreeRestoreTransaction`, called from `session-versioning-service.ts`) runs `git stash push --include-untracked`',
    'and keeps the result under `refs/cline/restore-transactions/<id>` only until the restore succeeds, so every untracked',
    'file is swept away first: after a `commit` checkpoint (run 1 here, a clean tree) the files created later are gone too,',
    'although `applyCheckpointToWorktree` alone would leave them ("left untouched" in its comment). Run 1 below shows it.',
    'The legacy task store (Cline CLI 2.x, VS Code extension tasks) has no restore in the CLI: CLI 2.18.0',
    'wrote no checkpoints (`../shared/realstores/README.md`); the VS Code extension restored them with',
    '`CheckpointTracker.resetHead`, `git reset --hard <hash>` on the shadow repository (`apps/vscode/src/integrations/checkpoints/CheckpointTracker.ts`',
    'at 1f31738b32c96c95743fc08e501e8f9577277edc^, the commit before the file was deleted; today\'s `checkpointRestore.ts` calls the SDK',
    'restore). `src/main/checkpoints/cline-extension-restore.test.ts` runs that reset on a shadow repository built in the test and',
    'compares it with Sepia\'s restore: identical for every checkpoint; one known difference, kept on purpose: a file edited after',
    'the last checkpoint that no checkpoint changed is overwritten by the reset and left alone by Sepia.',
    '',
    `Session \`${meta.sessionId}\`; ${meta.seconds} s. Files after the four runs: ${meta.finalTree || '(none)'}`,
    '',
    `Result: **${ok ? 'PASS' : 'FAIL'}** (${rows.filter((r) => r.same).length} of ${rows.length} checkpoints identical)`,
    '',
  ]
  if (meta.problem) lines.push(`Problem: ${meta.problem}`, '')
  lines.push('| run | checkpoint | files after the CLI\'s restore | Sepia\'s restore | identical | note |', '|---|---|---|---|---|---|')
  for (const r of rows) lines.push(`| ${r.n} | \`${r.ref.slice(0, 8)}\` ${r.kind} ${r.prompt.replace(/\|/g, '\\|')} | ${r.cli || '(none)'} | ${r.sepia.replace(/\|/g, '\\|')} | ${r.same ? 'yes' : 'NO'} | ${r.note.replace(/\|/g, '\\|')} |`)
  lines.push('', END, '')
  return lines.join('\n')
}

/** Parse the Cline section of a REWIND.md: its result and one entry per run row (`undefined` when there is no section). */
export function parseClineSection(md: string): { pass: boolean; rows: { n: number; ref: string; kind: string; same: boolean }[] } | undefined {
  const a = md.indexOf(BEGIN)
  const b = md.indexOf(END)
  if (a < 0 || b < a) return undefined
  const sec = md.slice(a, b)
  const rows: { n: number; ref: string; kind: string; same: boolean }[] = []
  for (const l of sec.split('\n')) {
    const m = /^\| (\d+) \| `([0-9a-f]+)` (stash|commit) .*\| (yes|NO) \| [^|]*\|$/.exec(l)
    if (m) rows.push({ n: Number(m[1]), ref: m[2]!, kind: m[3]!, same: m[4] === 'yes' })
  }
  return { pass: /^Result: \*\*PASS\*\*/m.test(sec), rows }
}

/** Put `section` into `md` in place of an earlier Cline section, or append it. */
export function spliceSection(md: string, section: string): string {
  const a = md.indexOf(BEGIN)
  const b = md.indexOf(END)
  if (a >= 0 && b > a) return md.slice(0, a) + section.trimEnd() + md.slice(b + END.length)
  return md.trimEnd() + '\n\n' + section
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { keep: { type: 'boolean' }, 'no-write': { type: 'boolean' } } })
  const started = Date.now()
  await ensureTmux(log)
  const pkg = clineDriver.package
  const bin = await ensureInstalled(pkg, log)
  const sandbox = makeSandbox('invoice-service')
  const work = mkdtempSync(join(tmpdir(), 'sepia-rewind-cline-'))
  const saved = join(work, 'saved-home')
  const screens: string[] = []
  const rows: ClineRewindRow[] = []
  let sessionId = ''
  let finalTree = ''
  let problem: string | undefined
  const mock = await startMock({ scenarioFile: SCENARIO, logFile: join(work, 'mock-requests.jsonl'), cwd: sandbox.cwd })
  try {
    const auth = await run(bin, ['auth', '-p', 'openai-compatible', '-k', 'sk-mock', '-m', 'mock-model', '-b', `${mock.url}/v1`], { cwd: sandbox.cwd, env: baseEnv(sandbox.home, ENV), timeoutMs: 90_000 })
    if (auth.code !== 0) throw new Error(`cline auth exited with ${auth.code}: ${auth.output.slice(-400)}`)
    log(`recording in ${sandbox.home} (mock ${mock.url})`)
    sessionId = await record(bin, sandbox, mock, screens)
    await stopSandboxProcesses(sandbox.home)
    finalTree = describeTree(readTree(sandbox.cwd))
    log(`session ${sessionId}; files: ${finalTree}`)
    cpSync(sandbox.home, saved, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true })
    const history = checkpointHistory(manifests(saved).find((m) => m.id === sessionId)!.file)
    log(`checkpoints: ${history.map((h) => `${h.runCount}:${h.kind}:${h.ref.slice(0, 8)}`).join(' ')}`)
    for (const [i, prompt] of PROMPTS.entries()) {
      const n = i + 1
      const cp = history.find((h) => h.runCount === n)
      if (!cp) {
        rows.push({ n, ref: '', kind: '', prompt, cli: '', sepia: '', same: false, note: 'the session recorded no checkpoint for this run' })
        continue
      }
      rmSync(sandbox.home, { recursive: true, force: true })
      cpSync(saved, sandbox.home, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true })
      let note = ''
      try {
        note = await cliRestore(bin, sandbox, sessionId, n, screens)
      } catch (e) {
        problem = `checkpoint ${n}: ${(e as Error).message.split('\n')[0]}`
        log(`FAIL ${problem}\n${(e as Error).message}`)
        rows.push({ n, ref: cp.ref, kind: cp.kind, prompt, cli: '', sepia: '', same: false, note: problem })
        continue
      } finally {
        await stopSandboxProcesses(sandbox.home)
      }
      const cliTree = readTree(sandbox.cwd)
      const target = join(work, `sepia-${n}`, 'invoice-service')
      cpSync(join(saved, relative(sandbox.home, sandbox.cwd)), target, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true })
      const sepia = await sepiaRestore(saved, sessionId, cp.ref, target, join(work, `sepia-${n}`, 'data'))
      const diffs = diffTrees(readTree(target), cliTree)
      rows.push({ n, ref: cp.ref, kind: cp.kind, prompt, cli: describeTree(cliTree), sepia, same: diffs.length === 0, note: [note, ...diffs].filter(Boolean).join('; ') })
      log(`checkpoint ${n} (${cp.kind} ${cp.ref.slice(0, 8)}): ${diffs.length === 0 ? 'identical' : `DIFFERENT: ${diffs.join('; ')}`}`)
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
  const section = renderClineSection(rows, { cli: `${pkg.pkg}@${pkg.version}`, sessionId, seconds: Math.round((Date.now() - started) / 1000), finalTree, ...(problem ? { problem } : {}) })
  const file = join(ROOT, 'resume', 'REWIND.md')
  if (!values['no-write']) writeFileSync(file, spliceSection(existsSync(file) ? readFileSync(file, 'utf8') : '', section))
  log(section)
  return rows.length > 0 && rows.every((r) => r.same) && !problem ? 0 : 1
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then((c) => process.exit(c), (e) => {
    log(String(e?.stack ?? e))
    process.exit(2)
  })
}
