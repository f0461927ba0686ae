/**
 * Issue 16, "After kill -9": a real `sepia` process (bin/sepia.mjs, the real convert / restore /
 * undo code) is stopped with SIGKILL at a fixed point of its write (the test-only pause hook
 * `SEPIA_TEST_PAUSE_AT`, src/main/util/write-journal.ts), then Sepia starts again (`sepia doctor`,
 * in process). Afterwards there is no `*.sepia-tmp-*` or other Sepia temp file, no orphan
 * `.sepia-backup-*` database, no restore folder without a finished manifest, and every target holds
 * either its old bytes or the new complete ones. Expected contents come from the fixture files and
 * from SQLite read directly, never from Sepia.
 */
import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findAppRoot } from '../src/main/context'
import { projectFromBundle, removeDir, tempDir } from './builders/checkpoints/testing'
import { runCli } from './helpers/cli-run'

const ROOT = findAppRoot()
const CC = join(ROOT, 'fixtures/real/claude-code/home')
const CLINE = join(ROOT, 'fixtures/real/cline/home')
const CODEX = join(ROOT, 'fixtures/real/codex/home')
const CC_SESSION = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
const CLINE_SESSION = '1796022183774_v75nv'
const dirs: string[] = []
let data: string
let home: string
const saved = process.env.SEPIA_DATA_DIR

beforeAll(() => {
  data = tempDir('kill-data')
  home = tempDir('kill-home')
  dirs.push(data, home)
  process.env.SEPIA_DATA_DIR = data
})
afterAll(() => {
  if (saved === undefined) delete process.env.SEPIA_DATA_DIR
  else process.env.SEPIA_DATA_DIR = saved
  dirs.forEach(removeDir)
})

/** Every file under `dir` (relative path -> sha256), links and folders left out. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) {
        if (e.name !== '.git') walk(p)
      } else if (e.isFile()) out.set(relative(dir, p), createHash('sha256').update(readFileSync(p)).digest('hex'))
    }
  }
  walk(dir)
  return out
}

/** Names Sepia gives temporary files and backups (each writer's own pattern). */
const LEFTOVER = /\.sepia-tmp|\.sepia-[0-9a-f]{8}\.tmp$|\.partial(\.d)?$|\.sepia-backup-/

function leftovers(dir: string): string[] {
  return [...snapshot(dir).keys()].filter((p) => LEFTOVER.test(p))
}

/** Restore folders that are not a finished record (no manifest, or still `writing`). */
function orphanRestores(): string[] {
  const root = join(data, 'restores')
  if (!existsSync(root)) return []
  return readdirSync(root).filter((name) => {
    const m = join(root, name, 'manifest.json')
    if (!existsSync(m)) return true
    return (JSON.parse(readFileSync(m, 'utf8')) as { state: string }).state === 'writing'
  })
}

/** Rows of a query on a copy of `db` (with its `-wal`), so reading leaves no side file in the store. */
function rows(db: string, sql: string): unknown[] {
  const dir = tempDir('kill-read')
  const copy = join(dir, 'copy.db')
  cpSync(db, copy)
  if (existsSync(`${db}-wal`)) cpSync(`${db}-wal`, `${copy}-wal`)
  const d = new Database(copy, { readonly: true, fileMustExist: true })
  try {
    return d.prepare(sql).all()
  } finally {
    d.close()
    removeDir(dir)
  }
}

/**
 * Run `sepia <args>` as a child process paused at `point`; once it is there, kill it with SIGKILL.
 * Resolves the pause marker's text. Fails when the process ends before reaching the point.
 */
async function killAt(point: string, args: string[]): Promise<string> {
  const marker = join(home, `pause-${Date.now()}-${Math.random().toString(16).slice(2)}`)
  const child = spawn(process.execPath, [join(ROOT, 'bin/sepia.mjs'), ...args], {
    env: { ...process.env, HOME: home, SEPIA_DATA_DIR: data, SEPIA_TEST_PAUSE_AT: point, SEPIA_TEST_PAUSE_FILE: marker },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (c) => (output += String(c)))
  child.stderr.on('data', (c) => (output += String(c)))
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)))
  let ended = false
  void exited.then(() => (ended = true))
  for (;;) {
    if (existsSync(marker) && readFileSync(marker, 'utf8') !== '') break
    if (ended) throw new Error(`sepia ${args.join(' ')} ended before ${point}:\n${output}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  child.kill('SIGKILL')
  await exited
  return readFileSync(marker, 'utf8')
}

/** Start Sepia again: `sepia doctor` opens the library, which recovers interrupted writes first. */
async function startAgain(homeDir: string): Promise<string> {
  const r = await runCli('doctor', '--home', homeDir)
  expect(r.code).toBe(0)
  return r.out
}

function journalLeft(): string[] {
  const j = join(data, 'write-jobs')
  return existsSync(j) ? readdirSync(j).filter((n) => /^\d+-[0-9a-f]{8}\.json$/.test(n)) : []
}

describe('issue 16: kill -9 in the middle of a write, then start again', () => {
  it.each([
    ['convert:sqlite-insert', 'the row inserted, transaction open'],
    ['convert:sqlite-backup', 'the database backed up, row not added'],
    ['convert:staged', 'the messages file at its temp name'],
  ])('convert into Cline sessions.db, killed at %s (%s)', async (point) => {
    const target = join(tempDir('kill-cline'), 'home')
    dirs.push(target)
    cpSync(CLINE, target, { recursive: true })
    const db = join(target, '.cline/data/db/sessions.db')
    const before = snapshot(target)
    const ids = rows(db, 'SELECT session_id FROM sessions ORDER BY session_id')
    expect(await killAt(point, ['convert', CC_SESSION, '--to', 'cline', '--home', CC, '--target-home', target])).toBe(`${point}@1`)
    expect(leftovers(target).length).toBeGreaterThan(0) // the kill left something behind

    const out = await startAgain(target)
    expect(out).toContain('Interrupted writes')
    expect(leftovers(target)).toEqual([])
    expect(journalLeft()).toEqual([])
    // The old bytes: the same rows and the same files as before (a rolled back transaction included).
    expect(rows(db, 'SELECT session_id FROM sessions ORDER BY session_id')).toEqual(ids)
    const after = snapshot(target)
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort())
    for (const [p, h] of before) if (p !== '.cline/data/db/sessions.db') expect(after.get(p), p).toBe(h)
  }, 120_000)

  it('convert into Cline killed after the row was committed: the new session is kept whole, with its backup', async () => {
    const target = join(tempDir('kill-cline-done'), 'home')
    dirs.push(target)
    cpSync(CLINE, target, { recursive: true })
    const db = join(target, '.cline/data/db/sessions.db')
    const ids = (rows(db, 'SELECT session_id FROM sessions') as { session_id: string }[]).map((r) => r.session_id)
    await killAt('convert:sqlite-added', ['convert', CC_SESSION, '--to', 'cline', '--home', CC, '--target-home', target])
    const out = await startAgain(target)
    expect(out).toContain('after the new session was complete')
    const now = rows(db, 'SELECT session_id, messages_path FROM sessions') as { session_id: string; messages_path: string }[]
    const added = now.filter((r) => !ids.includes(r.session_id))
    expect(added).toHaveLength(1)
    const messages = JSON.parse(readFileSync(added[0]!.messages_path, 'utf8')) as { messages: unknown[] }
    expect(messages.messages.length).toBeGreaterThan(0)
    expect(existsSync(join(target, '.cline/data/sessions', added[0]!.session_id, `${added[0]!.session_id}.json`))).toBe(true)
    // The backup of the replaced database is the one Sepia reports for a convert; it stays.
    expect(leftovers(target).filter((p) => !p.includes('sessions.db.sepia-backup-'))).toEqual([])
    expect(leftovers(target)).toHaveLength(1)
  }, 120_000)

  it('convert into Codex state_5.sqlite, killed after the backup: the backup goes, the rollout too', async () => {
    const target = join(tempDir('kill-codex'), 'home')
    dirs.push(target)
    cpSync(CODEX, target, { recursive: true })
    const db = join(target, '.codex/state_5.sqlite')
    expect(existsSync(db)).toBe(true)
    const before = snapshot(target)
    const ids = rows(db, 'SELECT id FROM threads ORDER BY id')
    await killAt('convert:sqlite-backup', ['convert', CC_SESSION, '--to', 'codex', '--home', CC, '--target-home', target])
    expect(leftovers(target).some((p) => p.includes('state_5.sqlite.sepia-backup-'))).toBe(true)

    await startAgain(target)
    expect(leftovers(target)).toEqual([])
    expect(rows(db, 'SELECT id FROM threads ORDER BY id')).toEqual(ids)
    expect([...snapshot(target).keys()].sort()).toEqual([...before.keys()].sort())
  }, 120_000)

  it('convert into Codex killed inside the insert, then converted again: the new session is complete', async () => {
    const target = join(tempDir('kill-codex2'), 'home')
    dirs.push(target)
    cpSync(CODEX, target, { recursive: true })
    const db = join(target, '.codex/state_5.sqlite')
    const ids = rows(db, 'SELECT id FROM threads ORDER BY id') as { id: string }[]
    await killAt('convert:sqlite-insert', ['convert', CC_SESSION, '--to', 'codex', '--home', CC, '--target-home', target])
    // The next start is the next convert itself: it recovers first, then writes the whole session.
    const r = await runCli('convert', CC_SESSION, '--to', 'codex', '--home', CC, '--target-home', target, '--json')
    expect(r.code).toBe(0)
    expect(r.err).toContain('Sepia stopped during a convert')
    const result = JSON.parse(r.out) as { sessionId: string; files: string[]; backups?: string[] }
    expect(leftovers(target).filter((p) => !(result.backups ?? []).some((b) => b.endsWith(p)))).toEqual([])
    const now = rows(db, 'SELECT id, rollout_path FROM threads ORDER BY id') as { id: string; rollout_path: string }[]
    expect(now.map((t) => t.id)).toEqual([...ids.map((t) => t.id), result.sessionId].sort())
    const rollout = now.find((t) => t.id === result.sessionId)!.rollout_path
    const lines = readFileSync(rollout, 'utf8').trimEnd().split('\n')
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'session_meta' })
    for (const l of lines) JSON.parse(l) // every line whole
    // Only the one rollout of the finished convert was added.
    const rollouts = [...snapshot(target).keys()].filter((p) => /rollout-.*\.jsonl$/.test(p))
    expect(rollouts.filter((p) => rollout.endsWith(p))).toHaveLength(1)
  }, 120_000)

  it.each(['convert:staged', 'convert:renamed'])('a JSONL convert (Claude Code) killed at %s leaves the store as it was', async (point) => {
    const target = tempDir('kill-claude')
    dirs.push(target)
    writeFileSync(join(target, '.keep'), '')
    const before = snapshot(target)
    await killAt(point, ['convert', CLINE_SESSION, '--to', 'claude-code', '--home', CLINE, '--target-home', target])
    expect(snapshot(target).size).toBeGreaterThan(before.size)
    await startAgain(target)
    expect(snapshot(target)).toEqual(before)
    expect(readdirSync(target)).toEqual(['.keep']) // the folders it made are gone too
  }, 120_000)

  describe('checkpoint restore and undo', () => {
    let proj: string
    let original: Map<string, string>
    const restore = () => ['restore', CLINE_SESSION, '4a8248dd', '--to', proj, '--home', CLINE]

    beforeAll(() => {
      const root = tempDir('kill-proj')
      dirs.push(root)
      proj = join(root, 'invoice-service')
      projectFromBundle(join(ROOT, 'fixtures/real/cline/project.bundle'), proj)
      writeFileSync(join(proj, 'Makefile'), 'changed since\n')
      writeFileSync(join(proj, 'NOTES.md'), 'later\n')
      original = snapshot(proj)
    })

    it('killed while backing up: no orphan restore folder, the project unchanged', async () => {
      await killAt('restore:backup@1', restore())
      expect(orphanRestores().length).toBe(1)
      await startAgain(CLINE)
      expect(orphanRestores()).toEqual([])
      expect(snapshot(proj)).toEqual(original)
    }, 120_000)

    it('killed after the first file was written: the restore is put back', async () => {
      await killAt('restore:written@1', restore())
      const mid = snapshot(proj)
      expect(mid).not.toEqual(original) // one file already restored
      await startAgain(CLINE)
      expect(snapshot(proj)).toEqual(original)
      expect(orphanRestores()).toEqual([])
      expect(leftovers(proj)).toEqual([])
    }, 120_000)

    it('killed with a temp file in the project: it is removed', async () => {
      await killAt('restore:temp@1', restore())
      expect(leftovers(proj).length).toBe(1)
      await startAgain(CLINE)
      expect(leftovers(proj)).toEqual([])
      expect(snapshot(proj)).toEqual(original)
      expect(orphanRestores()).toEqual([])
    }, 120_000)

    it('undo killed with its temp file in the project: the temp goes and the undo is finished', async () => {
      const r = await runCli(...restore(), '--json')
      expect(r.code).toBe(0)
      const { restoreId, written } = JSON.parse(r.out) as { restoreId: string; written: string[] }
      expect(written.length).toBeGreaterThan(0)
      const restored = snapshot(proj)
      await killAt('undo:temp@1', ['undo-restore', restoreId])
      expect(leftovers(proj).length).toBe(1)
      const mid = snapshot(proj)
      for (const [p, h] of mid) if (!LEFTOVER.test(p)) expect(h).toBe(restored.get(p)) // nothing replaced yet
      const out = await startAgain(CLINE)
      expect(out).toContain('finished the undo')
      expect(leftovers(proj)).toEqual([])
      expect(snapshot(proj)).toEqual(original)
      const m = JSON.parse(readFileSync(join(data, 'restores', restoreId, 'manifest.json'), 'utf8')) as { state: string }
      expect(m.state).toBe('undone')
      expect(journalLeft()).toEqual([])
    }, 120_000)
  })

  it('the journal is private: folder 0700, job files 0600 while a job runs', async () => {
    const target = tempDir('kill-mode')
    dirs.push(target)
    await killAt('convert:staged', ['convert', CLINE_SESSION, '--to', 'claude-code', '--home', CLINE, '--target-home', target])
    const j = join(data, 'write-jobs')
    expect(lstatSync(j).mode & 0o777).toBe(0o700)
    const files = journalLeft()
    expect(files).toHaveLength(1)
    expect(lstatSync(join(j, files[0]!)).mode & 0o777).toBe(0o600)
    const job = JSON.parse(readFileSync(join(j, files[0]!), 'utf8')) as { kind: string; entries: { type: string }[]; startedAt: number }
    expect(job.kind).toBe('convert')
    expect(job.entries.map((e) => e.type)).toEqual(expect.arrayContaining(['temp', 'created', 'dir']))
    await startAgain(CC)
    expect(journalLeft()).toEqual([])
  }, 120_000)
})
