/**
 * Cline legacy (VS Code extension / CLI 2.x task store) checkpoints restored as the extension
 * restores them, compared file by file with Sepia's restore (issue 14, "Checkpoints as the agent
 * itself restores them").
 *
 * No Cline CLI restores a legacy task: CLI 2.18.0 wrote no checkpoints
 * (`../shared/realstores/README.md`, "Cline CLI 2.18.0"), and the 3.x CLI's `/undo` works on its
 * SDK store only (`resume/rewind-cline.ts`). The extension did it in `CheckpointTracker`
 * (cline/cline `apps/vscode/src/integrations/checkpoints/CheckpointTracker.ts` at
 * 1f31738b32c96c95743fc08e501e8f9577277edc^, the last commit before the file was deleted): the shadow repository
 * `checkpoints/<cwd hash>/.git` has `core.worktree` = the workspace; each checkpoint is `git add .`
 * of the whole workspace plus a commit (`addCheckpointFiles`, `commit`), and `resetHead(hash)` is
 * `git reset --hard <hash>` run on that repository — nothing else (no clean, no index
 * of the user's own repository).
 *
 * The test builds that repository shape with the `git` command, records three turns (create, edit,
 * delete) as checkpoint commits, and for each checkpoint runs the extension's reset on one copy
 * of workspace + shadow repository and Sepia's restore on another; both workspaces are compared
 * byte for byte (every file, with its mode).
 */
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cline } from '../agents/cline'
import { createCheckpointService } from './index'
import { git, libraryFor, removeDir, snapshotDir, tempDir, writeFiles } from '../../../tests/builders/checkpoints/testing'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeDir))

const TASK = '1796022270019'
const HASH = '6a812c20'

interface Recorded {
  root: string
  proj: string
  home: string
  shadow: string
  /** Checkpoint commits in order (the first is the snapshot before the agent did anything). */
  hashes: string[]
}

/** The extension's checkpoint: `git add .` of the workspace, then a commit, in the shadow repository. */
function checkpoint(proj: string, shadow: string): string {
  const sg = (...args: string[]) => git(proj, `--git-dir=${shadow}`, `--work-tree=${proj}`, ...args)
  sg('add', '-A')
  sg('commit', '-q', '--allow-empty', '-m', `checkpoint-${HASH}-${TASK}`)
  return sg('rev-parse', 'HEAD')
}

/**
 * Workspace `weather-cli` (main.py, data/cities.json, README.md, run.sh 0755). Checkpoint 1 before
 * turn 1. Turn 1 creates notes/plan.md and edits main.py; checkpoint 2. Turn 2 edits the plan,
 * creates todo.txt, deletes README.md and data/cities.json; checkpoint 3. Turn 3 writes README.md
 * again, makes run.sh not executable and rewrites the plan; checkpoint 4 (the last turn's state).
 */
function record(): Recorded {
  const root = tempDir('ext')
  dirs.push(root)
  const proj = join(root, 'weather-cli')
  writeFiles(proj, { 'main.py': 'print("weather")\n', 'data/cities.json': '["Oslo"]\n', 'README.md': '# weather-cli\n', 'run.sh': '#!/bin/sh\npython3 main.py\n' })
  chmodSync(join(proj, 'run.sh'), 0o755)
  const home = join(root, 'home')
  const data = join(home, '.cline', 'data')
  const shadow = join(data, 'checkpoints', HASH, '.git')
  mkdirSync(shadow, { recursive: true })
  git(proj, `--git-dir=${shadow}`, `--work-tree=${proj}`, 'init', '-q')
  git(proj, `--git-dir=${shadow}`, 'config', 'core.worktree', proj)
  const hashes = [checkpoint(proj, shadow)]
  writeFiles(proj, { 'notes/plan.md': '# Plan\n\n1. fetch\n', 'main.py': 'print("weather v2")\n' })
  hashes.push(checkpoint(proj, shadow))
  writeFiles(proj, { 'notes/plan.md': '# Plan\n\n1. fetch\n2. cache\n', 'todo.txt': '- tests\n' })
  rmSync(join(proj, 'README.md'))
  rmSync(join(proj, 'data'), { recursive: true })
  hashes.push(checkpoint(proj, shadow))
  writeFiles(proj, { 'README.md': '# weather-cli\n\nRewritten.\n', 'notes/plan.md': 'All done.\n' })
  chmodSync(join(proj, 'run.sh'), 0o644)
  hashes.push(checkpoint(proj, shadow))
  const task = join(data, 'tasks', TASK)
  mkdirSync(task, { recursive: true })
  writeFileSync(join(task, 'api_conversation_history.json'), JSON.stringify([{ role: 'user', content: [{ type: 'text', text: '<task>\nwork on the weather tool\n</task>' }] }]))
  writeFileSync(join(task, 'ui_messages.json'), JSON.stringify([
    { ts: 1796022270100, type: 'say', say: 'task', text: 'work on the weather tool' },
    ...hashes.map((h, i) => ({ ts: 1796022271000 + i * 1000, type: 'say', say: 'checkpoint_created', lastCheckpointHash: h })),
  ]))
  mkdirSync(join(data, 'state'), { recursive: true })
  writeFileSync(join(data, 'state', 'taskHistory.json'), JSON.stringify([{ id: TASK, ts: 1796022275000, task: 'work on the weather tool', cwdOnTaskInitialization: proj }]))
  return { root, proj, home, shadow, hashes }
}

/** A copy of workspace and home (shadow repository inside) under `dir`, with core.worktree pointed at the copied workspace. */
function copyOf(r: Recorded, dir: string): { proj: string; home: string; shadow: string } {
  const proj = join(dir, 'weather-cli')
  const home = join(dir, 'home')
  cpSync(r.proj, proj, { recursive: true })
  cpSync(r.home, home, { recursive: true })
  const shadow = join(home, '.cline', 'data', 'checkpoints', HASH, '.git')
  git(proj, `--git-dir=${shadow}`, 'config', 'core.worktree', proj)
  const hist = join(home, '.cline', 'data', 'state', 'taskHistory.json')
  writeFileSync(hist, readFileSync(hist, 'utf8').split(JSON.stringify(r.proj).slice(1, -1)).join(JSON.stringify(proj).slice(1, -1)))
  return { proj, home, shadow }
}

describe('Cline legacy checkpoints: Sepia restores what the extension\'s CheckpointTracker.resetHead puts on disk', () => {
  const r = record()

  it.each([0, 1, 2, 3])('checkpoint %i: the workspace after `git reset --hard <hash>` equals Sepia\'s restore, byte for byte', async (k) => {
    const ext = copyOf(r, join(r.root, `ext-${k}`))
    // CheckpointTracker.resetHead: simpleGit(dirname(gitPath)).reset(["--hard", hash]).
    git(ext.proj, `--git-dir=${ext.shadow}`, `--work-tree=${ext.proj}`, 'reset', '-q', '--hard', r.hashes[k]!)

    const mine = copyOf(r, join(r.root, `sepia-${k}`))
    const data = join(r.root, `data-${k}`)
    const library = await libraryFor([cline], [mine.home])
    try {
      const svc = createCheckpointService({ library, appDataDir: data, now: () => 1_796_100_000_000 })
      const list = await svc.list('cline', TASK, { targetDir: mine.proj })
      expect(list.checkpoints.map((c) => c.ref)).toEqual(r.hashes)
      await svc.restore('cline', TASK, r.hashes[k]!, { targetDir: mine.proj })
    } finally {
      await library.close()
    }
    expect(snapshotDir(mine.proj)).toEqual(snapshotDir(ext.proj))
    // The state the checkpoint recorded, from the commit itself (not from either restore).
    const files = git(ext.proj, `--git-dir=${ext.shadow}`, 'ls-tree', '-r', '--name-only', r.hashes[k]!).split('\n').filter(Boolean).sort()
    expect([...snapshotDir(mine.proj).keys()].sort()).toEqual(files)
  })

  it('a file edited after the last checkpoint that no checkpoint changed: the extension\'s reset overwrites it, Sepia leaves it (its covered set)', async () => {
    const ext = copyOf(r, join(r.root, 'ext-late'))
    const mine = copyOf(r, join(r.root, 'sepia-late'))
    for (const p of [ext.proj, mine.proj]) writeFiles(p, { 'main.py': 'print("edited by hand later")\n' })
    git(ext.proj, `--git-dir=${ext.shadow}`, `--work-tree=${ext.proj}`, 'reset', '-q', '--hard', r.hashes[2]!)
    const library = await libraryFor([cline], [mine.home])
    try {
      const svc = createCheckpointService({ library, appDataDir: join(r.root, 'data-late'), now: () => 1_796_100_000_000 })
      await svc.restore('cline', TASK, r.hashes[2]!, { targetDir: mine.proj })
    } finally {
      await library.close()
    }
    expect(readFileSync(join(ext.proj, 'main.py'), 'utf8')).toBe('print("weather v2")\n')
    expect(readFileSync(join(mine.proj, 'main.py'), 'utf8')).toBe('print("edited by hand later")\n')
    const a = snapshotDir(ext.proj)
    const b = snapshotDir(mine.proj)
    a.delete('main.py')
    b.delete('main.py')
    expect(b).toEqual(a)
  })
})
