/**
 * The read side of a catalog, as the app's read-only views need it: the library (sessions by
 * home or machine, agent, project), one session, search, usage. Two implementations answer the
 * same questions: {@link sqliteReader} over the desktop catalog (this folder) and `TeamCatalog`
 * over the team catalog on PostgreSQL (src/main/team/catalog.ts). One conformance suite runs over
 * both (tests/team-conformance.test.ts).
 */
import type { Library } from '../../shared/api'
import type { SearchFilters, SearchResult, UsageQuery, UsageReport } from '../../shared/catalog'
import type { AgentId, Session } from '../../shared/ir'
import type { LibraryService } from '../library'
import { searchCatalog } from '../search/search'
import { aggregateUsage } from '../usage/aggregate'
import type { PriceBook } from '../usage/pricing'

/** What a catalog answers. Methods reject with `SepiaError` (`BAD_ARGUMENT` for bad filters, `SESSION_NOT_FOUND`). */
export interface CatalogReader {
  /** Every session (newest first; the same agent and id under two homes or machines once, from the first). */
  library(): Promise<Library>
  /** One session with its secrets masked. */
  session(agent: AgentId, id: string): Promise<Session>
  /** Full-text search (see `SepiaApi.search`). */
  search(query: string, filters?: SearchFilters): Promise<SearchResult>
  /** Usage and cost (see `SepiaApi.getUsage`), priced with `prices`. */
  usage(query: UsageQuery, prices: PriceBook): Promise<UsageReport>
}

/** The desktop catalog as a {@link CatalogReader}: indexes the open homes first when they never were. */
export function sqliteReader(library: LibraryService): CatalogReader {
  return {
    library: () => library.load(),
    session: (agent, id) => library.getSession(agent, id),
    async search(query, filters) {
      if (!library.isIndexed()) await library.refresh()
      await library.whenIdle()
      return searchCatalog(library.db, library.homePaths, query, filters ?? {}, library.store.searchPending())
    },
    async usage(query, prices) {
      if (!library.isIndexed()) await library.refresh()
      return aggregateUsage(library.db, library.homePaths, query, prices)
    },
  }
}
