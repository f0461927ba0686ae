/**
 * `createApi(context)`: the one implementation of {@link SepiaApi}. Both transports (IPC, loopback
 * HTTP) and the CLI call it; they add no logic of their own.
 */
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { SepiaError, type AppInfo, type Library, type SepiaApi } from '../shared/api'
import { IR_VERSION, isAgentId, type AgentId, type Session } from '../shared/ir'
import { AGENTS } from './agents/registry'
import type { ReadContext } from './agents/types'
import { demoHomes, type AppContext } from './context'
import { LibraryService, type OpenHome } from './library'
import { layoutForHome } from './platform'

/** The API plus what hosts need beyond the contract. */
export interface SepiaService extends SepiaApi {
  /** The library service (tests and the CLI read sessions through it). */
  readonly library: LibraryService
}

/**
 * Build the API for one host. Opening homes is lazy: the first `getLibrary()` reads the stores.
 */
export function createApi(context: AppContext): SepiaService {
  const ctx: ReadContext = { now: context.now ?? Date.now }
  const library = new LibraryService([], AGENTS, ctx)
  let initialised = false

  async function openPaths(paths: string[], isDemo: boolean, isOwnHome: boolean): Promise<OpenHome[]> {
    const out: OpenHome[] = []
    for (const p of paths) {
      // The own home follows this machine's OS; a copied home's layout is detected from its content.
      const layout = await layoutForHome(isOwnHome ? { home: p, env: context.env, isOwnHome, os: context.platform } : { home: p })
      out.push({ layout, isDemo })
    }
    return out
  }

  async function init(): Promise<void> {
    if (initialised) return
    initialised = true
    if (context.homes.length > 0) {
      for (const h of context.homes) await checkFolder(h)
      library.setHomes(await openPaths(context.homes, false, false))
      return
    }
    library.setHomes(await openPaths([context.ownHome], false, true))
    const lib = await library.load()
    if (lib.sessions.length === 0) library.setHomes(await openPaths(demoHomes(context.fixturesDir), true, false))
  }

  const api: SepiaService = {
    library,
    async getAppInfo(): Promise<AppInfo> {
      return { name: 'Sepia', version: context.version, mode: context.mode, irVersion: IR_VERSION, platform: context.platform }
    },
    async getLibrary(options?: { refresh?: boolean }): Promise<Library> {
      await init()
      return library.load(options?.refresh === true)
    },
    async openHome(path: string): Promise<Library> {
      if (typeof path !== 'string' || path.trim() === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Give the path of a folder to open.' })
      const abs = resolve(path.trim())
      await checkFolder(abs)
      initialised = true
      library.setHomes(await openPaths([abs], false, abs === resolve(context.ownHome)))
      return library.load()
    },
    async openDemo(): Promise<Library> {
      initialised = true
      library.setHomes(await openPaths(demoHomes(context.fixturesDir), true, false))
      return library.load()
    },
    async getSession(agent: AgentId, id: string): Promise<Session> {
      if (!isAgentId(agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(agent)}" is not an agent Sepia knows.` })
      if (typeof id !== 'string' || id === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A session id is required.' })
      await init()
      return library.getSession(agent, id)
    },
    async pickFolder(): Promise<string | null> {
      return context.pickFolder ? context.pickFolder() : null
    },
  }
  return api
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
