/**
 * The API methods of issue 19 "Move to another machine or folder" (`bundleSession`,
 * `installBundle`, `moveSession`; contract in src/shared/api.ts, shapes in src/shared/move.ts), over
 * `bundle/move.ts` (gather, zip), `install.ts` and `move.ts`.
 *
 * Where they may write (src/main/paths.ts): a bundle zip only where `checkWrite` allows (a picked
 * folder, Sepia's data folder, or a one-time grant); an install into the agent store of the user's
 * own home or of a home the user picked or granted (like a convert's target); a move only within
 * the user's own home (a home opened to read is never written: {@link openedHomeRefusal}).
 */
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { SepiaError } from '../../shared/api'
import { isAgentId, type AgentId } from '../../shared/ir'
import type { BundleSessionRequest, BundleSessionResult, InstallBundleOptions, InstallBundleResult, MoveSessionOptions, MoveSessionResult } from '../../shared/move'
import type { AgentDefinition, ReadContext } from '../agents/types'
import { gatherMoveBundle, readMoveBundle, writeMoveBundle, type MoveBundle } from '../bundle/move'
import type { AppContext } from '../context'
import type { LibraryService } from '../library'
import type { PathPolicy } from '../paths'
import { layoutForHome, type HomeLayout } from '../platform'
import { installMoveBundle } from './install'
import { moveSession } from './move'
import { pathStyleOf } from './paths'

/** What the methods need. */
export interface MoveServiceDeps {
  context: AppContext
  library: LibraryService
  agents: readonly AgentDefinition[]
  paths: PathPolicy
  ctx: ReadContext
  appDataDir: string
  init(): Promise<void>
  newId?: () => string
}

/** The three methods. */
export interface MoveMethods {
  bundleSession(agent: AgentId, id: string, request: BundleSessionRequest): Promise<BundleSessionResult>
  installBundle(path: string, options?: InstallBundleOptions): Promise<InstallBundleResult>
  moveSession(agent: AgentId, id: string, options: MoveSessionOptions): Promise<MoveSessionResult>
}

const bad = (message: string): SepiaError => new SepiaError({ code: 'BAD_ARGUMENT', message })

/**
 * Why a session of `home` (a home opened to read, not the user's own) is not moved: plain words
 * for the app and the CLI alike.
 */
export function openedHomeRefusal(home: string): string {
  return `${home} is a home folder opened to read, not your own home: Sepia never writes into it, so it does not move a session there. To put a copy of the session into a home of your choice, make a session bundle of it and install that bundle with a target home.`
}

/** Build the methods. */
export function createMoveMethods(d: MoveServiceDeps): MoveMethods {
  const newId = d.newId ?? randomUUID
  const createdBy = `Sepia ${d.context.version}`
  const ownLayout = (): Promise<HomeLayout> => layoutForHome({ home: d.context.ownHome, env: d.context.env, isOwnHome: true, os: d.context.platform })

  const agentOf = (agent: AgentId): AgentDefinition => {
    if (!isAgentId(agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(agent)}" is not an agent Sepia knows.` })
    return d.agents.find((a) => a.id === agent) ?? (() => { throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `Sepia does not know the agent "${agent}".` }) })()
  }

  /** The open home a library session lives in. */
  const homeOf = async (agent: AgentId, id: string): Promise<{ layout: HomeLayout; isDemo: boolean }> => {
    if (typeof id !== 'string' || id === '') throw bad('A session id is required.')
    await d.init()
    const lib = await d.library.load()
    const s = lib.sessions.find((x) => x.agent === agent && x.id === id)
    if (!s) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `No ${agent} session ${id} is in the library.` })
    const open = d.library.openHomes.find((h) => resolve(h.layout.home) === resolve(s.home)) ?? d.library.openHomes[0]
    if (!open) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `No home holding session ${id} is open.` })
    return { layout: open.layout, isDemo: open.isDemo }
  }

  const reloadIfOpen = async (home: string): Promise<void> => {
    if (d.library.openHomes.some((h) => resolve(h.layout.home) === resolve(home))) await d.library.load({ refresh: true })
  }

  const notesFor = (project: string): string[] =>
    pathStyleOf(project) === (d.context.platform === 'win32' ? 'windows' : 'posix') && !existsSync(project)
      ? [`The folder ${project} does not exist on this computer yet: put the project there (clone or copy it) before resuming.`]
      : []

  return {
    async bundleSession(agent, id, request) {
      const def = agentOf(agent)
      if (!request || typeof request !== 'object' || typeof request.outPath !== 'string' || request.outPath.trim() === '') throw bad('Give the path of the .zip to write.')
      const outPath = await d.paths.checkWrite(request.outPath, 'The file to write the session bundle to', { operation: 'collect', grant: request.grant })
      const { layout } = await homeOf(agent, id)
      const bundle = await gatherMoveBundle({ layout, agent: def, sessionId: id, ctx: d.ctx, createdBy })
      const written = await writeMoveBundle(bundle, outPath)
      const m = bundle.manifest.move
      return { path: written.path, agent, sessionId: id, files: written.files, bytes: written.bytes, projectPath: m.projectPath, subagentIds: m.subagentIds, secretsIncluded: true }
    },

    async installBundle(path, options) {
      if (typeof path !== 'string' || path.trim() === '') throw bad('Give the path of the session bundle (.zip) to install.')
      const o = options ?? {}
      if (typeof o !== 'object') throw bad('The install options are an object.')
      if (o.project !== undefined && typeof o.project !== 'string') throw bad('project is a folder path.')
      await d.init()
      let layout: HomeLayout
      if (o.targetHome !== undefined) {
        const home = await d.paths.checkWrite(o.targetHome, 'The home to install into', { operation: 'convert', grant: o.grant, extra: [resolve(d.context.ownHome)] })
        layout = resolve(home) === resolve(d.context.ownHome) ? await ownLayout() : await layoutForHome({ home })
      } else layout = await ownLayout()
      const work = await mkdtemp(join(d.appDataDir, 'install-'))
      let bundle: MoveBundle
      try {
        bundle = await readMoveBundle(resolve(path.trim()), work)
      } finally {
        await rm(work, { recursive: true, force: true })
      }
      const result = await installMoveBundle({ bundle, layout, ...(o.project ? { project: o.project } : {}), now: d.ctx.now, newId, ctx: d.ctx })
      await reloadIfOpen(layout.home)
      const notes = notesFor(result.projectPath)
      return notes.length ? { ...result, notes } : result
    },

    async moveSession(agent, id, options) {
      const def = agentOf(agent)
      if (!options || typeof options !== 'object' || typeof options.toProject !== 'string' || options.toProject.trim() === '') throw bad('Give the new project folder (toProject).')
      if (options.removeOriginal !== undefined && typeof options.removeOriginal !== 'boolean') throw bad('removeOriginal must be true or false.')
      const { layout, isDemo } = await homeOf(agent, id)
      if (isDemo) throw bad('Demo sessions cannot be moved; open your own home first.')
      // The session's own store is written into (and, with removeOriginal, deleted from): only the
      // user's own home. A home opened to read (a copy from another computer, a review bundle) is
      // never written (README "Open a copied home folder"); installBundle with a targetHome is the
      // explicit way to write into another home.
      if (resolve(layout.home) !== resolve(d.context.ownHome)) throw bad(openedHomeRefusal(layout.home))
      const result = await moveSession({ layout, agent: def, sessionId: id, toProject: options.toProject.trim(), removeOriginal: options.removeOriginal === true, appDataDir: d.appDataDir, ctx: d.ctx, now: d.ctx.now, newId, createdBy })
      await reloadIfOpen(layout.home)
      const notes = notesFor(result.install.projectPath)
      return notes.length ? { ...result, install: { ...result.install, notes } } : result
    },
  }
}
