/**
 * Incremental refresh of the catalog: discover every agent's sessions under the open homes
 * (listings and stats only), re-read only the sessions whose files' size, mtime or list changed,
 * drop the sessions that are gone, link the groups that changed, then fill the full-text index
 * in the background. Large reads run on worker threads (see `pool.ts`); small ones inline.
 *
 * Progress is a plain object ({@link IndexStatus}) the API returns from `getIndexStatus()`.
 */
import { existsSync, rmSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import type { IndexStatus } from '../../shared/catalog'
import type { AgentId, Diagnostic, Session } from '../../shared/ir'
import type { AgentDefinition, ReadContext, StoreRef } from '../agents/types'
import type { HomeLayout } from '../platform'
import type { ArchivedMark } from '../../shared/archive'
import { extractSession } from './extract'
import { indexRefs, indexText, type IndexedRef } from './indexer'
import { linkGroup } from './link'
import { runJob, SizeSplitter, splitBySize, startWorker } from './pool'
import type { MoreRefs, WorkerJob } from './worker'
import { newWriteTurn, removeStaleSpills, spillPath, withTurn, writeSpilledRows } from './rows'
import { ROWS_PENDING_META, stampOf, type CatalogStore } from './store'
import { depsKey, parseSnapshot, recordDeps, recordFiles, snapshotKey, unchanged, type FreshnessDeps, type FreshnessSnapshot } from './freshness'
import { claimEarlyFreshness, type EarlyFreshness } from './early-freshness'

/** One open home: its layout and whether it is the demo library. */
export interface OpenHome {
  layout: HomeLayout
  isDemo: boolean
}

/** Options of a {@link Refresher}. */
export interface RefresherOptions {
  /** Path of the catalog file, for workers (`':memory:'`: no workers). */
  dbPath: string
  /** Worker threads for reading; 0 reads on the calling thread. Default: the machine's cores (max 4). */
  workers?: number
  /** Reads smaller than this (bytes) stay on the calling thread. Default 32 MB. */
  workerThreshold?: number
  /** Pending full-text rows above which the text phase runs on a worker. Default 2,000. */
  textWorkerThreshold?: number
  /**
   * A read on workers writes the session rows first and the message rows in a second pass
   * (`rows.ts`), so the library is listed sooner. Default true; false writes them as they are read.
   */
  twoPass?: boolean
  /** The archive (issue 19, `src/main/archive/`): absent, nothing is archived or kept. */
  archive?: ArchiveHook
}

/**
 * What a refresh asks of the archive (`src/main/archive/hook.ts`). Only homes it `covers` (the
 * user's own home, never a copied home, a bundle or the demo) are archived.
 */
export interface ArchiveHook {
  covers(home: OpenHome): boolean
  /**
   * True when a refresh of a covered home that finds nothing changed has nothing to do for the
   * archive (it is off): only then may a freshness snapshot skip a covered home's discovery
   * (`freshness.ts`). Absent: never skipped.
   */
  idle?(): boolean
  /**
   * A session of a covered home is gone from its store: its mark when the archive holds a copy
   * (the catalog row then stays, read from the archive), else undefined (the row is removed).
   */
  gone(home: string, agent: AgentId, sessionId: string): ArchivedMark | undefined
  /**
   * True when the archive's copy of the session is better than what discovery found: the ref is a
   * recovery from a secondary source (`*-recovered`, e.g. Cline's `session-search.db`) while the
   * archive holds the deleted transcript itself. The ref is then treated as gone.
   */
  supersedes(ref: StoreRef): boolean
  /**
   * Archived sessions of `home` whose source is gone and that the catalog does not list (`known`:
   * the ids discovered or in the catalog): after the catalog was deleted or rebuilt (a new schema
   * version empties it), they are listed again from the archive.
   */
  orphans(home: string, agent: AgentId, known: ReadonlySet<string>): string[]
  /** Read an orphan from the archive: the session (paths as in the home), its original ref and its mark. */
  readOrphan(def: AgentDefinition, home: string, sessionId: string, ctx: ReadContext): Promise<{ session: Session; ref: StoreRef; mark: ArchivedMark }>
  /** Copy the discovered refs of covered homes (after they were read; no-op when the archive is off). */
  archive(refs: readonly StoreRef[], projectOf: (ref: StoreRef) => string | undefined): Promise<Diagnostic[]>
}

/** Options of one {@link Refresher.refresh}. */
export interface RefreshOptions {
  /** Discover every agent (the user asked for a refresh), freshness snapshots or not. */
  full?: boolean
  /**
   * Called once every session row is written and linked, while the message rows of a lighter
   * first pass (`rows.ts`) are still being written: the library can be listed, search results are
   * partial. Not called when the refresh writes its rows as it reads (small refreshes); the
   * refresh's promise resolves after the rows in every case.
   */
  onListed?: () => void
}

/** What one refresh did. */
export interface RefreshResult {
  read: number
  removed: number
  failed: number
  bytes: number
  ms: number
}

function idle(): IndexStatus {
  return { phase: 'idle', done: 0, total: 0, bytesDone: 0, bytesTotal: 0, textDone: 0, textTotal: 0, running: false }
}

/** Runs refreshes one at a time and keeps their progress. */
export class Refresher {
  private current: IndexStatus = idle()
  private chain: Promise<unknown> = Promise.resolve()
  private textRun: Promise<void> = Promise.resolve()
  private pendingRuns = 0
  /**
   * Fill the search index after each refresh (default). A one-shot command that needs no search
   * (`sepia usage`) turns it off: the rows stay pending for the next run.
   */
  textIndexing = true
  /** Discovery and read problems of the last refresh, per home. */
  readonly problems = new Map<string, Diagnostic[]>()

  constructor(
    private readonly store: CatalogStore,
    private readonly agents: readonly AgentDefinition[],
    private readonly ctx: ReadContext,
    private readonly options: RefresherOptions,
  ) {}

  /** Progress of the running refresh (or the last one, `phase: 'idle'`). */
  status(): IndexStatus {
    return { ...this.current }
  }

  /** True when every given home has been fully indexed once (for all agents, or `agents`). */
  isIndexed(homes: readonly OpenHome[], agents?: readonly AgentId[]): boolean {
    const ids = agents ?? this.agents.map((a) => a.id)
    return homes.every((h) => ids.every((a) => this.store.getMeta(`indexed:${h.layout.home}:${a}`) === '1'))
  }

  /**
   * Refresh the catalog for `homes` (only `agents` when given). Refreshes run one after another;
   * resolves when the catalog rows are written and linked (the full-text phase goes on: see
   * {@link whenIdle}).
   */
  refresh(homes: readonly OpenHome[], agents?: readonly AgentId[], options: RefreshOptions = {}): Promise<RefreshResult> {
    this.pendingRuns++
    const run = this.chain
      .then(() => this.run(homes, agents, options.full === true, options.onListed))
      .catch((e: unknown) => {
        // The catalog could not be written (another process held it past the busy timeout, disk
        // full): say so in the status; the caller decides whether to go on (issue 14).
        this.current = { ...this.current, phase: 'idle', running: false, error: `Could not update the session catalog: ${errorText(e)}` }
        throw e
      })
      .finally(() => this.pendingRuns--)
    this.chain = run.catch(() => undefined)
    return run
  }

  /** Resolves when no refresh and no full-text indexing is running. */
  async whenIdle(): Promise<void> {
    await this.chain
    await this.textRun
  }

  private agentsFor(ids?: readonly AgentId[]): AgentDefinition[] {
    return ids ? this.agents.filter((a) => ids.includes(a.id)) : [...this.agents]
  }

  /**
   * `full`: discover every agent (the user asked for a refresh); otherwise an agent whose
   * freshness snapshot (`freshness.ts`) is unchanged is not discovered again.
   */
  private async run(homes: readonly OpenHome[], agentIds?: readonly AgentId[], full = false, onListed?: () => void): Promise<RefreshResult> {
    // An empty catalog is a cold index, which reads on workers: they start (load their modules)
    // while this thread discovers the stores, instead of after it.
    const early = this.workerCount() > 0 && this.options.dbPath !== ':memory:' && !this.store.hasSessions() ? Array.from({ length: this.workerCount() }, () => startWorker()) : []
    // And they start on each agent's new sessions as soon as its discovery ends, while the other agents are discovered.
    const feed = this.feedFor(early, homes)
    try {
      return await this.runWith(early, feed, homes, agentIds, full, onListed)
    } finally {
      // A discovery that failed may leave visits running: they hand nothing more.
      feed?.close()
      // Those the read did not take (it ends the others itself).
      await Promise.all(early.map((w) => w?.terminate()))
    }
  }

  private async runWith(early: (Worker | undefined)[], feed: RefFeed | undefined, homes: readonly OpenHome[], agentIds: readonly AgentId[] | undefined, full: boolean, onListed?: () => void): Promise<RefreshResult> {
    // The first refresh of a CLI process may take the answers of the check started with it; later ones never.
    const earlyCheck = claimEarlyFreshness()
    try {
      return await this.runChecked(earlyCheck, early, feed, homes, agentIds, full, onListed)
    } finally {
      earlyCheck?.release()
    }
  }

  private async runChecked(earlyCheck: EarlyFreshness | undefined, early: (Worker | undefined)[], feed: RefFeed | undefined, homes: readonly OpenHome[], agentIds: readonly AgentId[] | undefined, full: boolean, onListed?: () => void): Promise<RefreshResult> {
    const started = Date.now()
    const st: IndexStatus = { ...idle(), phase: 'discover', running: true, startedAt: started }
    this.current = st
    const agents = this.agentsFor(agentIds)
    const toRead: StoreRef[] = []
    const toRemove: number[] = []
    const toMark: { sid: number; mark: ArchivedMark }[] = []
    const toArchive: StoreRef[] = []
    const orphans: { home: string; agent: AgentDefinition; sessionId: string }[] = []
    const touched = new Set<string>()
    // Snapshots to keep after the reads (dropped for an agent whose reads failed), by meta key.
    const snapshots = new Map<string, { entries: Map<string, string> | undefined; deps?: string; diagnostics: Diagnostic[] }>()
    // While they write sessions, discovery sees the catalog as it was when the refresh began, so
    // what it finds does not depend on how far they got (the catalog's project list is the only
    // thing discovery reads that another agent's rows change; each agent's own rows are written
    // only after its discovery, and the homes are distinct, see `feedFor`).
    const projectsAtStart = new Map<string, string[]>()
    if (feed) for (const h of homes) projectsAtStart.set(h.layout.home, this.store.projectsOf(h.layout.home))
    for (const home of homes) {
      const problems: Diagnostic[] = []
      this.problems.set(home.layout.home, problems)
      const covered = this.options.archive?.covers(home) === true
      // Project-folder stores (Aider, Crush) are looked for in the projects other sessions name,
      // read once per home and refresh (both agents ask; no row is written before every discovery ends).
      const discoverCtx: ReadContext = {
        ...this.ctx,
        projectFolders: (h) => {
          let projects = projectsAtStart.get(h)
          if (!projects) projectsAtStart.set(h, (projects = this.store.projectsOf(h)))
          return projects
        },
      }
      // What each agent adds, kept apart and joined in the agents' order below, whatever order they are visited in.
      interface Found {
        problems: Diagnostic[]
        toRead: StoreRef[]
        toRemove: number[]
        toMark: { sid: number; mark: ArchivedMark }[]
        toArchive: StoreRef[]
        orphans: { home: string; agent: AgentDefinition; sessionId: string }[]
        touched: boolean
      }
      const visit = async (agent: AgentDefinition, deps: FreshnessDeps | undefined, text: string | undefined, out: Found): Promise<void> => {
        let refs: StoreRef[] = []
        const key = snapshotKey(home.layout.home, agent.id)
        if (text !== undefined && deps) {
          // The CLI's check started with the process (early-freshness.ts), for exactly this snapshot text.
          const pre = text && earlyCheck ? await earlyCheck.answer(key, text) : undefined
          if (pre) {
            if (pre.unchanged && pre.deps === depsKey(deps)) {
              out.problems.push(...pre.diagnostics)
              return
            }
          } else {
            const snap = parseSnapshot(text)
            if (snap && unchanged(snap, deps)) {
              // Nothing this agent's discovery depends on changed: the catalog holds what it would find.
              out.problems.push(...snap.diagnostics)
              return
            }
          }
        }
        // Recorded before discovery: folders, side files and the files of the sessions already listed.
        let entries = deps ? recordDeps(deps) : undefined
        if (entries) recordFiles(entries, [...this.store.stamps(home.layout.home, agent.id).values()].flatMap((s) => filesOfStamp(s.stamp)))
        try {
          const found = await agent.discover(home.layout, discoverCtx)
          refs = found.refs
          out.problems.push(...found.diagnostics)
          if (entries) {
            // New session files: recorded now, before they are read.
            recordFiles(entries, refs.flatMap((r) => r.files))
            snapshots.set(key, { entries, deps: depsKey(deps!), diagnostics: found.diagnostics })
          } else if (deps) snapshots.set(key, { entries: undefined, diagnostics: [] }) // cannot be recorded safely: drop the old one
        } catch (e) {
          out.problems.push({ severity: 'error', path: home.layout.home, agent: agent.id, message: `Could not look for ${agent.displayName} sessions: ${errorText(e)}` })
          return
        }
        const stamps = this.store.stamps(home.layout.home, agent.id)
        const seen = new Set<string>()
        for (const ref of refs) {
          if (seen.has(ref.sessionId)) continue // the same id twice in one home: the first wins
          if (covered && this.options.archive!.supersedes({ ...ref, home: home.layout.home })) continue
          seen.add(ref.sessionId)
          const ours: StoreRef = { ...ref, home: home.layout.home }
          if (covered) out.toArchive.push(ours)
          if (stamps.get(ref.sessionId)?.stamp !== stampOf(ours)) {
            out.toRead.push(ours)
            out.touched = true
          }
        }
        for (const [id, { sid, stamp }] of stamps) {
          if (!seen.has(id)) {
            // Gone from the store: kept (marked archived, once) when the archive holds a copy.
            const mark = covered ? this.options.archive!.gone(home.layout.home, agent.id, id) : undefined
            if (mark) {
              if (!stamp.startsWith(ARCHIVED_STAMP)) out.toMark.push({ sid, mark })
              continue
            }
            out.toRemove.push(sid)
            out.touched = true
          }
        }
        if (covered) {
          const known = new Set([...seen, ...stamps.keys()])
          for (const id of this.options.archive!.orphans(home.layout.home, agent.id, known)) {
            out.orphans.push({ home: home.layout.home, agent, sessionId: id })
            out.touched = true
          }
        }
      }
      const plans = agents.map((agent) => {
        const deps = agent.freshness?.(home.layout)
        // A covered home while the archive is on is always discovered: the archive copies what discovery finds.
        const text = deps && !full && (!covered || this.options.archive?.idle?.() === true) ? (this.store.getMeta(snapshotKey(home.layout.home, agent.id)) ?? '') : undefined
        const out: Found = { problems: [], toRead: [], toRemove: [], toMark: [], toArchive: [], orphans: [], touched: false }
        return { agent, deps, text, out }
      })
      // The agents without a snapshot to check are discovered at once (each discovery mostly waits on
      // the file system, and none depends on another's), then the others in turn. With the early
      // check, those are discovered while its worker stats, and the snapshots it may answer for come last.
      // On a cold index each agent's new refs go to the workers once its visit ends (`feed`).
      const waits = (p: (typeof plans)[number]): boolean => !!p.text
      await Promise.all(plans.filter((p) => !waits(p)).map((p) => visit(p.agent, p.deps, p.text, p.out).then(() => feed?.add(p.out.toRead))))
      for (const p of plans) {
        if (!waits(p)) continue
        await visit(p.agent, p.deps, p.text, p.out)
        feed?.add(p.out.toRead)
      }
      for (const { agent, out } of plans) {
        problems.push(...out.problems)
        toRead.push(...out.toRead)
        toRemove.push(...out.toRemove)
        toMark.push(...out.toMark)
        toArchive.push(...out.toArchive)
        orphans.push(...out.orphans)
        if (out.touched) touched.add(`${home.layout.home}\u0000${agent.id}`)
      }
    }
    st.phase = 'read'
    st.total = toRead.length
    const weights = progressWeights(toRead)
    st.bytesTotal = [...weights.values()].reduce((n, w) => n + w, 0)
    let failed = 0
    const onItem = (item: IndexedRef): void => {
      st.done++
      st.bytesDone += weights.get(refKey(item)) ?? 0
      if (item.error) {
        failed++
        // Not kept: the next refresh discovers this agent again and retries the read.
        if (snapshots.has(snapshotKey(item.home, item.agent))) snapshots.set(snapshotKey(item.home, item.agent), { entries: undefined, diagnostics: [] })
        this.problems.get(item.home)?.push(item.error)
      }
    }
    const { rows, turn } = await this.read(toRead, st.bytesTotal, onItem, early, feed)
    this.store.deleteSessions(toRemove)
    for (const o of orphans) {
      try {
        const { session, ref, mark } = await this.options.archive!.readOrphan(o.agent, o.home, o.sessionId, this.ctx)
        this.store.writeSession(extractSession(session, ref), [])
        const sid = this.store.stamps(o.home, o.agent.id).get(o.sessionId)?.sid
        if (sid !== undefined) toMark.push({ sid, mark })
      } catch (e) {
        this.problems.get(o.home)?.push({ severity: 'warning', path: o.home, agent: o.agent.id, sessionId: o.sessionId, message: `Could not list this session from Sepia's archive: ${errorText(e)}` })
      }
    }
    this.store.markArchived(toMark, ARCHIVED_STAMP)
    if (toArchive.length > 0 && this.options.archive) {
      const problems = await this.options.archive.archive(toArchive, (ref) => this.store.projectOf(ref.home, ref.agent, ref.sessionId)).catch((e: unknown) => [
        { severity: 'warning' as const, path: toArchive[0]!.home, message: `Could not update Sepia's archive: ${errorText(e)}` },
      ])
      for (const p of problems) this.problems.get(toArchive[0]!.home)?.push(p)
    }
    st.phase = 'link'
    for (const key of touched) {
      const [home, agentId] = key.split('\u0000') as [string, AgentId]
      const agent = agents.find((a) => a.id === agentId)
      if (!agent) continue
      const { error } = linkGroup(this.store, home, agent)
      if (error) this.problems.get(home)?.push({ severity: 'warning', path: home, agent: agent.id, message: `Could not link sub-agent sessions: ${error}` })
    }
    let follow: FollowingText | undefined
    try {
      if (rows) {
        // Lighter first pass (rows.ts): every session row is written and linked, so the library
        // can be listed; the workers go on writing the message rows, and a text worker fills the
        // search index with the rows they have committed meanwhile (`followText`).
        this.store.setMeta(ROWS_PENDING_META, String(this.store.countPendingRows()))
        st.phase = 'search'
        await rows(() => {
          onListed?.()
          // After the listing's own work: no rows are committed yet for it to index.
          follow = this.followText(st, turn)
        })
      }
      // This thread's writes from here on take the write turn the text worker takes for each
      // batch: SQLite's busy handler alone could wait past its timeout while the worker takes the
      // lock again right after each commit.
      if (rows || this.store.getMeta(ROWS_PENDING_META)) {
        const left = this.store.countPendingRows()
        withTurn(turn, () => this.store.setMeta(ROWS_PENDING_META, left > 0 ? String(left) : ''))
      }
      // One write transaction, and none when nothing is new (a warm refresh that found nothing changed).
      const meta = new Map<string, string>()
      for (const home of homes) for (const a of agents) meta.set(`indexed:${home.layout.home}:${a.id}`, '1')
      for (const [key, snap] of snapshots) {
        const value: FreshnessSnapshot | undefined = snap.entries && snap.deps !== undefined ? { v: 2, deps: snap.deps, entries: [...snap.entries], diagnostics: snap.diagnostics } : undefined
        meta.set(key, value ? JSON.stringify(value) : '')
      }
      const writes = [...meta].filter(([k, v]) => this.store.getMeta(k) !== v)
      if (writes.length > 0) withTurn(turn, () => this.store.db.transaction(() => writes.forEach(([k, v]) => this.store.setMeta(k, v)))())
    } finally {
      // The rows are written (or the refresh failed): the text worker fills the rest and ends.
      follow?.rowsDone()
    }
    const result: RefreshResult = { read: toRead.length - failed, removed: toRemove.length, failed, bytes: st.bytesTotal, ms: Date.now() - started }
    st.finishedAt = Date.now()
    this.startText(st, follow)
    return result
  }

  /** Worker threads for a read: `workers`, or the machine's cores (max 4). */
  private workerCount(): number {
    return this.options.workers ?? Math.min(4, availableParallelism())
  }

  /** Reads of at least this many bytes (progress weights) run on workers. */
  private workerThreshold(): number {
    return this.options.workerThreshold ?? (Number(process.env['SEPIA_WORKER_THRESHOLD_BYTES']) || 32e6)
  }

  /**
   * Post the first-pass jobs of `lists` to `workers` (one each). With `more`, each job waits for
   * further refs (`send`, the last call with `last`) while main still discovers the stores.
   * Items are given to `onItem` once it is set (held until then).
   */
  private startJobs(workers: Worker[], lists: StoreRef[][], more: boolean): WorkerRead {
    const doneKeys = new Set<string>()
    const held: IndexedRef[] = []
    let onItem: ((i: IndexedRef) => void) | undefined
    const track = (i: IndexedRef): void => {
      doneKeys.add(refKey(i))
      if (onItem) onItem(i)
      else held.push(i)
    }
    const twoPass = this.options.twoPass !== false
    if (twoPass) removeStaleSpills(this.options.dbPath)
    const spills = lists.map((_, k) => (twoPass ? spillPath(this.options.dbPath, k) : undefined))
    const listed: (() => void)[] = []
    const listedAll = Promise.all(lists.map((_, k) => new Promise<void>((resolve) => (listed[k] = resolve))))
    const turn = newWriteTurn()
    const jobs = lists.map((list, k) => {
      const job: WorkerJob = { type: 'index', dbPath: this.options.dbPath, refs: list }
      if (more) job.more = true
      if (spills[k]) {
        job.spill = spills[k]
        job.turn = turn
      }
      return runJob(workers[k]!, job, (m) => (m.type === 'item' ? track(m.item) : m.type === 'listed' ? listed[k]!() : undefined)).finally(() => listed[k]!())
    })
    // Heard by `read`; a refresh that fails before it (in discovery) must not leave an unheard rejection.
    for (const j of jobs) j.catch(() => undefined)
    return {
      workers,
      jobs,
      listedAll,
      doneKeys,
      spills,
      twoPass,
      turn,
      setOnItem: (fn) => {
        onItem = fn
        for (const i of held.splice(0)) fn(i)
      },
      // A worker that died takes nothing more (posting to it is a no-op): `read` reads what it missed.
      send: (parts, last) => parts.forEach((refs, k) => (refs.length > 0 || last) && workers[k]!.postMessage({ type: 'refs', refs, last } satisfies MoreRefs)),
    }
  }

  /**
   * On a cold index (workers started early, `early`): a feed that hands each agent's new refs to
   * the workers as soon as its discovery ends, once the refs handed so far add up to a
   * worker-sized read (their progress weights, which `read` decides by, reach `workerThreshold`;
   * until then they are held), split by size with running totals (`SizeSplitter`). The jobs then
   * take every further part; `read` sends the last. Undefined when not on workers, and when a home
   * is open twice (its second discovery would see the rows the first one's refs wrote).
   */
  private feedFor(early: (Worker | undefined)[], homes: readonly OpenHome[]): RefFeed | undefined {
    if (early.length === 0 || early.some((w) => w === undefined) || this.options.dbPath === ':memory:') return undefined
    if (new Set(homes.map((h) => h.layout.home)).size !== homes.length) return undefined
    const threshold = this.workerThreshold()
    const split = new SizeSplitter(early.length)
    let held: StoreRef[] = []
    let closed = false
    const feed: RefFeed = {
      add: (refs) => {
        if (closed || refs.length === 0) return
        if (feed.started) {
          feed.started.send(split.split(refs), false)
          return
        }
        held = held.concat(refs)
        let bytes = 0
        for (const w of progressWeights(held).values()) bytes += w
        if (bytes < threshold) return
        feed.started = this.startJobs(early as Worker[], split.split(held), true)
        held = []
      },
      close: () => {
        closed = true
      },
    }
    return feed
  }

  /**
   * With the rows pass of a cold index about to write (`rows.ts`): start a text worker that fills
   * the search index from the rows committed so far, while the rows workers write the rest (they
   * leave one core partly idle, and the index then is not one long fill on one core after them).
   * It takes the rows workers' write turn (`turn`, `rows.ts` `inTurn`) for each batch, so they
   * alternate with it instead of waiting in SQLite's busy handler.
   * Undefined when the text phase would not run on a worker ({@link startText}'s conditions) or
   * none can be started.
   */
  private followText(st: IndexStatus, turn: SharedArrayBuffer | undefined): FollowingText | undefined {
    if (!this.textIndexing || this.options.dbPath === ':memory:' || (this.options.workers ?? 1) <= 0) return undefined
    const worker = startWorker()
    if (!worker) return undefined
    const onStep = (done: number, total: number): void => {
      st.textDone = done
      st.textTotal = total
    }
    const ended = runJob(worker, { type: 'text', dbPath: this.options.dbPath, follow: true, turn }, (m) => m.type === 'text' && onStep(m.done, m.total)).finally(() => void worker.terminate())
    // A failed fill is caught by startText: the inline pass fills what it left.
    ended.catch(() => undefined)
    return { ended, rowsDone: () => worker.postMessage({ type: 'rows-done' }) }
  }

  /**
   * Read and write `refs`; on workers when they are many bytes. On workers this is a lighter first
   * pass (`rows.ts`): each worker writes the session rows and spills the message rows, says so,
   * then goes on writing those rows itself. Resolves when every session row is written, with
   * `rows`: a promise that settles when the message rows are written too (undefined when they
   * were written as they were read). Sessions still pending then (a worker that died, a spill that
   * could not be written) are read again on this thread, the one-pass way, and their groups
   * linked again (the link pass ran before the rows).
   */
  private async read(refs: StoreRef[], bytes: number, onItem: (i: IndexedRef) => void, early: (Worker | undefined)[] = [], feed?: RefFeed): Promise<{ rows?: (listed: () => void) => Promise<void>; turn?: SharedArrayBuffer }> {
    const want = this.workerCount()
    const byId = new Map(this.agents.map((a) => [a.id as string, a]))
    feed?.close()
    let run = feed?.started
    // Started during discovery: every ref was handed over; the jobs may end after this last (empty) part.
    if (run) run.send(run.workers.map(() => []), true)
    else {
      const useWorkers = refs.length > 0 && want > 0 && this.options.dbPath !== ':memory:' && bytes >= this.workerThreshold()
      const lists = useWorkers ? splitBySize(refs, Math.min(want, refs.length)) : []
      // Workers started early and not needed go now.
      await Promise.all(early.slice(lists.length).map((w) => w?.terminate()))
      if (refs.length === 0) return {}
      if (useWorkers) {
        // Kept in `early` too: the refresh ends them all, whatever happens after the read.
        const workers = lists.map((_, k) => early[k] ?? (early[k] = startWorker()))
        if (workers.every((w) => w !== undefined)) run = this.startJobs(workers as Worker[], lists, false)
        else await Promise.all(workers.map((w) => w?.terminate()))
      }
    }
    if (run) {
      const { workers, jobs, listedAll, doneKeys, spills, twoPass, turn } = run
      run.setOnItem(onItem)
      const ended = Promise.allSettled(jobs)
      const finish = async (): Promise<void> => {
        const results = await ended
        // Wait for the workers to go: their memory is freed before the link pass needs some.
        await Promise.all(workers.map((w) => w.terminate()))
        // A job that failed after its first pass: the rest of its spill is written here.
        for (const [k, r] of results.entries()) {
          const spill = spills[k]
          if (r.status === 'rejected' && spill && existsSync(spill)) await writeSpilledRows(this.store, spill).catch(() => 0)
        }
        for (const p of spills) if (p) rmSync(p, { force: true })
        // Still pending (a spill cut short or not writable): read again, the one-pass way.
        const pending = this.store.pendingRowKeys()
        const left = pending.size > 0 ? refs.filter((r) => pending.has(refKey(r))) : []
        if (left.length > 0) {
          await indexRefs(left, (id) => byId.get(id)!, this.store, this.ctx, () => undefined)
          // Written whole again after the link pass: their groups are linked again.
          for (const key of new Set(left.map((r) => `${r.home}\u0000${r.agent}`))) {
            const [home, agent] = key.split('\u0000') as [string, string]
            const { error } = linkGroup(this.store, home, byId.get(agent)!)
            if (error) this.problems.get(home)?.push({ severity: 'warning', path: home, agent: agent as AgentId, message: `Could not link sub-agent sessions: ${error}` })
          }
        }
      }
      await listedAll
      // A worker that died in its first pass (it ends without saying listed): what it left is read here.
      const missing = refs.filter((r) => !doneKeys.has(refKey(r)))
      if (missing.length > 0) await indexRefs(missing, (id) => byId.get(id)!, this.store, this.ctx, onItem)
      if (!twoPass) {
        await finish()
        return {}
      }
      // The workers wait: they write the rows once the library is listed.
      return {
        turn,
        rows: (listed) => {
          listed()
          for (const w of workers) w.postMessage({ type: 'rows' })
          return finish()
        },
      }
    }
    await indexRefs(refs, (id) => byId.get(id)!, this.store, this.ctx, onItem)
    return {}
  }

  /**
   * Fill the full-text index after a refresh (background; tracked by `textRun`). `follow`: the
   * text worker started with the rows pass ({@link followText}), told the rows are written: it
   * fills the rest (when it failed, a new worker does, as without it), then the inline pass
   * takes what is left.
   */
  private startText(st: IndexStatus, follow?: FollowingText): void {
    const pending = this.store.ftsPending()
    if (follow) st.textTotal = st.textDone + pending
    else st.textTotal = pending
    if ((pending === 0 && !follow) || !this.textIndexing) {
      st.phase = 'idle'
      st.running = false
      return
    }
    st.phase = 'search'
    const onStep = (done: number, total: number): void => {
      st.textDone = done
      st.textTotal = total
    }
    const finish = (): void => {
      if (this.current === st) {
        st.phase = 'idle'
        st.running = false
      }
    }
    const threshold = this.options.textWorkerThreshold ?? 2_000
    this.textRun = this.textRun.then(async () => {
      // A following worker that failed leaves its part to a new worker, as without one.
      const followed = follow ? await follow.ended.then(() => true, () => false) : false
      const left = follow ? this.store.ftsPending() : pending
      const worker = !followed && left >= threshold && this.options.dbPath !== ':memory:' && (this.options.workers ?? 1) > 0 ? startWorker() : undefined
      if (worker) {
        try {
          await runJob(worker, { type: 'text', dbPath: this.options.dbPath }, (m) => m.type === 'text' && onStep(m.done, m.total))
        } catch {
          // fall through to the inline pass for whatever is left
        } finally {
          void worker.terminate()
        }
      }
      // Small batches on this thread so other work (API calls) gets turns in between.
      try {
        await indexText(this.store, onStep, () => this.pendingRuns > 0 && this.current !== st, 250)
      } catch (e) {
        // Search indexing never fails a command (issue 14): the rest is indexed by the next refresh.
        st.error = `Could not finish the search index: ${errorText(e)}`
      }
      finish()
    })
  }
}

/** A text worker filling the search index during the rows pass ({@link Refresher.followText}). */
interface FollowingText {
  /** Settles when the worker ended (rejects when it failed). */
  ended: Promise<void>
  /** Tell it the rows are all written: it fills the rest and ends. */
  rowsDone(): void
}

/** The files of a catalog row's refresh stamp (`stampOf`: `size:mtimeMs:file\0file...`); none for an archived row. */
function filesOfStamp(stamp: string): string[] {
  if (stamp.startsWith(ARCHIVED_STAMP)) return []
  const a = stamp.indexOf(':')
  const b = a < 0 ? -1 : stamp.indexOf(':', a + 1)
  return b < 0 ? [] : stamp.slice(b + 1).split('\u0000').filter((f) => f !== '')
}

/** First-pass jobs posted to workers (`Refresher.startJobs`). */
interface WorkerRead {
  workers: Worker[]
  jobs: Promise<void>[]
  /** Every job said `listed` (or ended). */
  listedAll: Promise<unknown>
  /** Keys (home, agent, id) of the refs the workers reported. */
  doneKeys: Set<string>
  spills: (string | undefined)[]
  twoPass: boolean
  /** The write turn the jobs share (`rows.ts`); the following text fill and main's later writes take it too. */
  turn: SharedArrayBuffer
  /** Where the items go from now on (those that came before are given first). */
  setOnItem(fn: (i: IndexedRef) => void): void
  /** More refs for each job started with `more` (`last`: the jobs may end after them). */
  send(parts: StoreRef[][], last: boolean): void
}

/** Refs handed to the workers while discovery goes on (`Refresher.feedFor`). */
interface RefFeed {
  /** An agent's new refs, once its discovery ended. */
  add(refs: StoreRef[]): void
  /** Nothing more is added (discovery ended or failed): later `add`s do nothing. */
  close(): void
  /** The jobs, once the refs added reached a worker-sized read. */
  started?: WorkerRead
}

/** Prefix of the refresh stamp of a catalog row whose session is read from the archive. */
export const ARCHIVED_STAMP = 'archived:'

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

const refKey = (r: { home: string; agent: string; sessionId: string }): string => `${r.home}\u0000${r.agent}\u0000${r.sessionId}`

/**
 * Bytes each ref counts for in the index progress. Sessions that share one store file (every
 * Cursor composer lives in the same `state.vscdb`, every OpenCode session in one `opencode.db`)
 * report that file's whole size; counting it once per session made a 200 MB store show as 38 GB.
 * The file's size is split evenly (in whole bytes, so the parts add up to it) among the sessions read from it.
 */
export function progressWeights(refs: readonly StoreRef[]): Map<string, number> {
  const sharing = new Map<string, number>()
  for (const r of refs) {
    const f = r.files[0]
    if (f !== undefined) sharing.set(f, (sharing.get(f) ?? 0) + 1)
  }
  const out = new Map<string, number>()
  const given = new Set<string>()
  for (const r of refs) {
    const f = r.files[0]
    const n = f === undefined ? 1 : (sharing.get(f) ?? 1)
    const base = Math.floor(r.size / n)
    // The first session of a shared file also takes the remainder.
    const first = f === undefined || !given.has(f)
    if (f !== undefined) given.add(f)
    out.set(refKey(r), first ? r.size - base * (n - 1) : base)
  }
  return out
}
