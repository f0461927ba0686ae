/**
 * The timeline over the open homes: rows of every agent (its own `timeline()` when it has one, as
 * Cline and its forks do, else a projection of its IR sessions), their text masked
 * (`src/main/secrets`, as every API result), filtered, sorted and paged; exports as CSV or JSONL.
 *
 * Rows are built once per filter and library load and cached (the last few filters), so paging
 * and re-sorting the table does not re-read the stores.
 */
import type { Diagnostic } from '../../shared/ir'
import type { TimelineFilter, TimelineFormat, TimelinePage, TimelineQuery, TimelineRow } from '../../shared/timeline'
import type { AgentDefinition, ReadContext } from '../agents/types'
import type { LibraryService } from '../library'
import { maskText } from '../secrets'
import { exportRows } from './export'
import { projectSession } from './project'
import { sortRows } from './sort'

/** Default and largest page sizes of {@link TimelineService.page}. */
export const DEFAULT_PAGE = 5_000
export const MAX_PAGE = 50_000

/** Progress of a long build: `done` of `total` steps (one per home and agent), in `phase`. */
export type TimelineProgress = (done: number, total: number, phase: string) => void

/** All rows of a filter, in the default order, and what could not be read. */
export interface TimelineRows {
  rows: TimelineRow[]
  diagnostics: Diagnostic[]
}

/** Builds timelines from the library's open homes. */
export class TimelineService {
  private cache: { key: string; value: TimelineRows }[] = []

  constructor(
    private readonly library: LibraryService,
    private readonly agents: readonly AgentDefinition[],
    private readonly ctx: ReadContext,
  ) {}

  /** Every row matching `filter`, masked, in the default order. */
  async rows(filter: TimelineFilter = {}, onProgress?: TimelineProgress): Promise<TimelineRows> {
    const lib = await this.library.load()
    const key = JSON.stringify([lib.loadedAt, lib.homes.map((h) => h.path), filter.agent ?? '', filter.sessionId ?? '', filter.project ?? ''])
    const hit = this.cache.find((c) => c.key === key)
    if (hit) return hit.value
    const agents = this.agents.filter((a) => !filter.agent || a.id === filter.agent)
    const homes = this.library.openHomes
    const total = homes.length * agents.length
    let done = 0
    const rows: TimelineRow[] = []
    const diagnostics: Diagnostic[] = []
    const project = filter.project?.replace(/[\\/]+$/, '')
    for (const home of homes) {
      for (const agent of agents) {
        onProgress?.(done, total, `${agent.displayName} in ${home.layout.home}`)
        let got: TimelineRow[] = []
        try {
          if (agent.timeline) {
            const t = await agent.timeline(home.layout, this.ctx, filter)
            got = t.rows
            diagnostics.push(...t.diagnostics)
          } else {
            for (const s of lib.sessions) {
              if (s.agent !== agent.id || s.home !== home.layout.home) continue
              if (filter.sessionId && s.id !== filter.sessionId) continue
              if (project && (s.workingDirectory ?? '').replace(/[\\/]+$/, '') !== project) continue
              got.push(...projectSession(await this.library.getSession(s.agent, s.id)))
            }
          }
        } catch (err) {
          diagnostics.push({ severity: 'error', path: home.layout.home, agent: agent.id, message: `Could not build the ${agent.displayName} timeline: ${(err as Error).message}` })
        }
        for (const r of got) {
          r.text = maskText(r.text).text
          rows.push(r)
        }
        done++
      }
    }
    onProgress?.(done, total, 'done')
    const value = { rows: sortRows(rows), diagnostics }
    this.cache = [{ key, value }, ...this.cache].slice(0, 4)
    return value
  }

  /** One page of the table. `limit` is clamped to 1..{@link MAX_PAGE}. */
  async page(query: TimelineQuery = {}): Promise<TimelinePage> {
    const { rows, diagnostics } = await this.rows(query)
    const offset = Math.max(0, Math.floor(query.offset ?? 0))
    const limit = Math.min(MAX_PAGE, Math.max(1, Math.floor(query.limit ?? DEFAULT_PAGE)))
    const sorted = query.sortBy || query.descending ? sortRows(rows, query.sortBy, query.descending === true) : rows
    return {
      rows: sorted.slice(offset, offset + limit),
      total: rows.length,
      offset,
      limit,
      recoveredCount: rows.reduce((n, r) => n + (r.recovered ? 1 : 0), 0),
      diagnostics,
    }
  }

  /** Every row of `filter` in the default order, as CSV or JSONL text. */
  async export(format: TimelineFormat, filter: TimelineFilter = {}): Promise<string> {
    return exportRows((await this.rows(filter)).rows, format)
  }
}
