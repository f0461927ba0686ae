/**
 * The archive (issue 19): copies of the session files of the user's own home, kept in
 * `<appDataDir>/archive/` so that a session the agent deletes (Claude Code's `cleanupPeriodDays`,
 * an update that empties a list) stays in the library and can be put back.
 *
 * - `blobs/`: content-addressed, append-only, gzip chunks ({@link BlobStore}).
 * - `archive.sqlite`: the index (better-sqlite3). `versions`: one row per archived version of a
 *   file (path, source size and mtime, sha256 of the bytes kept, archived-at); `chunks`: the blobs
 *   of each version in order; `members`: which session holds which version of which file;
 *   `sessions`: each archived session's StoreRef (as discovery found it) and when its source was
 *   seen gone; `blobs`: bytes on disk per blob (for the size cap).
 * - `settings.json`: {@link ArchiveSettings}.
 *
 * Sources are never written: a plain file is read; a SQLite store is copied as a consistent
 * snapshot with SQLite's online backup API from a read-only connection (better-sqlite3
 * `backup()`, sqlite.org/backup.html) into `tmp/` of the archive, or — for a database in WAL mode,
 * whose opening creates `-shm` and `-wal` files beside it even read-only — from a copy of the
 * database and its WAL made in `tmp/` first. Every write of the archive is inside its folder.
 *
 * Size cap: after each pass, versions that are not the latest of their session are removed oldest
 * first until the stored bytes fit; a new version that still does not fit is not kept (counted
 * in `skippedForCap`). The latest version of a session is never removed by the cap, so a session
 * whose source is gone keeps its last copy.
 */
import Database from 'better-sqlite3'
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, open, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, sep } from 'node:path'
import type { ArchiveSettings, ArchiveStatus, PruneResult } from '../../shared/archive'
import type { AgentId } from '../../shared/ir'
import type { StoreRef } from '../agents/types'
import { BlobStore, sha256 } from './blobs'

/** Default size cap of the stored copies: 5 GiB. */
export const DEFAULT_CAP_BYTES = 5 * 1024 ** 3

/** The settings before the user answered the first-start question. */
export function defaultArchiveSettings(): ArchiveSettings {
  return { enabled: false, answered: false, capBytes: DEFAULT_CAP_BYTES, excludedAgents: [], excludedProjects: [] }
}

const DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS blobs (hash TEXT PRIMARY KEY, raw INTEGER NOT NULL, stored INTEGER NOT NULL, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS versions (
  vid INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  src_size INTEGER NOT NULL,
  src_mtime_ms REAL NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  kind TEXT NOT NULL,
  archived_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS versions_path ON versions(path, vid);
CREATE TABLE IF NOT EXISTS chunks (vid INTEGER NOT NULL, seq INTEGER NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (vid, seq)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS chunks_hash ON chunks(hash);
CREATE TABLE IF NOT EXISTS members (home TEXT NOT NULL, agent TEXT NOT NULL, session_id TEXT NOT NULL, path TEXT NOT NULL, vid INTEGER NOT NULL, PRIMARY KEY (home, agent, session_id, path, vid)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS members_vid ON members(vid);
CREATE TABLE IF NOT EXISTS sessions (
  home TEXT NOT NULL, agent TEXT NOT NULL, session_id TEXT NOT NULL,
  ref TEXT NOT NULL, first_at INTEGER NOT NULL, last_at INTEGER NOT NULL, gone_at INTEGER,
  PRIMARY KEY (home, agent, session_id)
) WITHOUT ROWID;
`

/** One archived file of a session (its latest version). */
export interface ArchivedFile {
  path: string
  vid: number
  /** Bytes of the kept copy. */
  size: number
  sha256: string
  /** `file` (the bytes as read) or `sqlite` (a backup-API snapshot). */
  kind: 'file' | 'sqlite'
  /** Size and mtime (ms since epoch) of the source when it was copied. */
  srcSize: number
  srcMtimeMs: number
  archivedAt: number
}

/** One archived session. */
export interface ArchivedSession {
  home: string
  agent: AgentId
  sessionId: string
  /** The StoreRef discovery found when it was last archived. */
  ref: StoreRef
  firstAt: number
  lastAt: number
  /** When its source was seen missing (ms since epoch), else undefined. */
  goneAt?: number
}

/** A ref to archive, with the project folder the catalog knows for it (for exclusions). */
export interface ArchiveItem {
  ref: StoreRef
  project?: string
  /** More files copied with the session (an index database its agent lists it from). */
  extraFiles?: string[]
}

/** What one {@link Archive.archive} pass did. */
export interface ArchivePassResult {
  /** Versions stored (new content). */
  stored: number
  /** Files unchanged since their last copy. */
  unchanged: number
  /** Versions not kept because of the cap. */
  skippedForCap: number
  /** Files that could not be copied, with why. */
  failed: { path: string; message: string }[]
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\u0000', 'latin1')

/** `undefined` for a file that is not SQLite; else whether its header says WAL mode (bytes 18-19 = 2, sqlite.org/fileformat.html). */
async function sqliteMode(path: string): Promise<'wal' | 'rollback' | undefined> {
  // The header is read only for names that could be databases.
  if (!/\.(db|sqlite|sqlite3|vscdb)$/i.test(path)) return undefined
  const fh = await open(path, 'r')
  try {
    const head = Buffer.alloc(20)
    await fh.read(head, 0, 20, 0)
    if (!head.subarray(0, 16).equals(SQLITE_MAGIC)) return undefined
    return head[18] === 2 || head[19] === 2 ? 'wal' : 'rollback'
  } finally {
    await fh.close()
  }
}

/** Replace the `from` prefix of every path string inside `value` by `to` (deep copy). */
export function rebasePaths<T>(value: T, from: string, to: string): T {
  const fix = (v: unknown): unknown => {
    if (typeof v === 'string') return v === from || v.startsWith(from + sep) || v.startsWith(from + '/') ? to + v.slice(from.length) : v
    if (Array.isArray(v)) return v.map(fix)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fix(x)]))
    return v
  }
  return fix(value) as T
}

/** The archive of one data folder. */
export class Archive {
  readonly dir: string
  readonly blobs: BlobStore
  private db: Database.Database | undefined
  private lastSkipped = 0

  /** `appDataDir`: Sepia's data folder; the archive lives in its `archive/` folder. */
  constructor(
    appDataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.dir = join(appDataDir, 'archive')
    this.blobs = new BlobStore(join(this.dir, 'blobs'))
  }

  private open(): Database.Database {
    if (this.db) return this.db
    const dbPath = join(this.dir, 'archive.sqlite')
    if (!existsSync(this.dir)) {
      // Created on first use only: a machine that never turned the archive on has no archive folder.
      mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    }
    const db = new Database(dbPath, { timeout: 10_000 })
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.exec(DDL)
    this.db = db
    return db
  }

  /** True when the archive folder holds an index (the archive was used once). */
  get exists(): boolean {
    return existsSync(join(this.dir, 'archive.sqlite'))
  }

  // ---- settings ----------------------------------------------------------------------------

  /** The settings (defaults when never saved or unreadable). */
  settings(): ArchiveSettings {
    const d = defaultArchiveSettings()
    try {
      const s = JSON.parse(readFileSync(join(this.dir, 'settings.json'), 'utf8')) as Partial<ArchiveSettings>
      return {
        enabled: s.enabled === true,
        answered: s.answered === true,
        capBytes: typeof s.capBytes === 'number' && s.capBytes > 0 ? s.capBytes : d.capBytes,
        excludedAgents: Array.isArray(s.excludedAgents) ? s.excludedAgents.filter((a) => typeof a === 'string') : [],
        excludedProjects: Array.isArray(s.excludedProjects) ? s.excludedProjects.filter((a) => typeof a === 'string') : [],
      }
    } catch {
      return d
    }
  }

  /** Save settings (merged over the current ones); answering the question sets `answered`. Returns them. */
  async setSettings(patch: Partial<ArchiveSettings>): Promise<ArchiveSettings> {
    const next: ArchiveSettings = { ...this.settings(), ...patch }
    if (patch.enabled !== undefined) next.answered = true
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    const file = join(this.dir, 'settings.json')
    await writeFile(`${file}.tmp`, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 })
    await rename(`${file}.tmp`, file)
    return next
  }

  /** True when a session of `agent` in `project` may be archived under the settings. */
  allows(agent: AgentId, project: string | undefined, s: ArchiveSettings = this.settings()): boolean {
    if (s.excludedAgents.includes(agent)) return false
    if (project) for (const p of s.excludedProjects) if (project === p || project.startsWith(p.endsWith(sep) || p.endsWith('/') ? p : p + sep) || project.startsWith(p + '/')) return false
    return true
  }

  // ---- archiving ---------------------------------------------------------------------------

  /**
   * Copy the files of `items` whose size or mtime changed since their last copy (all of them the
   * first time), then apply the cap. Files shared by several sessions (a Cline `sessions.db`) are
   * copied once per pass. A file that vanished or cannot be read is reported and skipped.
   */
  async archive(items: readonly ArchiveItem[]): Promise<ArchivePassResult> {
    const s = this.settings()
    const result: ArchivePassResult = { stored: 0, unchanged: 0, skippedForCap: 0, failed: [] }
    const db = this.open()
    const pass = new Map<string, number>() // path -> vid copied (or found unchanged) in this pass
    const added: number[] = []
    const latestOfPath = db.prepare('SELECT vid, src_size, src_mtime_ms FROM versions WHERE path = ? ORDER BY vid DESC LIMIT 1')
    const addMember = db.prepare('INSERT OR IGNORE INTO members (home, agent, session_id, path, vid) VALUES (?, ?, ?, ?, ?)')
    const sessionRow = db.prepare('SELECT gone_at, ref FROM sessions WHERE home = ? AND agent = ? AND session_id = ?')
    const isMember = db.prepare('SELECT 1 FROM members WHERE home = ? AND agent = ? AND session_id = ? AND path = ? AND vid = ?')
    const writes: { ref: StoreRef; vids: [string, number][] }[] = []
    const upsertSession = db.prepare(
      `INSERT INTO sessions (home, agent, session_id, ref, first_at, last_at, gone_at) VALUES (?, ?, ?, ?, ?, ?, NULL)
       ON CONFLICT(home, agent, session_id) DO UPDATE SET ref = excluded.ref, last_at = excluded.last_at, gone_at = NULL`,
    )
    for (const { ref, project, extraFiles } of items) {
      if (!this.allows(ref.agent, project, s)) continue
      const vids: [string, number][] = []
      for (const path of new Set([...ref.files, ...(extraFiles ?? [])])) {
        let vid = pass.get(path)
        if (vid === undefined) {
          try {
            const st = statSync(path)
            const last = latestOfPath.get(path) as { vid: number; src_size: number; src_mtime_ms: number } | undefined
            if (last && last.src_size === st.size && last.src_mtime_ms === st.mtimeMs) {
              vid = last.vid
              result.unchanged++
            } else {
              vid = await this.storeVersion(path, st.size, st.mtimeMs)
              added.push(vid)
              result.stored++
            }
            pass.set(path, vid)
          } catch (e) {
            result.failed.push({ path, message: e instanceof Error ? e.message : String(e) })
            continue
          }
        }
        vids.push([path, vid])
      }
      if (vids.length === 0) continue
      // Nothing new for this session (the common case of a refresh): no write at all.
      const known = sessionRow.get(ref.home, ref.agent, ref.sessionId) as { gone_at: number | null; ref: string } | undefined
      if (known && known.gone_at === null && known.ref === JSON.stringify(ref) && vids.every(([path, vid]) => isMember.get(ref.home, ref.agent, ref.sessionId, path, vid))) continue
      writes.push({ ref, vids })
    }
    if (writes.length > 0) {
      const at = this.now()
      db.transaction(() => {
        for (const { ref, vids } of writes) {
          for (const [path, vid] of vids) addMember.run(ref.home, ref.agent, ref.sessionId, path, vid)
          upsertSession.run(ref.home, ref.agent, ref.sessionId, JSON.stringify(ref), at, at)
        }
      })()
    }
    // The cap: older versions first, then the new ones that still do not fit.
    if (this.storedBytes() > s.capBytes) {
      await this.prune(s.capBytes)
      for (let i = added.length - 1; i >= 0 && this.storedBytes() > s.capBytes; i--) {
        if (await this.dropVersion(added[i]!, true)) {
          result.skippedForCap++
          result.stored--
        }
      }
    }
    this.lastSkipped = result.skippedForCap
    this.setMeta('skippedForCap', String(result.skippedForCap))
    return result
  }

  /** Copy one file (or a snapshot of a SQLite store) into the blobs; returns the new version's id. */
  private async storeVersion(path: string, srcSize: number, srcMtimeMs: number): Promise<number> {
    const mode = await sqliteMode(path).catch(() => undefined)
    const sqlite = mode !== undefined
    const bytes = mode ? await this.snapshot(path, mode === 'wal') : await readFile(path)
    const chunks = await this.blobs.putFile(bytes)
    const db = this.open()
    const at = this.now()
    return db.transaction(() => {
      const insBlob = db.prepare('INSERT OR IGNORE INTO blobs (hash, raw, stored, at) VALUES (?, ?, ?, ?)')
      for (const c of chunks) if (c.added > 0 || !db.prepare('SELECT 1 FROM blobs WHERE hash = ?').get(c.hash)) insBlob.run(c.hash, c.raw, c.added, at)
      const vid = Number(
        db.prepare('INSERT INTO versions (path, src_size, src_mtime_ms, size, sha256, kind, archived_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(path, srcSize, srcMtimeMs, bytes.length, sha256(bytes), sqlite ? 'sqlite' : 'file', at).lastInsertRowid,
      )
      const insChunk = db.prepare('INSERT INTO chunks (vid, seq, hash) VALUES (?, ?, ?)')
      chunks.forEach((c, i) => insChunk.run(vid, i, c.hash))
      return vid
    })()
  }

  /** A consistent copy of a SQLite store's bytes, made without writing beside the source. */
  private async snapshot(path: string, wal: boolean): Promise<Buffer> {
    const tmpRoot = join(this.dir, 'tmp')
    await mkdir(tmpRoot, { recursive: true, mode: 0o700 })
    const dir = await mkdtemp(join(tmpRoot, 'snap-'))
    try {
      let from = path
      if (wal || existsSync(`${path}-wal`)) {
        // Opening a WAL database creates its -shm and -wal beside it, even read-only: copy first.
        from = join(dir, 'source.db')
        await copyFile(path, from)
        await copyFile(`${path}-wal`, `${from}-wal`).catch(() => undefined)
      }
      const out = join(dir, 'snapshot.db')
      const src = new Database(from, { readonly: from === path, fileMustExist: true })
      try {
        await src.backup(out)
      } finally {
        src.close()
      }
      return await readFile(out)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  // ---- reading -----------------------------------------------------------------------------

  /** The archived session, or undefined. */
  session(home: string, agent: AgentId, sessionId: string): ArchivedSession | undefined {
    if (!this.exists) return undefined
    const r = this.open().prepare('SELECT * FROM sessions WHERE home = ? AND agent = ? AND session_id = ?').get(home, agent, sessionId) as
      | { home: string; agent: string; session_id: string; ref: string; first_at: number; last_at: number; gone_at: number | null }
      | undefined
    if (!r) return undefined
    const out: ArchivedSession = { home: r.home, agent: r.agent as AgentId, sessionId: r.session_id, ref: JSON.parse(r.ref) as StoreRef, firstAt: r.first_at, lastAt: r.last_at }
    if (r.gone_at !== null) out.goneAt = r.gone_at
    return out
  }

  /** Every archived session under `home` (for one agent when given). */
  sessions(home: string, agent?: AgentId): ArchivedSession[] {
    if (!this.exists) return []
    const rows = (agent ? this.open().prepare('SELECT home, agent, session_id FROM sessions WHERE home = ? AND agent = ?').all(home, agent) : this.open().prepare('SELECT home, agent, session_id FROM sessions WHERE home = ?').all(home)) as {
      home: string
      agent: string
      session_id: string
    }[]
    return rows.map((r) => this.session(r.home, r.agent as AgentId, r.session_id)!).filter(Boolean)
  }

  /** Record that the session's source is gone (first time only). Returns the time recorded. */
  markGone(home: string, agent: AgentId, sessionId: string): number | undefined {
    const db = this.open()
    db.prepare('UPDATE sessions SET gone_at = ? WHERE home = ? AND agent = ? AND session_id = ? AND gone_at IS NULL').run(this.now(), home, agent, sessionId)
    return this.session(home, agent, sessionId)?.goneAt
  }

  /** The latest archived version of one file of a session (also an extra file), or undefined. */
  latestOf(home: string, agent: AgentId, sessionId: string, path: string): ArchivedFile | undefined {
    if (!this.exists) return undefined
    const v = this.open()
      .prepare(`SELECT v.* FROM versions v WHERE v.vid = (SELECT max(m.vid) FROM members m WHERE m.home = ? AND m.agent = ? AND m.session_id = ? AND m.path = ?)`)
      .get(home, agent, sessionId, path) as { vid: number; path: string; src_size: number; src_mtime_ms: number; size: number; sha256: string; kind: string; archived_at: number } | undefined
    return v && { path: v.path, vid: v.vid, size: v.size, sha256: v.sha256, kind: v.kind === 'sqlite' ? 'sqlite' : 'file', srcSize: v.src_size, srcMtimeMs: v.src_mtime_ms, archivedAt: v.archived_at }
  }

  /** Write one version to a new temporary file inside the archive; returns its path (the caller removes its folder). */
  async extractVersion(vid: number, name: string): Promise<string> {
    const tmpRoot = join(this.dir, 'tmp')
    await mkdir(tmpRoot, { recursive: true, mode: 0o700 })
    const dir = await mkdtemp(join(tmpRoot, 'version-'))
    const out = join(dir, name)
    await writeFile(out, await this.readVersion(vid))
    return out
  }

  /** The latest archived version of each file of the session's last ref (files never copied are left out). */
  latestFiles(home: string, agent: AgentId, sessionId: string): ArchivedFile[] {
    const s = this.session(home, agent, sessionId)
    if (!s) return []
    return s.ref.files.map((p) => this.latestOf(home, agent, sessionId, p)).filter((f): f is ArchivedFile => f !== undefined)
  }

  /** True when the file's current size and mtime are those of the session's latest copy of it. */
  isCurrent(home: string, agent: AgentId, sessionId: string, path: string, size: number, mtimeMs: number): boolean {
    if (!this.exists) return false
    const v = this.open()
      .prepare(`SELECT v.src_size, v.src_mtime_ms FROM versions v WHERE v.vid = (SELECT max(m.vid) FROM members m WHERE m.home = ? AND m.agent = ? AND m.session_id = ? AND m.path = ?)`)
      .get(home, agent, sessionId, path) as { src_size: number; src_mtime_ms: number } | undefined
    return v !== undefined && v.src_size === size && v.src_mtime_ms === mtimeMs
  }

  /** The bytes of one version; throws when a chunk is missing or damaged. */
  async readVersion(vid: number): Promise<Buffer> {
    const db = this.open()
    const v = db.prepare('SELECT size, sha256 FROM versions WHERE vid = ?').get(vid) as { size: number; sha256: string } | undefined
    if (!v) throw new Error(`No archived version ${vid}.`)
    const hashes = (db.prepare('SELECT hash FROM chunks WHERE vid = ? ORDER BY seq').all(vid) as { hash: string }[]).map((r) => r.hash)
    const parts: Buffer[] = []
    for (const h of hashes) parts.push(await this.blobs.get(h))
    const bytes = Buffer.concat(parts)
    if (bytes.length !== v.size || sha256(bytes) !== v.sha256) throw new Error(`The archived copy ${vid} is damaged.`)
    return bytes
  }

  /**
   * Write the latest archived files of a session into a new folder under `<archive>/tmp/` (their
   * paths relative to the home kept) and return that folder with the session's ref rebased onto it,
   * for a reader. The caller removes the folder (`rm(dir, {recursive: true})`).
   */
  async extract(home: string, agent: AgentId, sessionId: string): Promise<{ dir: string; ref: StoreRef }> {
    const s = this.session(home, agent, sessionId)
    if (!s) throw new Error(`The session ${sessionId} is not in the archive.`)
    const tmpRoot = join(this.dir, 'tmp')
    await mkdir(tmpRoot, { recursive: true, mode: 0o700 })
    const dir = await mkdtemp(join(tmpRoot, 'read-'))
    try {
      const files = this.latestFiles(home, agent, sessionId)
      const rel = (p: string): string => {
        const r = relative(home, p)
        return r.startsWith('..') || isAbsolute(r) ? join('outside', sha256(Buffer.from(p)).slice(0, 16), p.replace(/^.*[\\/]/, '')) : r
      }
      for (const f of files) {
        const target = join(dir, rel(f.path))
        await mkdir(dirname(target), { recursive: true })
        await writeFile(target, await this.readVersion(f.vid))
      }
      const ref = rebasePaths(s.ref, home, dir)
      ref.files = s.ref.files.filter((p) => files.some((f) => f.path === p)).map((p) => join(dir, rel(p)))
      ref.home = dir
      return { dir, ref }
    } catch (e) {
      await rm(dir, { recursive: true, force: true })
      throw e
    }
  }

  // ---- size and pruning --------------------------------------------------------------------

  /** Bytes on disk of every blob. */
  storedBytes(): number {
    if (!this.exists) return 0
    return (this.open().prepare('SELECT coalesce(sum(stored), 0) AS n FROM blobs').get() as { n: number }).n
  }

  /**
   * Remove versions that are not the latest of any of their sessions, oldest first, until the stored
   * bytes are at most `capBytes` (all such versions when `capBytes` is 0). Blobs no version uses any
   * more are deleted. The latest version of every session stays.
   */
  async prune(capBytes = this.settings().capBytes): Promise<PruneResult> {
    const before = this.storedBytes()
    let removed = 0
    if (this.exists) {
      const db = this.open()
      const latest = new Set((db.prepare('SELECT max(vid) AS vid FROM members GROUP BY home, agent, session_id, path').all() as { vid: number }[]).map((r) => r.vid))
      const old = (db.prepare('SELECT vid FROM versions ORDER BY archived_at, vid').all() as { vid: number }[]).map((r) => r.vid).filter((v) => !latest.has(v))
      for (const vid of old) {
        if (capBytes > 0 && this.storedBytes() <= capBytes) break
        if (await this.dropVersion(vid, false)) removed++
      }
    }
    const after = this.storedBytes()
    return { removedVersions: removed, freedBytes: before - after, storedBytes: after }
  }

  /** Remove one version and the blobs only it used. `evenLatest`: also when it is a session's latest. */
  private async dropVersion(vid: number, evenLatest: boolean): Promise<boolean> {
    const db = this.open()
    if (!evenLatest) {
      const isLatest = db.prepare('SELECT 1 FROM members m WHERE m.vid = ? AND m.vid = (SELECT max(vid) FROM members x WHERE x.home = m.home AND x.agent = m.agent AND x.session_id = m.session_id AND x.path = m.path)').get(vid)
      if (isLatest) return false
    }
    const hashes = (db.prepare('SELECT hash FROM chunks WHERE vid = ?').all(vid) as { hash: string }[]).map((r) => r.hash)
    const orphans: string[] = []
    db.transaction(() => {
      db.prepare('DELETE FROM members WHERE vid = ?').run(vid)
      db.prepare('DELETE FROM chunks WHERE vid = ?').run(vid)
      db.prepare('DELETE FROM versions WHERE vid = ?').run(vid)
      for (const h of new Set(hashes)) {
        if (!db.prepare('SELECT 1 FROM chunks WHERE hash = ? LIMIT 1').get(h)) {
          db.prepare('DELETE FROM blobs WHERE hash = ?').run(h)
          orphans.push(h)
        }
      }
      // A session left without any version is no longer archived.
      db.prepare('DELETE FROM sessions WHERE NOT EXISTS (SELECT 1 FROM members m WHERE m.home = sessions.home AND m.agent = sessions.agent AND m.session_id = sessions.session_id)').run()
    })()
    for (const h of orphans) await this.blobs.remove(h)
    return true
  }

  private setMeta(key: string, value: string): void {
    this.open().prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value)
  }

  /** Size and counts (see {@link ArchiveStatus}); `sourceBytes` and `ownHomeOpen` are the caller's. */
  status(): ArchiveStatus {
    const settings = this.settings()
    if (!this.exists) return { settings, dir: this.dir, storedBytes: 0, rawBytes: 0, versions: 0, sessions: 0, goneSessions: 0, skippedForCap: 0, ownHomeOpen: false }
    const db = this.open()
    const one = (sql: string): number => (db.prepare(sql).get() as { n: number }).n
    const skipped = db.prepare(`SELECT value FROM meta WHERE key = 'skippedForCap'`).get() as { value: string } | undefined
    return {
      settings,
      dir: this.dir,
      storedBytes: this.storedBytes(),
      rawBytes: one('SELECT coalesce(sum(size), 0) AS n FROM versions'),
      versions: one('SELECT count(*) AS n FROM versions'),
      sessions: one('SELECT count(*) AS n FROM sessions'),
      goneSessions: one('SELECT count(*) AS n FROM sessions WHERE gone_at IS NOT NULL'),
      skippedForCap: skipped ? Number(skipped.value) : this.lastSkipped,
      ownHomeOpen: false,
    }
  }

  /** Close the index. */
  close(): void {
    this.db?.close()
    this.db = undefined
  }
}
