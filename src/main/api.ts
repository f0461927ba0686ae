/**
 * `createApi(context)`: the one implementation of {@link SepiaApi}. Both transports (IPC, loopback
 * HTTP) and the CLI call it; they add no logic of their own.
 */
import { stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { SepiaError, type AppInfo, type Library, type SepiaApi } from '../shared/api'
import { IR_VERSION, isAgentId, type AgentId, type Session } from '../shared/ir'
import { AGENTS } from './agents/registry'
import type { ReadContext } from './agents/types'
import { demoHomes, type AppContext } from './context'
import { normalizeHomeInput } from './home-path'
import { LibraryService, type OpenHome } from './library'
import { layoutForHome } from './platform'
import { guardAgents, layoutRoots, PathPolicy, type RootReason } from './paths'
import { maskApiResults } from './secrets'
import { TaskRegistry } from './bundle/tasks'
import type { CheckpointLocation } from '../shared/checkpoints'
import type { ConvertOptions } from '../shared/convert'
import { CATALOG_FILE, privateDir } from './catalog/schema'
import { createCatalogMethods } from './catalog/service'
import { createTimelineMethods } from './timeline/api'
import { Archive } from './archive/archive'
import { createArchiveMethods } from './archive/service'
import type { InterruptedWrite } from '../shared/health'
import { readRecoveryNotes, recoverWriteJobs } from './util/write-recovery'
import { checkpointRecovery } from './checkpoints/recover'
import type { Services } from './api-services'

/** The API plus what hosts need beyond the contract. */
export interface SepiaService extends SepiaApi {
  /** The library service (tests and the CLI read sessions through it). */
  readonly library: LibraryService
  /**
   * The folders paths from the renderer may name (opened homes, session files, project folders,
   * the app data folder, folders the user picked). Every method taking a path calls
   * `paths.check(p)` before touching it (issue 9 item 6).
   */
  readonly paths: PathPolicy
  /** Open the start homes (what the first call of any method does), for hosts such as the CLI. */
  ready(): Promise<void>
  /**
   * Finish or clean the write jobs a killed Sepia left in the journal of the data folder
   * (`util/write-recovery.ts`); once per process (later calls return the first result). The host
   * start, each CLI command that writes and the first library open call it.
   */
  recoverWrites(): Promise<InterruptedWrite[]>
  /** At start (the Electron app): check for updates when, and only when, the user turned them on. */
  startUpdatesIfOn(): Promise<void>
}

/**
 * Build the API for one host. Opening homes is lazy: the first `getLibrary()` reads the stores.
 */
export function createApi(context: AppContext): SepiaService {
  const ctx: ReadContext = { now: context.now ?? Date.now }
  // Discovery skips session files that link out of the opened home (reported, not followed).
  // The catalog (src/main/catalog/) lives in the app data folder; in memory when the host gives none.
  // One-shot hosts (the CLI, `serve`) refresh changed files before their first answer; the app answers from the catalog at once.
  // The archive (issue 19, src/main/archive/) lives in the app data folder; it covers only the own home.
  const archive = new Archive(context.appDataDir ?? join(tmpdir(), `sepia-data-${process.pid}`), ctx.now)
  const library = new LibraryService([], guardAgents(AGENTS), ctx, { refreshFirstLoad: context.mode !== 'electron', archive, ...(context.appDataDir ? { catalogPath: join(context.appDataDir, CATALOG_FILE) } : {}) })
  let initialised = false
  // Read roots: the opened homes, their sessions' files and recorded project folders. None of them
  // is a write root (issue 16): writes go through `paths.checkWrite` (src/main/paths.ts).
  const paths = new PathPolicy(async () => {
    const roots: [string, RootReason][] = library.openHomes.flatMap((h) => layoutRoots(h.layout).map((p): [string, RootReason] => [p, 'home']))
    if (!initialised) return roots
    for (const s of (await library.load()).sessions) {
      for (const f of s.files) roots.push([f, 'session-file'])
      if (s.workingDirectory) roots.push([s.workingDirectory, 'project'])
    }
    return roots
  })
  if (context.appDataDir) paths.allow(context.appDataDir, 'app-data')
  // Sepia's data folder (catalog, restores, exports, bundles) is private to the user (issue 16).
  if (context.appDataDir) privateDir(context.appDataDir)
  const appDataDir = context.appDataDir ?? join(tmpdir(), `sepia-data-${process.pid}`)
  // Shared by exports and review bundles: progress and cancellation of their tasks.
  const tasks = new TaskRegistry()
  const revealed = new Set<string>()
  // Checkpoints, exports and bundles, moves, convert, "Open in terminal", preferences, health
  // (src/main/api-services.ts): loaded with their first call, so a listing or a search never
  // compiles them (issue 15). One promise for all, made once: a method called while it loads (a
  // task's progress asked for right after the call that starts it) runs after the earlier calls.
  // `built`: the services once made. Before, no review bundle is open (only `bundles.prepare`
  // opens one), so `getLibrary` has none to add and `openDemo` none to forget.
  let built: Services | undefined
  let loading: Promise<{ s: Services; m: typeof import('./api-services') }> | undefined
  const services = (): Promise<{ s: Services; m: typeof import('./api-services') }> =>
    (loading ??= import('./api-services').then((m) => ({
      m,
      s: (built = m.createServices({
        context, library, agents: guardAgents(AGENTS), allAgents: AGENTS, ctx, paths, tasks, appDataDir, init: () => init(),
        // Secrets stay masked in the converted session by default (issue 9, item 7); a session the
        // user revealed (revealSecrets) converts as revealed. Results are masked like every other method's.
        convertSource: (agent, id) => library.getSession(agent, id, { reveal: revealed.has(`${agent}/${id}`) }),
        targetLayout: (home) => (home ? layoutForHome({ home }) : layoutForHome({ home: context.ownHome, env: context.env, isOwnHome: true, os: context.platform })),
      })),
    })))
  const svc = async (): Promise<Services> => (await services()).s
  /**
   * A target home the renderer names is a write target: picked, granted, or the user's own home
   * (the agent store of the user's own home is the default target of a convert). `write: false`
   * (the plan) checks the same without using up the grant.
   */
  async function checkedConvert(options: ConvertOptions | undefined, write: boolean): Promise<ConvertOptions | undefined> {
    if (!options || typeof options !== 'object' || options.targetHome === undefined) return options
    const own = [resolve(context.ownHome)]
    const targetHome = await paths.checkWrite(options.targetHome, 'The folder to write into', { operation: 'convert', grant: options.grant, extra: own, consume: write })
    return { ...options, targetHome }
  }
  /**
   * Folders the renderer names for a restore pass the path policy before the checkpoint module
   * sees them: `repoDir` is read; `targetDir` is read for a list or preview (a grant for it counts)
   * and a write target for the restore itself (`write`: picked or granted, the grant used up).
   */
  async function checkedLocation<T extends CheckpointLocation>(options: T | undefined, write = false): Promise<T | undefined> {
    if (!options || typeof options !== 'object') return options
    const out = { ...options }
    if (out.targetDir) {
      out.targetDir = write
        ? await paths.checkWrite(out.targetDir, 'The folder to restore into', { operation: 'restore', grant: out.grant })
        : await paths.checkRead(out.targetDir, 'The folder to restore into', { token: out.grant, operation: 'restore' })
    }
    if (out.repoDir) out.repoDir = await paths.check(out.repoDir, 'The repository folder')
    return out
  }

  async function openPaths(paths: string[], isDemo: boolean, isOwnHome: boolean): Promise<OpenHome[]> {
    const out: OpenHome[] = []
    for (const p of paths) {
      // The own home follows this machine's OS; a copied home's layout is detected from its content.
      const layout = await layoutForHome(isOwnHome ? { home: p, env: context.env, isOwnHome, os: context.platform } : { home: p })
      out.push({ layout, isDemo })
    }
    return out
  }

  // Interrupted writes (issue 16): recovered once per process, before the first library open.
  let recovering: Promise<InterruptedWrite[]> | undefined
  const recoverWrites = (): Promise<InterruptedWrite[]> =>
    (recovering ??= recoverWriteJobs(appDataDir, checkpointRecovery(appDataDir, ctx.now), ctx.now).catch(() => []))

  // One first opening for every caller: the renderer asks for the library, the archive status and
  // the retention warnings at once, and each must wait for the same homes (own home, else demo).
  let initialising: Promise<void> | undefined
  function init(): Promise<void> {
    if (initialised) return Promise.resolve()
    return (initialising ??= openFirst())
  }
  async function openFirst(): Promise<void> {
    await recoverWrites()
    // openHome/openDemo may have opened homes meanwhile: they win.
    if (initialised) return
    if (context.homes.length > 0) {
      for (const h of context.homes) await checkFolder(h)
      if (initialised) return
      library.setHomes(await openPaths(context.homes, false, false))
      initialised = true
      return
    }
    library.setHomes(await openPaths([context.ownHome], false, true))
    // The catalog refreshed as a load would, without building the list (`sepia list --json` builds none).
    await library.prepare()
    if (initialised) return
    if (!library.hasSessions()) library.setHomes(await openPaths(demoHomes(context.fixturesDir), true, false))
    initialised = true
  }

  const api: SepiaService = {
    library,
    // Search, usage and cost, index progress, live changes, paged transcripts (src/main/catalog/service.ts).
    ready: () => init(),
    recoverWrites,
    ...createCatalogMethods({ library, init: () => init(), ...(context.appDataDir ? { appDataDir: context.appDataDir } : {}) }),
    // Archive, put back and retention warnings (issue 19): src/main/archive/service.ts.
    ...createArchiveMethods({ archive, library, init: () => init(), now: ctx.now }),
    // Timeline (rows, CSV/JSONL export) and the agent settings view: src/main/timeline/api.ts.
    ...createTimelineMethods({ library, agents: guardAgents(AGENTS), ctx, init: () => init(), paths }),
    paths,
    async getAppInfo(): Promise<AppInfo> {
      return { name: 'Sepia', version: context.version, mode: context.mode, irVersion: IR_VERSION, platform: context.platform }
    },
    async getLibrary(options?: { refresh?: boolean; partial?: boolean }): Promise<Library> {
      await init()
      const lib = await library.load({ refresh: options?.refresh === true, partial: options?.partial === true })
      return built ? built.bundles.decorate(lib) : lib
    },
    async openHome(path: string): Promise<Library> {
      if (typeof path !== 'string' || path.trim() === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Give the path of a folder to open.' })
      // `~`, file:// URLs, an agent folder picked instead of its home (src/main/home-path.ts).
      const input = normalizeHomeInput(path, context.ownHome, context.platform)
      const abs = input.path
      // A folder, a review bundle (folder or zip) or one store file (src/main/bundle/open.ts).
      await recoverWrites()
      const { bundles } = await svc()
      const prepared = await bundles.prepare(abs)
      initialised = true
      library.setHomes(await openPaths([prepared.home], false, prepared.kind === 'folder' && abs === resolve(context.ownHome)))
      const opened = await bundles.opened(abs, prepared, await library.load())
      return input.note ? { ...opened, notices: [...(opened.notices ?? []), input.note] } : opened
    },
    async openDemo(): Promise<Library> {
      initialised = true
      built?.bundles.clear()
      library.setHomes(await openPaths(demoHomes(context.fixturesDir), true, false))
      return library.load()
    },
    async getSession(agent: AgentId, id: string): Promise<Session> {
      if (!isAgentId(agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(agent)}" is not an agent Sepia knows.` })
      if (typeof id !== 'string' || id === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A session id is required.' })
      await init()
      return library.getSession(agent, id)
    },
    exportSessions: async (request) => (await svc()).exporter.exportSessions(request),
    exportSessionContent: async (agent, id, format, options) => (await svc()).exporter.exportSessionContent(agent, id, format, options),
    collectForReview: async (request) => (await svc()).bundles.collectForReview(request),
    getRecentHomes: async () => (await svc()).bundles.getRecentHomes(),
    getTaskProgress: async (taskId) => (await svc()).bundles.getTaskProgress(taskId),
    cancelTask: async (taskId) => (await svc()).bundles.cancelTask(taskId),
    async pickFolder(): Promise<string | null> {
      const picked = context.pickFolder ? await context.pickFolder() : null
      if (picked) paths.allow(picked, 'picked')
      return picked
    },
    async approveFolder(path, operation) {
      const g = paths.approve(path, operation)
      return { token: g.token, path: g.path }
    },
    async revealSecrets(agent: AgentId, id: string): Promise<Session> {
      if (!isAgentId(agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(agent)}" is not an agent Sepia knows.` })
      if (typeof id !== 'string' || id === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A session id is required.' })
      await init()
      revealed.add(`${agent}/${id}`)
      return library.getSession(agent, id, { reveal: true })
    },
    async hideSecrets(agent: AgentId, id: string): Promise<boolean> {
      if (!isAgentId(agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(agent)}" is not an agent Sepia knows.` })
      if (typeof id !== 'string' || id === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A session id is required.' })
      return revealed.delete(`${agent}/${id}`)
    },
    async listCheckpoints(agent, sessionId, options) {
      await init()
      const location = await checkedLocation(options)
      return (await svc()).checkpoints.list(agent, sessionId, location)
    },
    async previewRestore(agent, sessionId, checkpointId, options) {
      await init()
      const location = await checkedLocation(options)
      return (await svc()).checkpoints.preview(agent, sessionId, checkpointId, location)
    },
    async restoreCheckpoint(agent, sessionId, checkpointId, options) {
      await init()
      const location = await checkedLocation(options, true)
      const { checkpoints } = await svc()
      if (!location?.targetDir) {
        // The recorded project folder came from the store: restoring there needs the user's
        // "Allow once" for it (a grant), like a typed folder. Without a default the service says why.
        const list = await checkpoints.list(agent, sessionId, location)
        if (list.defaultTarget) {
          const targetDir = await paths.checkWrite(list.defaultTarget, 'The project folder', { operation: 'restore', grant: location?.grant })
          return checkpoints.restore(agent, sessionId, checkpointId, { ...location, targetDir })
        }
      }
      return checkpoints.restore(agent, sessionId, checkpointId, location)
    },
    async undoRestore(restoreId) {
      return (await svc()).checkpoints.undo(restoreId)
    },
    async listRestores() {
      return (await svc()).checkpoints.restores()
    },
    async convertTargets(agent, id, options) {
      await init()
      return (await svc()).converter.targets(agent, id, options)
    },
    async planConvert(agent, id, target, options) {
      await init()
      const checked = await checkedConvert(options, false)
      return (await svc()).converter.plan(agent, id, target, checked)
    },
    // Reading health and "Report a problem" (issue 14): src/main/health/.
    async getHealth() {
      await init()
      const { m } = await services()
      const report = await m.computeHealth(library.openHomes.map((h) => h.layout), guardAgents(AGENTS), ctx)
      const interrupted = readRecoveryNotes(appDataDir).reverse().slice(0, 10)
      return interrupted.length ? { ...report, interruptedWrites: interrupted } : report
    },
    async reportProblem(path: string, outDir?: string | null) {
      await init()
      if (typeof path !== 'string' || path === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Give the path of the file to report.' })
      const file = await paths.check(path, 'The file to report')
      const dir = outDir === undefined || outDir === null || outDir === '' ? join(appDataDir, 'reports') : await paths.check(outDir, 'The folder to write the report into')
      const { m } = await services()
      return m.writeProblemReport(file, dir, library.openHomes.map((h) => h.layout.home), ctx.now())
    },
    bundleSession: async (...a) => (await svc()).mover.bundleSession(...a),
    installBundle: async (...a) => (await svc()).mover.installBundle(...a),
    moveSession: async (...a) => (await svc()).mover.moveSession(...a),
    async convertSession(agent, id, target, options) {
      await init()
      const checked = await checkedConvert(options, true)
      const { converter, resumes } = await svc()
      const result = await converter.convert(agent, id, target, checked)
      // The new session shows up in the library when it was written into an open home.
      if (library.openHomes.some((h) => resolve(h.layout.home) === resolve(result.target.home))) await library.load(true)
      resumes.remember(result)
      return result
    },
    async openInTerminal(agent, sessionId) {
      return (await svc()).resumes.open(agent, sessionId)
    },
    getPreferences: async () => (await svc()).preferences.get(),
    setPreferences: async (patch) => (await svc()).preferences.set(patch),
    startUpdatesIfOn: async () => (await svc()).preferences.startIfOn(),
  }
  // Every result leaving main is masked, except the explicit reveal (src/main/secrets/api.ts).
  return maskApiResults(api)
}

async function checkFolder(path: string): Promise<void> {
  let st
  try {
    st = await stat(path)
  } catch {
    throw new SepiaError({ code: 'NOT_FOUND', message: `The folder ${path} does not exist. Check the path and try again.`, path })
  }
  if (!st.isDirectory()) throw new SepiaError({ code: 'NOT_A_DIRECTORY', message: `${path} is a file, not a folder. Choose the folder that contains it.`, path })
}
