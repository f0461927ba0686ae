/**
 * `createTeamApi(url)`: the {@link SepiaApi} over a team catalog on PostgreSQL, for
 * `sepia serve --catalog postgres://...`. The same renderer and transports as the desktop app;
 * the read methods (library, session pages, search, usage) answer from {@link TeamCatalog}, and
 * everything that would read a store or write anything (open a folder, convert, restore, export,
 * collect) is refused with a plain sentence: the team catalog is read-only and holds no store files.
 */
import { API_METHODS, SepiaError, type AppInfo, type SepiaApi } from '../../shared/api'
import type { IndexStatus } from '../../shared/catalog'
import { IR_VERSION, isAgentId, type AgentId, type HomeOs } from '../../shared/ir'
import { findIn, pageOf, wholeNode } from '../catalog/page'
import { findAppRoot } from '../context'
import { maskApiResults } from '../secrets'
import { usageCsv } from '../usage/aggregate'
import { loadPricing, PriceBook, pricingCandidates } from '../usage/pricing'
import { TeamCatalog } from './catalog'

const IDLE: IndexStatus = { phase: 'idle', running: false, done: 0, total: 0, bytesDone: 0, bytesTotal: 0, textDone: 0, textTotal: 0 }

/** Options of {@link createTeamApi}. */
export interface TeamApiOptions {
  /** App version shown by `getAppInfo`. */
  version?: string
  /** The app data folder (a `pricing.json` there overrides the shipped prices). */
  appDataDir?: string
  /** The app root holding `pricing/pricing.json` (default: found from this module). */
  appRoot?: string
  now?: () => number
}

/** The API plus the catalog behind it (hosts close it). */
export interface TeamApi extends SepiaApi {
  readonly catalog: TeamCatalog
}

function checkSession(agent: unknown, id: unknown): asserts agent is AgentId {
  if (!isAgentId(agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(agent)}" is not an agent Sepia knows.` })
  if (typeof id !== 'string' || id === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A session id is required.' })
}

/** Build the read-only API over the team catalog at `url` (nothing connects until the first call). */
export function createTeamApi(url: string, options: TeamApiOptions = {}): TeamApi {
  const now = options.now ?? Date.now
  const catalog = new TeamCatalog(url, now)
  let prices: PriceBook | undefined
  const priceBook = (): PriceBook => (prices ??= new PriceBook(loadPricing(pricingCandidates(options.appDataDir, options.appRoot ?? findAppRoot()))))
  const platform: HomeOs = process.platform === 'win32' ? 'win32' : process.platform === 'darwin' ? 'darwin' : 'linux'
  const readOnly = (method: string) => async (): Promise<never> => {
    throw new SepiaError({ code: 'CANNOT_WRITE', message: `The team catalog (${catalog.target}) is read-only and holds no store files, so "${method}" is not available here. Open the machine's own home in Sepia for that.` })
  }
  const table: Partial<SepiaApi> = {
    async getAppInfo(): Promise<AppInfo> {
      return { name: 'Sepia', version: options.version ?? '0.0.0', mode: 'browser', irVersion: IR_VERSION, platform }
    },
    getLibrary: () => catalog.library(),
    async getSession(agent, id) {
      checkSession(agent, id)
      return catalog.session(agent, id)
    },
    async getSessionPage(agent, id, opts) {
      checkSession(agent, id)
      return pageOf(await catalog.session(agent, id), opts ?? {})
    },
    async getSessionNode(agent, id, nodeId) {
      checkSession(agent, id)
      return wholeNode(await catalog.session(agent, id), nodeId)
    },
    async findInSession(agent, id, query, opts) {
      checkSession(agent, id)
      return findIn(await catalog.session(agent, id), query, opts ?? {})
    },
    search: (query, filters) => catalog.search(query, filters ?? {}),
    getUsage: (query) => catalog.usage(query, priceBook()),
    async exportUsageCsv(query) {
      return usageCsv(await catalog.usage(query, priceBook()))
    },
    // Nothing is indexed here: pushes did that on each machine.
    async getIndexStatus() {
      return { ...IDLE }
    },
    async getChanges() {
      // Pushes land while the app is open; the library shows them on the next reload.
      return { token: '0', changedSessions: [], removedSessions: [], index: { ...IDLE } }
    },
    async getRecentHomes() {
      return []
    },
    async hideSecrets() {
      return false
    },
  }
  const api = { catalog } as Record<string, unknown>
  for (const m of API_METHODS) api[m] = (table as Record<string, unknown>)[m] ?? readOnly(m)
  // Pushed text is masked already; results are masked again at the boundary like the desktop API's.
  return maskApiResults(api as unknown as TeamApi)
}
