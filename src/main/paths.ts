/**
 * Paths that come from the renderer are checked here, in main, before anything reads or writes
 * them (issue 9 item 6; STYLE.md "validate paths in main").
 *
 * A path is allowed when it lies inside a root the app knows: an opened home (and the agent
 * folders its layout names), a session's own files, a session's project folder, the app's data
 * folder, or a folder the user picked in the folder dialog or typed as a target. A symbolic link
 * that leads out of every root is reported (`PATH_NOT_ALLOWED`, naming where it leads), never
 * followed. `openHome` itself accepts any folder: the user picked it.
 *
 * Reading and writing are separate (issue 16, path policy). Everything above may be read. A
 * write ({@link PathPolicy.checkWrite}) goes only into Sepia's own data folder, a folder the user
 * picked in the system dialog (`picked`), or a folder named in a one-time grant
 * ({@link PathPolicy.approve}) that the renderer obtains after the user clicked "Allow once" on a
 * confirmation that shows the folder (browser mode types folders; a restore into the project
 * folder a session recorded needs one too, since that path came from the store). An opened home
 * and a session's recorded `cwd` are never write roots: they are data a sender wrote.
 *
 * {@link guardAgents} applies the same rule to what discovery finds: a session file that is a
 * link (or sits in a linked folder) pointing outside the opened home is skipped with a diagnostic.
 */
import { randomBytes } from 'node:crypto'
import { lstatSync, realpathSync } from 'node:fs'
import { readFile, realpath, stat } from 'node:fs/promises'
import { dirname, isAbsolute, relative, resolve } from 'node:path'
import { SepiaError } from '../shared/api'
import type { Diagnostic, Session } from '../shared/ir'
import { addDiagnostic } from './ir/build'
import { clampDepth, clampDepthSliced } from './ir/depth'
import { LARGE_SESSION_NODES } from './util/turn'
import type { AgentDefinition, StoreRef } from './agents/types'
import type { HomeLayout } from './platform'

/** Why a root is allowed. `home` and `session` roots are replaced when other homes are opened. */
export type RootReason = 'home' | 'session-file' | 'project' | 'app-data' | 'picked'

/** Roots that may be written into, with {@link PathPolicy.checkWrite}. */
const WRITE_REASONS: ReadonlySet<RootReason> = new Set(['app-data', 'picked'])

/** What a one-time grant lets Sepia do in its folder (the `operation` of `approveFolder`). */
export type WriteOperation = 'restore' | 'export' | 'collect' | 'convert'
export const WRITE_OPERATIONS: readonly WriteOperation[] = ['restore', 'export', 'collect', 'convert']

/** A grant from {@link PathPolicy.approve}: one folder, one operation, used once, expiring. */
interface Grant {
  path: string
  operation: WriteOperation
  expiresAt: number
}

/** How long a grant stays usable, ms. */
const GRANT_TTL_MS = 10 * 60_000

/** True when `child` is `root` or inside it (absolute paths, this machine's syntax). */
export function isInside(root: string, child: string): boolean {
  const r = relative(root, child)
  return r === '' || (!r.startsWith('..') && !isAbsolute(r))
}

/** Every folder of a home's layout that agents keep data in (home, env-moved dirs, app data, globalStorage, Documents). */
export function layoutRoots(layout: HomeLayout): string[] {
  const all = [
    layout.home,
    layout.claudeConfigDir,
    layout.codexHome,
    layout.clineDir,
    layout.clineDataDir,
    ...layout.appDataRoots,
    layout.xdgConfigHome,
    layout.xdgDataHome,
    ...layout.globalStorageDirs,
    ...(layout.documentsDir ? [layout.documentsDir] : []),
  ]
  return [...new Set(all.filter((p) => isAbsolute(p)).map((p) => resolve(p)))]
}

/** The real path of `p`: its deepest existing ancestor resolved through links, the rest appended. */
export async function realPathOf(p: string): Promise<string> {
  for (const [head, tail] of upFrom(p)) {
    try {
      return rejoin(await realpath(head), tail)
    } catch {
      // missing: try its parent
    }
  }
  return resolve(p)
}

/**
 * {@link realPathOf} with synchronous calls (`realpath(3)`, which `fs.promises.realpath` calls
 * too): for the thousands of paths of one discovery, where a thread-pool round trip per path costs
 * more than the call itself (issue 15).
 */
export function realPathOfSync(p: string): string {
  for (const [head, tail] of upFrom(p)) {
    try {
      return rejoin(realpathSync.native(head), tail)
    } catch {
      // missing: try its parent
    }
  }
  return resolve(p)
}

/** `p` resolved, then each ancestor up to the root, with the names below it (outermost first). */
function* upFrom(p: string): Generator<[head: string, tail: readonly string[]]> {
  let head = resolve(p)
  const tail: string[] = []
  for (;;) {
    yield [head, tail]
    const up = dirname(head)
    if (up === head) return
    tail.unshift(head.slice(up.length).replace(/^[\\/]+/, ''))
    head = up
  }
}

function rejoin(real: string, tail: readonly string[]): string {
  return tail.length ? resolve(real, ...tail) : real
}

/** A source of roots that change with the library (opened homes, their sessions' files and projects). */
export type RootSource = () => Promise<Iterable<readonly [path: string, reason: RootReason]>>

/** The folders and files paths from the renderer may name. */
export class PathPolicy {
  private roots = new Map<string, RootReason>()
  private realRoots = new Map<string, Promise<string>>()
  private grants = new Map<string, Grant>()

  /** `source` is asked for the current library's roots at every check (cheap: in memory). */
  constructor(private readonly source?: RootSource) {}

  /** Allow `path` (a folder and everything under it, or one file). Relative paths are ignored. */
  allow(path: string, reason: RootReason): void {
    if (typeof path !== 'string' || !isAbsolute(path)) return
    this.roots.set(resolve(path), reason)
  }

  /** Forget the roots given for these reasons (default: the opened homes and their sessions). */
  reset(reasons: RootReason[] = ['home', 'session-file', 'project']): void {
    for (const [p, r] of this.roots) if (reasons.includes(r)) this.roots.delete(p)
    this.realRoots.clear()
  }

  /** The allowed roots, for diagnostics and tests. */
  async list(): Promise<{ path: string; reason: RootReason }[]> {
    return [...(await this.current())].map(([path, reason]) => ({ path, reason }))
  }

  /** The allowed roots now: those given with {@link allow} and the source's. */
  async current(): Promise<Map<string, RootReason>> {
    const all = new Map(this.roots)
    if (this.source) for (const [p, r] of await this.source()) if (typeof p === 'string' && isAbsolute(p) && !all.has(resolve(p))) all.set(resolve(p), r)
    return all
  }

  /** The root `path` lies in, textually, or undefined. */
  async rootOf(path: string): Promise<string | undefined> {
    const abs = resolve(path)
    let best: string | undefined
    for (const root of (await this.current()).keys()) if (isInside(root, abs) && (!best || root.length > best.length)) best = root
    return best
  }

  /**
   * Check a path the renderer sent. Resolves the absolute path to use. Rejects with
   * `BAD_ARGUMENT` when it is not a non-empty string without NUL characters, and with
   * `PATH_NOT_ALLOWED` when it is outside every allowed root or a symbolic link leads out of them.
   */
  async check(path: unknown, what = 'That path'): Promise<string> {
    if (typeof path !== 'string' || path.trim() === '' || path.includes('\0')) {
      throw new SepiaError({ code: 'BAD_ARGUMENT', message: `${what} is not a valid path. Choose a file or folder again.` })
    }
    const abs = resolve(path.trim())
    if (!(await this.rootOf(abs))) {
      throw new SepiaError({ code: 'PATH_NOT_ALLOWED', path: abs, message: `${what} (${abs}) is outside the folders Sepia has opened. Open or choose its folder first.` })
    }
    const real = await realPathOf(abs)
    if (real !== abs && !(await this.insideReal(real))) {
      throw new SepiaError({
        code: 'PATH_NOT_ALLOWED',
        path: abs,
        message: `${abs} is a symbolic link to ${real}, outside the folders Sepia has opened; Sepia does not follow it. Open ${real} directly if you want it read.`,
      })
    }
    return abs
  }

  /**
   * Record the user's "Allow once" for writing into `path` (absolute) for one `operation`.
   * Returns the token the write call must present (`grant` in its options). The token is good for
   * one write, within 10 minutes; reads of that folder (a preview) may present it before.
   * Rejects `BAD_ARGUMENT` for a relative or empty path or an unknown operation.
   */
  approve(path: unknown, operation: unknown, now = Date.now()): { token: string; path: string; operation: WriteOperation } {
    if (typeof path !== 'string' || path.trim() === '' || path.includes('\0') || !isAbsolute(path.trim())) {
      throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Type the full path of the folder (starting with / or a drive letter).' })
    }
    if (!WRITE_OPERATIONS.includes(operation as WriteOperation)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The operation is one of ${WRITE_OPERATIONS.join(', ')}.` })
    for (const [t, g] of this.grants) if (g.expiresAt <= now) this.grants.delete(t)
    const token = randomBytes(18).toString('base64url')
    const abs = resolve(path.trim())
    this.grants.set(token, { path: abs, operation: operation as WriteOperation, expiresAt: now + GRANT_TTL_MS })
    return { token, path: abs, operation: operation as WriteOperation }
  }

  /** The grant `token` when it names a folder holding `abs` for `operation`; `consume` uses it up. */
  private grantFor(token: unknown, abs: string, operation: WriteOperation, consume: boolean, now = Date.now()): Grant | undefined {
    if (typeof token !== 'string') return undefined
    const g = this.grants.get(token)
    if (!g || g.expiresAt <= now || g.operation !== operation || !isInside(g.path, abs)) return undefined
    if (consume) this.grants.delete(token)
    return g
  }

  /**
   * Check a folder or file to read that a grant covers (the preview before a granted restore).
   * Falls back to {@link check} when the grant does not cover it. The grant is not used up.
   */
  async checkRead(path: unknown, what: string, grant?: { token?: unknown; operation: WriteOperation }): Promise<string> {
    if (grant && typeof path === 'string' && isAbsolute(path.trim()) && !path.includes('\0')) {
      const abs = resolve(path.trim())
      const g = this.grantFor(grant.token, abs, grant.operation, false)
      if (g && (await this.realInside(g.path, abs))) return abs
    }
    return this.check(path, what)
  }

  /**
   * Check a path Sepia is about to write into. Allowed: inside Sepia's data folder, a folder the
   * user picked in the dialog, a folder of `extra` (the caller's own allowance, such as the user's
   * own home when converting), or under the folder of a valid grant for `operation` (used up
   * unless `consume: false`, for a plan that precedes the write).
   * A symbolic link that leads out of the allowed folder is refused. Rejects `BAD_ARGUMENT` for a
   * bad path, `PATH_NOT_ALLOWED` otherwise, telling the user to choose or allow the folder.
   */
  async checkWrite(path: unknown, what: string, options: { operation: WriteOperation; grant?: unknown; extra?: readonly string[]; consume?: boolean }): Promise<string> {
    if (typeof path !== 'string' || path.trim() === '' || path.includes('\0')) {
      throw new SepiaError({ code: 'BAD_ARGUMENT', message: `${what} is not a valid path. Choose a folder again.` })
    }
    const abs = resolve(path.trim())
    const real = await realPathOf(abs)
    const roots = [...this.roots].filter(([, r]) => WRITE_REASONS.has(r)).map(([p]) => p)
    for (const e of options.extra ?? []) if (isAbsolute(e)) roots.push(resolve(e))
    for (const root of roots) if (isInside(root, abs) && (real === abs || (await this.realInside(root, real)))) return abs
    const g = this.grantFor(options.grant, abs, options.operation, false)
    if (g && (await this.realInside(g.path, real))) {
      if (options.consume !== false) this.grants.delete(options.grant as string)
      return abs
    }
    throw new SepiaError({
      code: 'PATH_NOT_ALLOWED',
      path: abs,
      message: `Sepia writes only into a folder you chose for it. ${what} (${abs}) was not chosen or allowed for this ${options.operation}. Choose the folder, or confirm it with "Allow once".`,
    })
  }

  /** True when `real` lies in `root` or in `root`'s real path. */
  private async realInside(root: string, real: string): Promise<boolean> {
    if (isInside(root, real)) return true
    return isInside(await realPathOf(root), await realPathOf(real))
  }

  private async insideReal(real: string): Promise<boolean> {
    for (const [root, reason] of await this.current()) {
      if (isInside(root, real)) return true
      if (reason === 'session-file') continue // a file root: its own path is what counts
      let r = this.realRoots.get(root)
      if (!r) this.realRoots.set(root, (r = realPathOf(root)))
      if (isInside(await r, real)) return true
    }
    return false
  }
}

/**
 * Wrap each agent so discovery drops refs whose files resolve, through a symbolic link, outside
 * the home's folders ({@link layoutRoots}); each dropped ref becomes a warning diagnostic naming
 * the link and its target. Reading and linking are unchanged. The roots' real paths are resolved
 * the first time a file is not lexically inside a root (issue 15: resolving ~15 roots, most of
 * them missing, for each of the ~20 agents with no store in a home was ~20 ms of every warm
 * command's discovery, for refs that were never there).
 */
export function guardAgents(agents: readonly AgentDefinition[]): AgentDefinition[] {
  return agents.map((agent) => ({
    ...agent,
    async discover(layout, ctx) {
      const found = await agent.discover(layout, ctx)
      const roots = layoutRoots(layout)
      let realRoots: Promise<string[]> | undefined
      // Synchronous calls: one lstat per file and one realpath per folder, thousands of each in a
      // home of 10,000 sessions, each a thread-pool round trip when awaited one by one (issue 15).
      const dirs = new Map<string, string>()
      const leaves = async (file: string): Promise<string | undefined> => {
        const dir = dirname(file)
        let realDir = dirs.get(dir)
        if (realDir === undefined) dirs.set(dir, (realDir = realPathOfSync(dir)))
        let real = resolve(realDir, file.slice(dir.length).replace(/^[\\/]+/, ''))
        try {
          if (lstatSync(file).isSymbolicLink()) real = realPathOfSync(file)
        } catch {
          return undefined // missing: the reader reports it
        }
        const inside = roots.some((r) => isInside(r, real)) || (await (realRoots ??= Promise.all(roots.map(realPathOf)))).some((r) => isInside(r, real))
        return inside ? undefined : real
      }
      const refs: StoreRef[] = []
      const diagnostics: Diagnostic[] = [...found.diagnostics]
      for (const ref of found.refs) {
        let outside: [string, string] | undefined
        for (const f of ref.files) {
          const real = await leaves(f)
          // A project-folder store in a folder the user's own sessions name (Aider, Crush:
          // src/main/agents/project-folders.ts) may lie outside the home when no link leads there.
          if (real && ref.hints?.knownProject === true && real === resolve(f)) continue
          if (real) {
            outside = [f, real]
            break
          }
        }
        if (!outside) refs.push(ref)
        else
          diagnostics.push({
            severity: 'warning',
            path: outside[0],
            agent: agent.id,
            sessionId: ref.sessionId,
            message: `Skipped: this file is a symbolic link to ${outside[1]}, outside ${layout.home}. Sepia does not follow links out of the folders you open; open ${dirname(outside[1])} to read it.`,
          })
      }
      return { refs, diagnostics }
    },
    async read(ref, ctx) {
      const session = await agent.read(ref, ctx)
      // Hostile nesting must not overflow clone/serialise/render (ir/depth.ts); a large session's
      // walk in slices, so a server's other requests run between them.
      if (session.nodes.length >= LARGE_SESSION_NODES) await clampDepthSliced(session)
      else clampDepth(session)
      await noteEmpty(session)
      return session
    },
  }))
}

/**
 * A session read with no message and no diagnostic whose file is empty, or holds only `{}` / `[]`,
 * gets a diagnostic saying so (issue 16: such files were listed as silent 0-message sessions).
 */
async function noteEmpty(session: Session): Promise<void> {
  if (session.nodes.length > 0 || session.diagnostics.length > 0) return
  const file = session.source.files[0]
  if (!file) return
  try {
    const st = await stat(file)
    if (!st.isFile() || st.size > 64) return
    const text = (await readFile(file, 'utf8')).trim()
    if (text === '' || text === '{}' || text === '[]' || text === 'null') {
      addDiagnostic(session, { severity: 'warning', path: file, line: 1, message: text === '' ? 'This session file is empty: there is nothing to show.' : `This session file holds only "${text}": no messages to show.` })
    }
  } catch {
    // unreadable: the reader already said so, or the file is gone
  }
}
