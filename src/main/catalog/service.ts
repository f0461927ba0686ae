/**
 * The catalog-backed API methods (search, usage, index status, live changes, pages), as a
 * fragment `createApi` spreads into the API. Arguments are validated here (they cross the bridge).
 */
import { SepiaError } from '../../shared/api'
import type { ChangeSet, FindOptions, FindResult, IndexStatus, PageOptions, SearchFilters, SearchResult, SessionPage, UsageQuery, UsageReport } from '../../shared/catalog'
import { isAgentId, type AgentId, type MessageNode } from '../../shared/ir'
import { findAppRoot } from '../context'
import type { LibraryService } from '../library'
import { searchCatalog } from '../search/search'
import { aggregateUsage, usageCsv } from '../usage/aggregate'
import { loadPricing, PriceBook, pricingCandidates } from '../usage/pricing'

/** What the methods need from `createApi`. */
export interface CatalogServiceDeps {
  library: LibraryService
  /** Opens the start homes once (createApi's `init`). */
  init: () => Promise<void>
  /** The app data folder (a user's `pricing.json` there overrides the shipped one). */
  appDataDir?: string
  /** The app root holding `pricing/pricing.json` (default: found from this module). */
  appRoot?: string
}

/** The methods this module adds to the API. */
export interface CatalogMethods {
  search(query: string, filters?: SearchFilters): Promise<SearchResult>
  getUsage(query: UsageQuery): Promise<UsageReport>
  exportUsageCsv(query: UsageQuery): Promise<string>
  getIndexStatus(): Promise<IndexStatus>
  getChanges(token?: string): Promise<ChangeSet>
  getSessionPage(agent: AgentId, id: string, options?: PageOptions): Promise<SessionPage>
  getSessionNode(agent: AgentId, id: string, nodeId: string): Promise<MessageNode>
  findInSession(agent: AgentId, id: string, query: string, options?: FindOptions): Promise<FindResult>
}

function checkSession(agent: unknown, id: unknown): void {
  if (!isAgentId(agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(agent)}" is not an agent Sepia knows.` })
  if (typeof id !== 'string' || id === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A session id is required.' })
}

/** Build the catalog methods. */
export function createCatalogMethods(deps: CatalogServiceDeps): CatalogMethods {
  const { library, init } = deps
  let prices: PriceBook | undefined
  const priceBook = (): PriceBook => (prices ??= new PriceBook(loadPricing(pricingCandidates(deps.appDataDir, deps.appRoot ?? findAppRoot()))))

  /** Usage needs the sessions written (not the search phase): index the agent(s) once if never done. */
  async function usage(query: UsageQuery): Promise<UsageReport> {
    await init()
    const agents = query && isAgentId(query.agent) ? [query.agent] : undefined
    if (!library.isIndexed(agents)) await library.refresh(agents)
    return aggregateUsage(library.db, library.homePaths, query, priceBook())
  }

  return {
    async search(query, filters) {
      if (typeof query !== 'string') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The search query must be text.' })
      await init()
      await library.prepare({ partial: true })
      return searchCatalog(library.db, library.homePaths, query, filters ?? {}, library.store.searchPending())
    },
    getUsage: usage,
    async exportUsageCsv(query) {
      return usageCsv(await usage(query))
    },
    async getIndexStatus() {
      return library.status()
    },
    async getChanges(token) {
      if (token !== undefined && token !== null && typeof token !== 'string') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The change token must be the text a previous call returned.' })
      await init()
      await library.prepare({ partial: true })
      return library.changes(token ?? undefined)
    },
    async getSessionPage(agent, id, options) {
      checkSession(agent, id)
      await init()
      return library.getSessionPage(agent, id, options ?? {})
    },
    async getSessionNode(agent, id, nodeId) {
      checkSession(agent, id)
      await init()
      return library.getSessionNode(agent, id, nodeId)
    },
    async findInSession(agent, id, query, options) {
      checkSession(agent, id)
      await init()
      return library.findInSession(agent, id, query, options ?? undefined)
    },
  }
}
