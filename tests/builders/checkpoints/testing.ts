/**
 * Test helpers for checkpoints: real git repositories made with the `git` command (tests only —
 * the app reads git with isomorphic-git), fixture projects rebuilt from their bundles, and byte
 * snapshots of folders to prove nothing else changed. Only imported by `*.test.ts` and the
 * real-CLI proof `resume/rewind.ts` (`libraryFor`).
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { LibraryService, type OpenHome } from '../../../src/main/library'
import type { AgentDefinition } from '../../../src/main/agents/types'
import { layoutForHome } from '../../../src/main/platform'

/** A fresh temp folder (real path). */
export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `sepia-cp-${prefix}-`)))
}

/** Remove a temp folder. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ana',
  GIT_AUTHOR_EMAIL: 'ana@example.com',
  GIT_COMMITTER_NAME: 'Ana',
  GIT_COMMITTER_EMAIL: 'ana@example.com',
  GIT_AUTHOR_DATE: '1796022100 +0000',
  GIT_COMMITTER_DATE: '1796022100 +0000',
}

/** Run git in `cwd` (tests only); resolves stdout trimmed. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'core.autocrlf=false', '-c', 'commit.gpgsign=false', ...args], { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
}

/** A new repository at `dir` with one commit of `files` (path → content). */
export function initRepo(dir: string, files: Record<string, string | Buffer>): string {
  mkdirSync(dir, { recursive: true })
  git(dir, 'init', '-q')
  writeFiles(dir, files)
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', 'Initial commit')
  return git(dir, 'rev-parse', 'HEAD')
}

/** Write files (path → content) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(dir, ...rel.split('/'))
    mkdirSync(dirname(p), { recursive: true })
    writeFileSync(p, content)
  }
}

/**
 * A Cline-style stash checkpoint of the dirty tree (`git stash create --include-untracked` would
 * need a newer git; this builds the same three-parent commit with plumbing): first parent HEAD,
 * second the index, third a commit of the untracked files. Writes ref
 * `refs/cline/checkpoints/<session>/<run>`. The working tree is left as it was.
 */
export function clineStash(dir: string, session: string, run: number): string {
  const head = git(dir, 'rev-parse', 'HEAD')
  const indexTree = git(dir, 'write-tree')
  const indexCommit = git(dir, 'commit-tree', indexTree, '-p', head, '-m', 'index on cline checkpoint')
  const untracked = git(dir, 'ls-files', '--others', '--exclude-standard', '-z').split('\0').filter(Boolean)
  const tmpIndex = join(dir, '.git', 'sepia-test-index')
  const env = { ...GIT_ENV, GIT_INDEX_FILE: tmpIndex }
  const run1 = (args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim()
  rmSync(tmpIndex, { force: true })
  const parents = ['-p', head, '-p', indexCommit]
  if (untracked.length) {
    run1(['update-index', '--add', '--', ...untracked])
    const utree = run1(['write-tree'])
    parents.push('-p', run1(['commit-tree', utree, '-m', 'untracked files on cline checkpoint']))
    rmSync(tmpIndex, { force: true })
  }
  // The working tree of tracked files: HEAD's index plus every tracked change.
  run1(['read-tree', 'HEAD'])
  run1(['add', '-u', '.'])
  const wtree = run1(['write-tree'])
  rmSync(tmpIndex, { force: true })
  const stash = git(dir, 'commit-tree', wtree, ...parents, '-m', `cline checkpoint session=${session} run=${run}`)
  git(dir, 'update-ref', `refs/cline/checkpoints/${session}/${run}`, stash)
  return stash
}

/** Rebuild a fixture project from its bundle (all refs, checkpoint refs included) at `dir`. */
export function projectFromBundle(bundle: string, dir: string): void {
  execFileSync('git', ['clone', '-q', bundle, dir], { env: GIT_ENV, stdio: 'ignore' })
  git(dir, 'fetch', '-q', bundle, 'refs/cline/*:refs/cline/*')
}

/** Every file under `dir` (`.git` included) → sha256 of its bytes (links: `link:<target>`). */
export function snapshotDir(dir: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name)
      const r = rel ? `${rel}/${name}` : name
      const st = lstatSync(p)
      if (st.isSymbolicLink()) out.set(r, `link:${readlinkSync(p)}`)
      else if (st.isDirectory()) walk(p, r)
      else out.set(r, `${(st.mode & 0o777).toString(8)}:${createHash('sha256').update(readFileSync(p)).digest('hex')}`)
    }
  }
  walk(dir, '')
  return out
}

/** A library over `homes` (`ownHome`: the first is the running user's own home). */
export async function libraryFor(agents: readonly AgentDefinition[], homes: string[], ownHome = false): Promise<LibraryService> {
  const open: OpenHome[] = []
  for (const [i, h] of homes.entries()) {
    const layout = await layoutForHome(ownHome && i === 0 ? { home: h, env: {}, isOwnHome: true, os: 'linux' } : { home: h })
    open.push({ layout, isDemo: false })
  }
  const lib = new LibraryService(open, agents, { now: () => 1_800_000_000_000 })
  await lib.load()
  return lib
}

/** One checkpoint entry as a Cline SDK manifest writes it (`metadata.checkpoint.history[]`). */
export interface ClineCp {
  ref: string
  kind: 'stash' | 'commit'
  runCount: number
  createdAt: number
}

/**
 * A Cline SDK session under `home` (manifest + messages, as `fixtures/real/cline` has them) whose
 * project is `cwd` and whose checkpoint log is `cps`; one user prompt per run.
 */
export function clineSdkHome(home: string, id: string, cwd: string, cps: ClineCp[]): void {
  const dir = join(home, '.cline', 'data', 'sessions', id)
  mkdirSync(dir, { recursive: true })
  const messagesPath = join(dir, `${id}.messages.json`)
  const messages = cps.map((c) => ({ id: `m${c.runCount}`, role: 'user', content: [{ type: 'text', text: `<user_input mode="act">prompt of run ${c.runCount}</user_input>` }], ts: c.createdAt - 50 }))
  writeFileSync(messagesPath, JSON.stringify({ version: 1, agent: 'lead', sessionId: id, messages }, null, 2))
  const checkpoint = cps.length ? { latest: cps[cps.length - 1], history: cps } : undefined
  const manifest = {
    version: 1, session_id: id, source: 'cli', started_at: new Date(cps[0]?.createdAt ?? 1796022100000).toISOString(), status: 'completed',
    cwd, workspace_root: cwd, prompt: 'prompt of run 1', metadata: { checkpoint, title: `session ${id}` }, messages_path: messagesPath,
  }
  writeFileSync(join(dir, `${id}.json`), JSON.stringify(manifest, null, 2))
}

/** A Claude Code record line. */
export type Rec = Record<string, unknown>

/**
 * A Claude Code session under `home`: `projects/<slug>/<id>.jsonl` with `records` and backups in
 * `file-history/<id>/` (name → bytes).
 */
export function claudeHome(home: string, id: string, cwd: string, records: Rec[], backups: Record<string, string | Buffer>): string {
  const slug = cwd.replace(/[^A-Za-z0-9]/g, '-')
  const file = join(home, '.claude', 'projects', slug, `${id}.jsonl`)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, records.map((r) => JSON.stringify({ sessionId: id, cwd, ...r })).join('\n') + '\n')
  const bdir = join(home, '.claude', 'file-history', id)
  mkdirSync(bdir, { recursive: true })
  for (const [name, content] of Object.entries(backups)) writeFileSync(join(bdir, name), content)
  return file
}

/** A Claude Code user prompt record. */
export function ccUser(uuid: string, parentUuid: string | null, text: string, at: string): Rec {
  return { type: 'user', uuid, parentUuid, timestamp: at, message: { role: 'user', content: text } }
}

/** A `file-history-snapshot` record. */
export function ccSnapshot(messageId: string, files: Record<string, [string | null, number]>, at: string): Rec {
  const tracked: Record<string, unknown> = {}
  for (const [p, [name, version]] of Object.entries(files)) tracked[p] = { backupFileName: name, version, backupTime: at }
  return { type: 'file-history-snapshot', messageId, snapshot: { messageId, trackedFileBackups: tracked, timestamp: at }, isSnapshotUpdate: false }
}

/** A `file-history-delta` record (Claude Code 2.1.332). */
export function ccDelta(messageId: string, snapshotMessageId: string, path: string, name: string | null, version: number, at: string): Rec {
  return { type: 'file-history-delta', messageId, snapshotMessageId, trackingPath: path, backup: { backupFileName: name, version, backupTime: at }, timestamp: at }
}
