/**
 * Live updates: watch the folders the open homes' sessions live in (`fs.watch`, one watcher per
 * folder, not recursive) and call back, debounced, when anything in them changes. The callback
 * runs an incremental catalog refresh; the renderer learns of the result by polling
 * `getChanges(token)` (the transports are request/response).
 *
 * Watched: the folder of every session file and its parent (a new session file appears in an
 * existing project folder; a new project folder appears beside the others), plus the agents'
 * store roots that exist (so the first session of an agent in a home is seen). Above
 * `maxWatchers` folders ({@link defaultMaxWatchers}), or where `fs.watch` fails, a periodic poll (`pollMs`) takes over.
 */
import { existsSync, readFileSync, watch, type FSWatcher } from 'node:fs'
import { dirname, join } from 'node:path'
import type { CatalogSession } from '../catalog/store'
import type { OpenHome } from '../catalog/refresh'

/** Options of {@link LiveWatcher}. */
export interface LiveOptions {
  /** Quiet time after the last change before the callback runs. Default 500 ms. */
  debounceMs?: number
  /** Poll interval when watching is impossible or capped; 0 disables. Default 30 s. */
  pollMs?: number
  /** Most folders watched at once. Default {@link defaultMaxWatchers}. */
  maxWatchers?: number
}

/**
 * The default cap on watched folders. On Linux each folder is one inotify watch, and the user's
 * limit is `/proc/sys/fs/inotify/max_user_watches` (shared by every process of the user; 8,192 on
 * old kernels, up to ~1M by RAM since Linux 5.11): a quarter of it, at most 100,000 and never less
 * than the former fixed 4,000, leaves the rest to other programs. Elsewhere (or when the limit
 * cannot be read) 4,000. Above the cap the
 * watcher falls back to a full refresh every `pollMs`, which at 10,000 sessions kept a core
 * ~12% busy while idle (issue 15, BENCHMARKS.md) — one folder per Cline session passed 4,000.
 * `limitText` is the content of that file (for tests); `platform` defaults to this process's.
 */
export function defaultMaxWatchers(platform: NodeJS.Platform = process.platform, limitText?: string): number {
  if (platform !== 'linux') return 4000
  let text = limitText
  if (text === undefined) {
    try {
      text = readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8')
    } catch {
      return 4000
    }
  }
  const limit = Number(text.trim())
  if (!Number.isInteger(limit) || limit <= 0) return 4000
  return Math.max(4000, Math.min(100_000, Math.floor(limit / 4)))
}

/**
 * Folders to watch for the open homes: the folders of the listed sessions' files and their
 * parents, and the store roots of the agents that have a fixed one (Claude Code `projects/`,
 * Codex `sessions/`, Cline `sessions/` and `tasks/`) when they exist.
 */
export function watchRoots(homes: readonly OpenHome[], sessions: readonly CatalogSession[]): string[] {
  const dirs = new Set<string>()
  for (const h of homes) {
    const l = h.layout
    for (const d of [join(l.claudeConfigDir, 'projects'), join(l.codexHome, 'sessions'), join(l.clineDataDir, 'sessions'), join(l.clineDataDir, 'tasks')]) {
      if (existsSync(d)) dirs.add(d)
    }
  }
  for (const s of sessions) {
    for (const f of s.ref.files ?? []) {
      const d = dirname(f)
      dirs.add(d)
      dirs.add(dirname(d))
    }
  }
  return [...dirs].sort()
}

/** Debounced folder watcher. */
export class LiveWatcher {
  private watchers = new Map<string, FSWatcher>()
  private timer: NodeJS.Timeout | undefined
  private poll: NodeJS.Timeout | undefined
  private closed = false
  private readonly debounceMs: number
  private readonly pollMs: number
  private readonly maxWatchers: number

  constructor(private readonly onChange: () => void, options: LiveOptions = {}) {
    this.debounceMs = options.debounceMs ?? 500
    this.pollMs = options.pollMs ?? 30_000
    this.maxWatchers = options.maxWatchers ?? defaultMaxWatchers()
  }

  /** Folders watched now. */
  get watched(): string[] {
    return [...this.watchers.keys()]
  }

  /** Watch exactly `dirs` (adds new ones, drops the rest). */
  watch(dirs: readonly string[]): void {
    if (this.closed) return
    const want = new Set(dirs.slice(0, this.maxWatchers))
    for (const [d, w] of this.watchers) {
      if (!want.has(d)) {
        w.close()
        this.watchers.delete(d)
      }
    }
    let failed = dirs.length > this.maxWatchers
    for (const d of want) {
      if (this.watchers.has(d)) continue
      try {
        const w = watch(d, { persistent: false }, () => this.changed())
        w.on('error', () => {
          w.close()
          this.watchers.delete(d)
        })
        this.watchers.set(d, w)
      } catch {
        failed ||= existsSync(d)
      }
    }
    if (failed && this.pollMs > 0 && !this.poll) {
      this.poll = setInterval(() => this.onChange(), this.pollMs)
      this.poll.unref()
    }
  }

  /** Note a change; the callback runs once things are quiet for `debounceMs`. */
  changed(): void {
    if (this.closed) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = undefined
      if (!this.closed) this.onChange()
    }, this.debounceMs)
    this.timer.unref()
  }

  /** Stop everything. */
  close(): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    if (this.poll) clearInterval(this.poll)
    for (const w of this.watchers.values()) w.close()
    this.watchers.clear()
  }
}
