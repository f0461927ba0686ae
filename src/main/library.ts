/**
 * The library: every session under the open homes, listed from the catalog
 * (`src/main/catalog/`, SQLite in the app data folder) and read from the stores on demand.
 *
 * - Warm start: when the homes were indexed before, `load()` answers from the catalog without
 *   reading any store, then refreshes changed files in the background (worker threads).
 * - Cold start: the first `load()` waits for the index (or answers at once with `partial: true`).
 * - `getSession` always reads the store (the catalog is a cache), then applies the sub-agent
 *   links the catalog's link pass found; `getSessionPage` serves long transcripts in pages.
 * - Live: `changes(token)` lists sessions written since a token; the first call starts watching
 *   the stores (`src/main/live/`), so sessions being written show up without a reload.
 */
import type Database from 'better-sqlite3'
import { closeSync, openSync, readSync, writeSync } from 'node:fs'
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import type { AgentInfo, CredentialFile, HomeInfo, Library } from '../shared/api'
import { SepiaError } from '../shared/api'
import type { ChangeSet, FindOptions, FindResult, IndexStatus, PageOptions, SessionPage } from '../shared/catalog'
import type { AgentId, Diagnostic, MessageNode, Session, SessionSummary } from '../shared/ir'
import type { AgentDefinition, ReadContext } from './agents/types'
import { applyLinks } from './catalog/link'
import { DEFAULT_PAGE, findIn, MAX_PAGE, pageOf, pageRange, statsOf, wholeNode } from './catalog/page'
import { Refresher, type OpenHome, type RefresherOptions, type RefreshOptions, type RefreshResult } from './catalog/refresh'
import { openCatalog } from './catalog/schema'
import { CatalogStore, stampOf, type CatalogSession, type ListRow } from './catalog/store'
import { LiveWatcher, watchRoots } from './live/watch'
import { rebasePaths, type Archive } from './archive/archive'
import { archiveHook } from './archive/hook'
import { findCredentialFiles, markMasked, maskedSessionOf, maskSession, maskSessionSliced, maskValue } from './secrets'
import { maskerKey } from './catalog/summary-mask'
import { LARGE_SESSION_NODES } from './util/turn'

export type { OpenHome } from './catalog/refresh'

/** Options of {@link LibraryService}. */
export interface LibraryOptions {
  /** Catalog file (`<appDataDir>/catalog.sqlite`); `':memory:'` (default) keeps it in memory. */
  catalogPath?: string
  /** Worker threads for large reads (0: read on this thread). See {@link RefresherOptions}. */
  workers?: number
  /** Reads smaller than this many bytes stay on this thread. */
  workerThreshold?: number
  /**
   * The first `load()` after the homes are set waits for an incremental refresh even when the
   * catalog is warm (one-shot commands such as the CLI must not print a stale list). The app
   * leaves it off: it shows the catalog at once and refreshes in the background.
   */
  refreshFirstLoad?: boolean
  /**
   * Sepia's archive (issue 19): the refresh copies the own home's session files into it, and a
   * session whose source is gone is read from it.
   */
  archive?: Archive
  /** Live watching: debounce (ms) and the fallback poll interval (ms, 0 = none). */
  liveDebounceMs?: number
  livePollMs?: number
  /**
   * Pages of large transcripts read from a prefix of their file (see `getSessionPage`): from
   * which file size (bytes, default 16 MiB) and the first prefix (bytes, default 4 MiB). For
   * tests: `wholeReadAfter` holds the whole read back until it settles.
   */
  prefix?: { minSize?: number; headBytes?: number; wholeReadAfter?: Promise<unknown> }
  /**
   * How long (ms, default `MASK_WAIT_MS`) a page of a session under `prefix.minSize` (or of few nodes) read whole
   * waits for the session's masked copy (`maskSessionSliced`) before it is answered on its own
   * (`pageWhileMasking`; larger sessions' pages do not wait); 0 answers at once (tests).
   */
  maskWaitMs?: number
}

/**
 * A parse of the first `bytes` of a session's file (cut at a line end), `session.nodes` as the
 * agent's reader makes them from those lines.
 */
interface Prefix {
  bytes: number
  session: Session
  /** Bytes per ms of this read (copy and parse, beside whatever else ran on this thread). */
  rate: number
}

/** The prefix reads of one session (by key and stamp) while its whole read runs. */
interface PrefixState {
  /** The latest prefix read (each one replaces the one before). */
  latest: Promise<Prefix | undefined>
  /** Set when the whole read ended (then pages come from it). */
  done: boolean
  /** When the whole read started (`performance.now()`), once it did. */
  wholeSince?: number
}

/** Load options of {@link LibraryService.load}. */
export interface LoadOptions {
  /** Wait for a refresh of changed files. */
  refresh?: boolean
  /** Answer at once from the catalog even when the homes were never indexed. */
  partial?: boolean
}

const MAX_CACHED_SESSIONS = 2
/** Transcripts from this size get their pages from prefix reads while the whole read runs (see `getSessionPage`). */
const HEAD_MIN_SIZE = 16 << 20
/** The first prefix read (the head). */
const HEAD_BYTES = 4 << 20
/**
 * Nodes a prefix must hold past a page's last node before the page is answered from it: a later
 * line changes an earlier node only when it continues the same API reply (`message.id`, on
 * adjacent lines with that reply's tool results between; seed 002 "Claude Code") or answers a
 * tool call (checked on the page's own calls, see `settled`).
 */
const PREFIX_MARGIN_NODES = 200
/** A prefix larger than this share of the file (or than PREFIX_MAX_BYTES) is not read: the page waits for the whole read. */
const PREFIX_MAX_SHARE = 0.5
const PREFIX_MAX_BYTES = 96 << 20
/**
 * A page of a session under `HEAD_MIN_SIZE` (or of fewer than `LARGE_SESSION_NODES`) read whole waits this long (ms) for its whole masked
 * copy: ~6 ms per MB, so it is there by then and the page is exact, not `partial` (the MCP
 * `get_session` tool reports the header's `maskedSecrets`). A larger session's pages are answered
 * on their own while it is made (200 MB: over a second; BENCHMARKS.md "Renderer, session 12"),
 * as they are from prefixes while it is read.
 */
const MASK_WAIT_MS = 100

/** What {@link LibraryService} `listEntries` returns: the list's entries (JSON as `M`) and the recorded extras. */
type ListEntries<M extends string | Buffer> = { entries: { json: M; agent: AgentId; summary?: SessionSummary }[]; recorded: { diagnostics: Diagnostic[]; credentialFiles: CredentialFile[] } }

/** Lists sessions from the catalog and reads them from the stores. */
export class LibraryService {
  readonly db: Database.Database
  readonly store: CatalogStore
  readonly refresher: Refresher
  private built: { key: string; library: Library } | undefined
  private background: Promise<unknown> | undefined
  private backgroundKey = ''
  private readonly sessions: { key: string; stamp: string; session: Session }[] = []
  private readonly reading = new Map<string, Promise<Session>>()
  /** Prefix reads (`readPrefix`) by session and stamp, kept while the whole session is read (`getSessionPage`). */
  private readonly prefixes = new Map<string, PrefixState>()
  private readonly freshFor = new Set<string>()
  private live: LiveWatcher | undefined
  private liveQueued = false
  /** A change arrived while a live refresh ran: run once more when it ends. */
  private liveAgain = false

  constructor(
    private homes: OpenHome[],
    private readonly agents: readonly AgentDefinition[],
    private readonly ctx: ReadContext,
    private readonly options: LibraryOptions = {},
  ) {
    const path = options.catalogPath ?? ':memory:'
    this.db = openCatalog(path)
    this.store = new CatalogStore(this.db)
    const ro: RefresherOptions = { dbPath: path }
    if (options.workers !== undefined) ro.workers = options.workers
    if (options.workerThreshold !== undefined) ro.workerThreshold = options.workerThreshold
    if (options.archive) ro.archive = archiveHook(options.archive, agents)
    this.refresher = new Refresher(this.store, agents, ctx, ro)
  }

  /** The homes currently open. */
  get openHomes(): readonly OpenHome[] {
    return this.homes
  }

  /** Home paths in priority order (a session found under two homes comes from the first). */
  get homePaths(): string[] {
    return this.homes.map((h) => h.layout.home)
  }

  /** Replace the open homes. */
  setHomes(homes: OpenHome[]): void {
    this.homes = homes
    this.built = undefined
    this.live?.close()
    this.live = undefined
  }

  /** True when every open home was indexed once (for `agents`, default all). */
  isIndexed(agents?: readonly AgentId[]): boolean {
    return this.refresher.isIndexed(this.homes, agents)
  }

  /**
   * Refresh the catalog for the open homes (only `agents` when given) and wait for the sessions
   * to be written; the search phase goes on in the background ({@link whenIdle}).
   */
  refresh(agents?: readonly AgentId[], options: RefreshOptions = {}): Promise<RefreshResult> {
    this.built = undefined
    const key = this.homePaths.join('\u0000')
    const run = this.refresher.refresh([...this.homes], agents, options)
    // A whole refresh of these homes is what a one-shot host's first load waits for: after it the
    // first load answers from the catalog instead of discovering every store again (`sepia search`
    // refreshed, then its search's load refreshed a second time; issue 15).
    if (!agents) void run.then(() => this.freshFor.add(key), () => undefined)
    return run
  }

  /**
   * {@link refresh}, but a catalog that cannot be written (busy past the timeout, disk full) does not
   * fail the command: the catalog answers as it is and `status().error` says why (issue 14).
   * Resolves as soon as the sessions can be listed: after a lighter first pass (a cold index on
   * workers, `catalog/rows.ts`) the message rows and the search index are still being written
   * (`whenIdle` waits for them; search results say `partial` meanwhile).
   */
  private refreshOrGoOn(full = false): Promise<void> {
    return new Promise((resolve) => {
      this.refresh(undefined, { full, onListed: resolve }).then(
        () => resolve(),
        // recorded in status().error by the refresher
        () => resolve(),
      )
    })
  }

  /** Wait until no refresh and no search indexing is running. */
  whenIdle(): Promise<void> {
    return this.refresher.whenIdle()
  }

  /** Progress of the current (or last) refresh. */
  status(): IndexStatus {
    return this.refresher.status()
  }

  /** The library (see `SepiaApi.getLibrary`). `true` means `{refresh: true}`. */
  async load(options: boolean | LoadOptions = {}): Promise<Library> {
    const o: LoadOptions = typeof options === 'boolean' ? { refresh: options } : options
    if (await this.refreshForLoad(o)) return this.build()
    // Warm start (or partial): answer from the catalog first, then look for changed files.
    const library = await this.build()
    this.backgroundForLoad()
    return library
  }

  /**
   * What {@link load} does to the catalog (the refresh it waits for, or the background refresh it
   * starts), without building the library: search and live changes read the catalog, not the list
   * of 10k summaries (`sepia search` built it for nothing; issue 15).
   */
  async prepare(options: LoadOptions = {}): Promise<void> {
    if (!(await this.refreshForLoad(options))) this.backgroundForLoad()
  }

  /** The refresh a load waits for (resolves true when it ran one). */
  private async refreshForLoad(o: LoadOptions): Promise<boolean> {
    const first = this.options.refreshFirstLoad === true && !this.freshFor.has(this.homePaths.join('\u0000'))
    if (!(o.refresh || first || (!o.partial && !this.isIndexed()))) return false
    this.freshFor.add(this.homePaths.join('\u0000'))
    // A refresh the caller asked for discovers every store; the others skip agents whose
    // freshness snapshot says nothing changed (src/main/catalog/freshness.ts).
    await this.refreshOrGoOn(o.refresh === true)
    return true
  }

  /**
   * After a warm (or partial) load: look for changed files in the background — unless this
   * one-shot host refreshed these homes already (a second discovery of every store would only
   * keep the command running after its answer).
   */
  private backgroundForLoad(): void {
    if (!(this.options.refreshFirstLoad === true && this.freshFor.has(this.homePaths.join('\u0000')))) this.startBackground()
  }

  /** Start one background refresh per set of homes (warm start and partial loads). */
  private startBackground(): void {
    const key = this.homePaths.join('\u0000')
    if (this.background && this.backgroundKey === key) return
    this.backgroundKey = key
    this.background = this.refresh().catch(() => undefined)
  }

  /** Build the library from the catalog (cached until the catalog changes). */
  private async build(): Promise<Library> {
    const homes = this.homePaths
    const key = `${homes.join('\u0000')}\u0001${this.store.currentGen()}`
    const status = this.status()
    // The same object while nothing changed (callers, e.g. the secrets mask, cache by identity).
    // A refresh that ends without changing the catalog (nothing new, or only the search phase)
    // changes `index.running`: then a copy with the status of now, or the renderer, which reads
    // the library again when `index.running` says a refresh goes on, would poll in a loop.
    if (this.built?.key === key) {
      const was = this.built.library.index
      if (was?.running !== status.running || was?.phase !== status.phase) this.built = { key, library: { ...this.built.library, index: status } }
      return this.built.library
    }
    const { entries, recorded } = this.listEntries('text')
    const sessions = entries.map((e) => markMasked(e.summary ?? (JSON.parse(e.json) as SessionSummary)))
    const counts = new Map<string, number>()
    for (const s of sessions) counts.set(s.agent, (counts.get(s.agent) ?? 0) + 1)
    const agents: AgentInfo[] = this.agents.map((a) => ({ id: a.id, displayName: a.displayName, capabilities: a.capabilities, sessionCount: counts.get(a.id) ?? 0 }))
    const homeInfo: HomeInfo[] = this.homes.map((h) => ({ path: h.layout.home, os: h.layout.os, isDemo: h.isDemo }))
    const diagnostics = [...homes.flatMap((h) => this.refresher.problems.get(h) ?? []), ...recorded.diagnostics]
    // Flagged by name only: credential files are never opened (issue 9 item 7).
    const credentialFiles: CredentialFile[] = [...(await Promise.all(this.homes.map((h) => findCredentialFiles(h.layout)))).flat(), ...recorded.credentialFiles]
    const library: Library = { homes: homeInfo, agents, sessions, diagnostics, credentialFiles, loadedAt: this.ctx.now(), index: status }
    this.built = { key, library }
    return library
  }

  /**
   * The list's sessions from the catalog, newest first (a session under two homes from the first),
   * each as the JSON text of its masked summary (`summary` too when it was masked now), with the
   * rows' recorded diagnostics and credential files. Summaries are masked once and kept in the
   * catalog (catalog/summary-mask.ts), so the API's masking gate passes them through instead of
   * masking 10k summaries per list; a row masked now is stored (skipped when the catalog is busy).
   * `as: 'bytes'`: each JSON text is its UTF-8 bytes (a stored one as SQLite holds it, one masked
   * now encoded), for {@link listJson}.
   */
  private listEntries(as: 'bytes'): ListEntries<Buffer>
  private listEntries(as: 'text'): ListEntries<string>
  private listEntries(as: 'text' | 'bytes'): ListEntries<string | Buffer> {
    const homes = this.homePaths
    const masker = maskerKey()
    const rows: ListRow[] = as === 'bytes' ? this.store.listForList(homes, masker, 'bytes') : this.store.listForList(homes, masker, 'text')
    const order = new Map(homes.map((h, i) => [h, i]))
    rows.sort((a, b) => order.get(a.home)! - order.get(b.home)!)
    // Read with the rows (one pass over the table, not three).
    const diagnostics: Diagnostic[] = []
    const credentialFiles: CredentialFile[] = []
    const toSave: { sid: number; gen: number; json: string }[] = []
    const seen = new Set<string>()
    const entries: { json: string | Buffer; agent: AgentId; summary?: SessionSummary; at: number }[] = []
    for (const r of rows) {
      if (r.diagnostics) diagnostics.push(...parseList<Diagnostic>(r.diagnostics))
      if (r.credentials) credentialFiles.push(...parseList<CredentialFile>(r.credentials))
      const k = sessionKey(r.agent, r.sessionId)
      if (seen.has(k)) continue
      seen.add(k)
      if (r.masked !== undefined) entries.push({ json: r.masked, agent: r.agent, at: r.sortAt })
      else {
        const summary = maskValue(r.row!.summary).value
        const json = JSON.stringify(summary)
        toSave.push({ sid: r.sid, gen: r.gen, json })
        entries.push({ json: as === 'bytes' ? Buffer.from(json, 'utf8') : json, agent: r.agent, summary, at: r.sortAt })
      }
    }
    this.store.saveListMasked(toSave, masker)
    // The row's last_activity_at / created_at columns hold the summary's lastActivityAt / createdAt.
    entries.sort((a, b) => b.at - a.at)
    return { entries, recorded: { diagnostics, credentialFiles } }
  }

  /**
   * `sepia list --json` without building 10k summary objects: what {@link load} does to the
   * catalog, then the homes, the sessions (each the JSON of its masked summary as UTF-8 bytes,
   * newest first, as `load().sessions` lists them: the stored ones are never decoded, the CLI
   * writes them as they are), only `agent`'s when given (`sepia list --json --agent X`: the row's
   * agent column, no summary parsed), and the diagnostics (masked), ready to print.
   */
  async listJson(agent?: AgentId): Promise<{ homes: HomeInfo[]; sessions: Buffer[]; diagnostics: Diagnostic[] }> {
    await this.prepare()
    const { entries, recorded } = this.listEntries('bytes')
    const homes: HomeInfo[] = this.homes.map((h) => ({ path: h.layout.home, os: h.layout.os, isDemo: h.isDemo }))
    const diagnostics = [...this.homePaths.flatMap((h) => this.refresher.problems.get(h) ?? []), ...recorded.diagnostics]
    const kept = agent === undefined ? entries : entries.filter((e) => e.agent === agent)
    return { homes: maskValue(homes).value, sessions: kept.map((e) => e.json), diagnostics: maskValue(diagnostics).value }
  }

  /** True when the catalog lists a session under the open homes. */
  hasSessions(): boolean {
    return this.store.hasSessions(this.homePaths)
  }

  /** The catalog row of a session, indexing first when the homes were never indexed. */
  async find(agent: AgentId, id: string): Promise<CatalogSession> {
    let row = this.store.findSession(this.homePaths, agent, id)
    if (!row && !this.isIndexed()) {
      await this.refreshOrGoOn()
      row = this.store.findSession(this.homePaths, agent, id)
    }
    if (!row) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `No ${agent} session with id ${id} is in the open folders.` })
    return row
  }

  /** Read a session from its store (the last two are kept for paging), links applied. */
  private async readSession(agent: AgentId, id: string): Promise<Session> {
    const row = await this.find(agent, id)
    const key = sessionKey(agent, id)
    const stamp = this.stampOf(row)
    const hit = this.sessions.find((s) => s.key === key && s.stamp === stamp)
    if (hit) return hit.session
    const flight = `${key}\u0000${stamp}`
    const running = this.reading.get(flight)
    if (running) return running
    const read = this.readRow(row).then((session) => {
      const i = this.sessions.findIndex((s) => s.key === key)
      if (i >= 0) this.sessions.splice(i, 1)
      this.sessions.unshift({ key, stamp, session })
      this.sessions.length = Math.min(this.sessions.length, MAX_CACHED_SESSIONS)
      return session
    })
    this.reading.set(flight, read)
    try {
      return await read
    } finally {
      this.reading.delete(flight)
    }
  }

  private stampOf(row: CatalogSession): string {
    return `${row.home}\u0000${stampOf(row.ref)}\u0000${JSON.stringify(row.links)}`
  }

  /** The archive the library reads gone sessions from, if any. */
  get archive(): Archive | undefined {
    return this.options.archive
  }

  /**
   * Read a session whose source is gone from its archived copy: the files are written to a
   * temporary folder inside the archive, read with the agent's reader, and removed; the session's
   * `source.files` name the original paths.
   */
  private async readArchived(row: CatalogSession, def: AgentDefinition): Promise<Session> {
    const archive = this.options.archive
    if (!archive?.session(row.home, row.agent, row.sessionId)) throw new SepiaError({ code: 'READ_FAILED', message: `This session's files are gone and Sepia's archive has no copy of it.`, path: row.ref.files[0] })
    const { dir, ref } = await archive.extract(row.home, row.agent, row.sessionId)
    try {
      const session = rebasePaths(applyLinks(await def.read(ref, this.ctx), row.links), dir, row.home)
      session.source = { ...session.source, files: row.ref.files }
      return session
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  /** Read a catalog row's session from its store (`ref` may point at a head copy), links applied. */
  private async readRow(row: CatalogSession, ref = row.ref): Promise<Session> {
    const def = this.agents.find((a) => a.id === row.agent)
    if (!def) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `Sepia cannot read "${row.agent}" sessions yet.` })
    try {
      if (row.summary.archived) return await this.readArchived(row, def)
      return applyLinks(await def.read(ref, this.ctx), row.links)
    } catch (e) {
      throw SepiaError.from(e).code === 'INTERNAL'
        ? new SepiaError({ code: 'READ_FAILED', message: `Could not read this session: ${e instanceof Error ? e.message : String(e)}`, path: row.ref.files[0] })
        : e
    }
  }

  /**
   * The nodes of the first `want` bytes of a large line-oriented transcript (read on to the end
   * of the line that holds byte `want - 1`), parsed by the agent's reader from a copy of that
   * prefix (`copyPrefix`: memory holds the prefix's nodes, not its bytes). Undefined when the
   * prefix would be the whole file, or on any failure (the caller then waits for the whole read).
   * Nodes near the cut may lack what later lines add (tool results, a reply's next records):
   * `getSessionPage` answers only pages that `settled` says are final.
   */
  private async readPrefix(row: CatalogSession, want: number): Promise<Prefix | undefined> {
    const file = row.ref.files[0]
    if (!file) return undefined
    let dir: string | undefined
    try {
      const bytes = await lineEndFrom(file, want)
      if (bytes === undefined || bytes >= row.ref.size) return undefined
      dir = await mkdtemp(join(tmpdir(), 'sepia-head-'))
      const since = performance.now()
      const copy = join(dir, basename(file))
      copyPrefix(file, copy, bytes)
      const session = await this.readRow(row, { ...row.ref, files: [copy, ...row.ref.files.slice(1)], size: bytes })
      session.source = { ...session.source, files: row.ref.files }
      return { bytes, session, rate: bytes / Math.max(1, performance.now() - since) }
    } catch {
      return undefined
    } finally {
      if (dir !== undefined) await rm(dir, { recursive: true, force: true })
    }
  }

  /**
   * A page of a large transcript from prefix reads while its whole read runs (started here once
   * per session and stamp): the first prefix is the head (`HEAD_BYTES`); a page past it makes the
   * next prefix, sized from the bytes per node seen so far (2 to 4 times the last, so the reads
   * cost at most twice the largest prefix). Concurrent pages share the prefix reads, and
   * only the latest prefix is kept. Undefined when the page must wait for the whole read: its
   * prefix would pass `PREFIX_MAX_SHARE` of the file, the whole read is likely there first (it
   * reads at about the last prefix read's pace, both on this thread), or the page is not final in
   * any prefix.
   */
  private async pageFromPrefix(row: CatalogSession, offset: number, end: number, options: PageOptions): Promise<SessionPage | undefined> {
    const flight = `${sessionKey(row.agent, row.sessionId)}\u0000${this.stampOf(row)}`
    let state = this.prefixes.get(flight)
    if (!state) {
      const made: PrefixState = { latest: this.readPrefix(row, this.options.prefix?.headBytes ?? HEAD_BYTES), done: false }
      state = made
      this.prefixes.set(flight, made)
      // Then the whole session, for the complete view; the prefixes are dropped once it is there.
      void made.latest
        .then(() => this.options.prefix?.wholeReadAfter)
        .then(() => {
          made.wholeSince = performance.now()
          return this.readSession(row.agent, row.sessionId)
        })
        .catch(() => undefined)
        .finally(() => {
          made.done = true
          if (this.prefixes.get(flight) === made) this.prefixes.delete(flight)
        })
    }
    const most = Math.min(row.ref.size * PREFIX_MAX_SHARE, PREFIX_MAX_BYTES)
    for (;;) {
      const current = state.latest
      const prefix = await current
      if (!prefix) return undefined
      const nodes = prefix.session.nodes
      const verdict = settled(nodes, offset, end)
      if (verdict === 'final') {
        // Masked and cut as `pageOf(maskSession(whole))` would: masking is value by value.
        const page = pageOf(maskSession({ ...prefix.session, nodes: nodes.slice(offset, end) }), { ...options, offset: 0 })
        return { ...page, offset, totalNodes: row.nodeCount, stats: statsOf(prefix.session), partial: true }
      }
      if (verdict === 'never' || state.done) return undefined
      if (state.latest === current) {
        const perNode = nodes.length > 0 ? prefix.bytes / nodes.length : prefix.bytes
        if (prefix.bytes >= most) return undefined
        const next = Math.ceil(Math.min(Math.max(perNode * (end + PREFIX_MARGIN_NODES) * 1.25, prefix.bytes * 2), prefix.bytes * 4, most))
        // The whole read, at about the same pace, is likely past `next` by now: wait for it.
        if (state.wholeSince !== undefined && next + prefix.rate * (performance.now() - state.wholeSince) >= row.ref.size) return undefined
        state.latest = this.readPrefix(row, next)
      }
    }
  }

  /**
   * One session of the library, its secrets masked (`maskSessionSliced`: in slices between turns
   * of the event loop, cached) unless `options.reveal` asks for the session as read — only
   * `SepiaApi.revealSecrets` does. Everything that sends a session out of main (API, exports,
   * convert) therefore gets the masked copy by default (issue 9 item 7). Rejects with
   * `SESSION_NOT_FOUND`.
   */
  async getSession(agent: AgentId, id: string, options?: { reveal?: boolean }): Promise<Session> {
    const session = await this.readSession(agent, id)
    return options?.reveal === true ? session : maskSessionSliced(session)
  }

  /**
   * One page of a session (see `SepiaApi.getSessionPage`), secrets masked. A large JSONL
   * transcript not read yet (from `prefix.minSize`, 16 MiB) is read whole in the background, and
   * meanwhile a page is answered from a prefix of its file (`pageFromPrefix`) once the prefix
   * holds `PREFIX_MARGIN_NODES` more nodes and the page's tool calls are answered: its nodes are
   * then the whole read's (the tests compare them), `partial: true` says that the header, the
   * counts and `totalNodes` (the catalog's) are not final yet. Once a session is read, its whole
   * masked copy is made in slices (`maskSessionSliced`; 1.15 s in one go for 200 MB held every
   * page asked meanwhile, BENCHMARKS.md "Renderer, session 12"); until it is there a page is
   * `pageWhileMasking`'s, then `pageOf(maskSession(whole))`.
   */
  async getSessionPage(agent: AgentId, id: string, options: PageOptions = {}): Promise<SessionPage> {
    const row = await this.find(agent, id)
    const cached = this.sessions.some((s) => s.key === sessionKey(agent, id) && s.stamp === this.stampOf(row))
    const offset = options?.offset ?? 0
    const limit = options?.limit ?? DEFAULT_PAGE
    const minSize = this.options.prefix?.minSize ?? HEAD_MIN_SIZE
    if (!cached && options?.nodeId === undefined && Number.isInteger(offset) && Number.isInteger(limit) && offset >= 0 && limit >= 1 && row.ref.size >= minSize && row.ref.files[0]?.endsWith('.jsonl') && offset < row.nodeCount) {
      const page = await this.pageFromPrefix(row, offset, Math.min(offset + Math.min(limit, MAX_PAGE), row.nodeCount), options)
      if (page) return page
    }
    const session = await this.readSession(agent, id)
    const masked = maskedSessionOf(session)
    if (masked) return pageOf(masked, options)
    // A session under `minSize` (or of few nodes) is masked in a few slices: wait for the exact page.
    const whole = maskSessionSliced(session)
    const small = row.ref.size < minSize || session.nodes.length < LARGE_SESSION_NODES
    const wait = small ? (this.options.maskWaitMs ?? MASK_WAIT_MS) : 0
    const done = wait > 0 ? await Promise.race([whole, after(wait)]) : undefined
    if (done) return pageOf(done, options)
    whole.catch(() => undefined)
    return pageWhileMasking(session, options)
  }

  /** Find text in one session (see `SepiaApi.findInSession`), over the masked copy (`maskSessionSliced`). */
  async findInSession(agent: AgentId, id: string, query: string, options?: FindOptions): Promise<FindResult> {
    return findIn(await maskSessionSliced(await this.readSession(agent, id)), query, options ?? {})
  }

  /**
   * One whole node of a session, secrets masked: the node of the whole masked copy when it is
   * made, else the node masked alone (the same copy: masking is value by value, and a node sits
   * under no data key). Rejects `SESSION_NOT_FOUND` for an unknown node.
   */
  async getSessionNode(agent: AgentId, id: string, nodeId: string): Promise<MessageNode> {
    const session = await this.readSession(agent, id)
    const masked = maskedSessionOf(session)
    if (masked) return wholeNode(masked, nodeId)
    return maskValue(wholeNode(session, nodeId)).value
  }

  /**
   * Sessions changed since `token` (see `SepiaApi.getChanges`). The first call starts watching
   * the stores of the open homes.
   */
  async changes(token?: string): Promise<ChangeSet> {
    this.startLive()
    const gen = this.store.currentGen()
    const since = token !== undefined && /^\d+$/.test(token) ? Number(token) : undefined
    // Every catalog write and removal takes a new gen (`CatalogStore.nextGen`), so a token equal to
    // the current gen means nothing changed: answer without the query, which the renderer's ~2 s poll
    // otherwise ran over every session row (6-7% of a core while idle at 10k sessions; issue 15).
    if (since === undefined || since >= gen) return { token: String(gen), changedSessions: [], removedSessions: [], index: this.status() }
    const homes = this.homePaths
    const changed = this.store.changedSince(homes, since)
    const order = new Map(homes.map((h, i) => [h, i]))
    changed.sort((a, b) => order.get(a.home)! - order.get(b.home)!)
    const seen = new Set<string>()
    const changedSessions: SessionSummary[] = []
    for (const r of changed) {
      const k = sessionKey(r.agent, r.sessionId)
      if (!seen.has(k)) changedSessions.push(r.summary)
      seen.add(k)
    }
    const removedSessions = this.store.removedSince(homes, since).filter((r) => !seen.has(sessionKey(r.agent, r.sessionId))).map((r) => ({ agent: r.agent, id: r.sessionId }))
    return { token: String(gen), changedSessions, removedSessions, index: this.status() }
  }

  /** Watch the stores of the open homes; a change schedules an incremental refresh. */
  startLive(): void {
    if (this.live) return
    const opts: { debounceMs?: number; pollMs?: number } = {}
    if (this.options.liveDebounceMs !== undefined) opts.debounceMs = this.options.liveDebounceMs
    if (this.options.livePollMs !== undefined) opts.pollMs = this.options.livePollMs
    const live = new LiveWatcher(() => this.liveRefresh(), opts)
    this.live = live
    this.rewatch()
    // Started during the first index: the catalog lists only what is indexed so far, so watch the
    // project folders of the rest once the running refresh ends.
    void this.whenIdle()
      .catch(() => undefined)
      .then(() => {
        if (this.live === live) this.rewatch()
      })
  }

  private rewatch(): void {
    this.live?.watch(watchRoots(this.homes, this.store.listSessions(this.homePaths)))
  }

  /** One incremental refresh at a time; a change arriving during it runs one more afterwards. */
  private liveRefresh(): void {
    if (this.liveQueued) {
      this.liveAgain = true
      return
    }
    this.liveQueued = true
    this.liveAgain = false
    void this.refresh()
      .catch(() => undefined)
      .finally(() => {
        this.liveQueued = false
        if (!this.live) return
        this.rewatch()
        if (this.liveAgain) this.liveRefresh()
      })
  }

  /**
   * Stop watching and close the catalog at once, for a process about to exit (`sepia serve`
   * stopped): SQLite checkpoints the write-ahead log into the file when this is its last
   * connection (a worker still writing keeps the log; the next open recovers it). Calls after
   * this one find the catalog closed.
   */
  closeNow(): void {
    this.live?.close()
    this.live = undefined
    if (this.db.open) this.db.close()
  }

  /** Stop watching and close the catalog (after running work finished). */
  async close(): Promise<void> {
    this.live?.close()
    this.live = undefined
    await this.whenIdle().catch(() => undefined)
    this.db.close()
  }
}

/**
 * A page of a session read whole whose masked copy is still being made (`maskSessionSliced`): the
 * page's nodes and the header masked on their own, as the prefix pages are (masking is value by
 * value, so they are `pageOf(maskSession(session))`'s; library-mask-page.test.ts compares every
 * page), `totalNodes` and `stats` the session's (masking changes no count, role or number), and
 * `partial: true`, since `session.maskedSecrets` counts the header's and this page's secrets only.
 * Rejects `BAD_ARGUMENT` for bad options, as `pageOf` does.
 */
export function pageWhileMasking(session: Session, options: PageOptions): SessionPage {
  const { offset, limit } = pageRange(session, options)
  const { nodeId: _nodeId, ...rest } = options
  const page = pageOf(maskSession({ ...session, nodes: session.nodes.slice(offset, offset + limit) }), { ...rest, offset: 0 })
  return { ...page, offset, totalNodes: session.nodes.length, stats: statsOf(session), partial: true }
}

/**
 * Whether nodes `[offset, end)` of a prefix's parse are the whole read's: `'final'` when the
 * prefix holds `PREFIX_MARGIN_NODES` nodes past `end` and every tool call of the page has its
 * result (`pairToolCalls` set a status other than pending), no result is an orphan and no parent
 * link is missing (all three could be answered by a later line); `'short'` when a longer prefix
 * may say so; `'never'` when the margin is there and the page is still not final (a call never
 * answered, a link to a later line): only the whole read can tell.
 */
function settled(nodes: readonly MessageNode[], offset: number, end: number): 'final' | 'short' | 'never' {
  if (nodes.length < end + PREFIX_MARGIN_NODES) return 'short'
  for (let i = offset; i < end; i++) {
    const n = nodes[i]!
    if (n.metadata?.missingParentUuid !== undefined || n.metadata?.orphan === true) return 'never'
    for (const c of n.toolCalls ?? []) if (c.status === 'pending' || c.status === 'in_progress') return 'never'
  }
  return 'final'
}

/** Resolves to undefined after `ms` (a timer that does not keep the process alive). */
function after(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref())
}

/**
 * The length of `path`'s prefix that ends with the line holding byte `want - 1` (its `\n`
 * included), or undefined when no line end follows (the file's last line). Reads 64 KiB at a time.
 */
async function lineEndFrom(path: string, want: number): Promise<number | undefined> {
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(64 << 10)
    for (let at = Math.max(0, want - 1); ; ) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, at)
      if (bytesRead === 0) return undefined
      const nl = buf.subarray(0, bytesRead).indexOf(0x0a)
      if (nl >= 0) return at + nl + 1
      at += bytesRead
    }
  } finally {
    await fh.close()
  }
}

/**
 * Copy the first `bytes` of `from` to a new file `to`, 4 MiB at a time with synchronous calls: a
 * stream's chunks each wait for a turn of the event loop, and beside a whole read on this thread
 * (which gives a turn once per MiB it parses) an 11 MB copy took ~1.5 s (bench/renderer.ts).
 */
function copyPrefix(from: string, to: string, bytes: number): void {
  const src = openSync(from, 'r')
  try {
    const dst = openSync(to, 'wx')
    try {
      const buf = Buffer.allocUnsafe(Math.min(bytes, 4 << 20))
      for (let at = 0; at < bytes; ) {
        const n = readSync(src, buf, 0, Math.min(buf.length, bytes - at), at)
        if (n === 0) throw new Error('the file got shorter while it was copied')
        for (let w = 0; w < n; ) w += writeSync(dst, buf, w, n - w)
        at += n
      }
    } finally {
      closeSync(dst)
    }
  } finally {
    closeSync(src)
  }
}

/** A JSON array column (diagnostics, credential files); empty when it does not parse. */
function parseList<T>(text: string): T[] {
  try {
    const v = JSON.parse(text) as unknown
    return Array.isArray(v) ? (v as T[]) : []
  } catch {
    return []
  }
}

/** The key of a session in the library: `<agent>/<id>`. */
export function sessionKey(agent: AgentId, id: string): string {
  return `${agent}/${id}`
}
