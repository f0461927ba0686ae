/**
 * Review bundles (issue "Review bundles"): "Collect for review" copies the agent stores of a home
 * into a folder or zip with a manifest (`collect.ts`, `plan.ts`, `rules.ts`); another Sepia opens
 * the folder, the zip or a single store file as a home (`open.ts`, `single.ts`); recently opened
 * homes are remembered (`recent.ts`); long calls report progress and can be cancelled (`tasks.ts`).
 * Session bundles (issue 19, `move.ts`): one session for another computer, installed by src/main/move/.
 *
 * This file is the review-bundle side of the API: `collectForReview`, `getRecentHomes`, `getTaskProgress`,
 * `cancelTask`, and what `openHome` needs to open a bundle, a zip or a single store file
 * (`prepare`, then `opened` to remember it and add the bundle's diagnostics to the library).
 * `api.ts` delegates here.
 */
import { resolve } from 'node:path'
import { SepiaError, type Library, type SepiaApi } from '../../shared/api'
import type { CollectRequest, CollectResult } from '../../shared/export'
import type { AgentDefinition, ReadContext } from '../agents/types'
import type { AppContext } from '../context'
import type { PathPolicy } from '../paths'
import { layoutForHome, type HomeLayout } from '../platform'
import { collectForReview } from './collect'
import { prepareHome, type PreparedHome } from './open'
import { getRecentHomes, rememberHome } from './recent'
import type { TaskHandle, TaskRegistry } from './tasks'
import { runWriteJob } from '../util/write-journal'

/** What the bundle methods need from the API. */
export interface BundleServiceDeps {
  context: AppContext
  library: { readonly openHomes: readonly { layout: HomeLayout; isDemo: boolean }[] }
  agents: readonly AgentDefinition[]
  ctx: ReadContext
  paths: PathPolicy
  tasks: TaskRegistry
  appDataDir: string
}

/** The bundle methods plus the `openHome` helpers. */
export interface BundleMethods extends Pick<SepiaApi, 'collectForReview' | 'getRecentHomes' | 'getTaskProgress' | 'cancelTask'> {
  /** Make a path the user opened ready to be read as a home (see `prepareHome`). */
  prepare(path: string): Promise<PreparedHome>
  /** Remember what was opened (recent list) and return the library with its bundle facts. */
  opened(path: string, prepared: PreparedHome, library: Library): Promise<Library>
  /** Add the open bundle's diagnostics and origin to a library (a new object; the input is kept). */
  decorate(library: Library): Library
  /** Forget the open bundle (another home or the demo was opened). */
  clear(): void
}

/** Build the bundle methods. */
export function createBundleMethods(d: BundleServiceDeps): BundleMethods {
  let current: PreparedHome | undefined

  const decorate = (library: Library): Library => {
    const c = current
    if (!c || !library.homes.some((h) => h.path === c.home)) return library
    return {
      ...library,
      homes: library.homes.map((h) => (h.path === c.home && c.openedFrom ? { ...h, openedFrom: c.openedFrom } : h)),
      diagnostics: [...c.diagnostics, ...library.diagnostics],
    }
  }

  /** The collect itself, run as a task (arguments checked first). */
  async function collect(request: CollectRequest, task: TaskHandle): Promise<CollectResult> {
    if (!request || typeof request !== 'object') throw bad('Say where to write the bundle.')
    if (request.target !== 'folder' && request.target !== 'zip') throw bad('The bundle target is "folder" or "zip".')
    if (request.includeCredentials !== undefined && typeof request.includeCredentials !== 'boolean') throw bad('includeCredentials must be true or false.')
    if (typeof request.outPath !== 'string' || request.outPath.trim() === '') throw bad('Give the path of the folder or zip to write.')
    const outPath = resolve(request.outPath.trim())
    await d.paths.checkWrite(outPath, 'The folder or zip to write the bundle to', { operation: 'collect', grant: request.grant })
    let layouts: HomeLayout[]
    if (request.homes !== undefined) {
      if (!Array.isArray(request.homes) || request.homes.length === 0) throw bad('homes is a list of home folders.')
      layouts = []
      for (const h of request.homes) {
        const abs = await d.paths.check(h, 'A home to collect')
        const own = abs === resolve(d.context.ownHome)
        layouts.push(await layoutForHome(own ? { home: abs, env: d.context.env, isOwnHome: true, os: d.context.platform } : { home: abs }))
      }
    } else {
      layouts = d.library.openHomes.filter((h) => !h.isDemo).map((h) => h.layout)
      if (layouts.length === 0) throw bad('Only the demo library is open; open a home folder to collect it.')
    }
    // A recorded write job (util/write-journal.ts): a kill leaves no temp file after the next start.
    return runWriteJob(d.appDataDir, 'collect', [outPath], () => collectForReview({
      layouts,
      target: request.target,
      outPath,
      includeCredentials: request.includeCredentials === true,
      agents: d.agents,
      ctx: d.ctx,
      createdBy: `Sepia ${d.context.version}`,
      onProgress: task.report,
      signal: task.signal,
    }))
  }

  return {
    async collectForReview(request: CollectRequest): Promise<CollectResult> {
      // The task is registered at once, so progress can be asked for as soon as the call is made.
      return d.tasks.run((request as CollectRequest | undefined)?.taskId, (task) => collect(request, task))
    },
    async getRecentHomes() {
      return getRecentHomes(d.appDataDir)
    },
    async getTaskProgress(taskId: string) {
      return d.tasks.get(taskId)
    },
    async cancelTask(taskId: string) {
      return d.tasks.cancel(taskId)
    },
    async prepare(path: string) {
      const prepared = await prepareHome(path, d.appDataDir)
      current = prepared
      return prepared
    },
    async opened(path: string, prepared: PreparedHome, library: Library) {
      await rememberHome(d.appDataDir, { path, kind: prepared.kind, openedAt: d.ctx.now(), os: library.homes[0]?.os ?? 'linux', sessionCount: library.sessions.length })
      return decorate(library)
    },
    decorate,
    clear() {
      current = undefined
    },
  }
}

function bad(message: string): SepiaError {
  return new SepiaError({ code: 'BAD_ARGUMENT', message })
}
