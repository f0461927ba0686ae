/**
 * The API methods of the timeline and the agent settings view (`getTimeline`, `exportTimeline`,
 * `getAgentSettings`): argument checks in plain words, then {@link TimelineService} and
 * `buildAgentSettings`. Results are masked by the API's gate like every other method's.
 */
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { SepiaError } from '../../shared/api'
import { isAgentId, type AgentId } from '../../shared/ir'
import type { AgentSettingsView } from '../../shared/settings'
import type { TimelineFilter, TimelineFormat, TimelinePage, TimelineQuery } from '../../shared/timeline'
import type { AgentDefinition, ReadContext } from '../agents/types'
import type { LibraryService } from '../library'
import type { PathPolicy } from '../paths'
import { layoutForHome } from '../platform'
import { buildAgentSettings } from '../settings'
import { SORT_KEYS } from './sort'
import { TimelineService } from './service'

/** What the methods need from the API. */
export interface TimelineMethodsDeps {
  library: LibraryService
  agents: readonly AgentDefinition[]
  ctx: ReadContext
  /** Opens the start homes (the API's lazy init). */
  init: () => Promise<void>
  paths: PathPolicy
}

/** Agents whose sessions tell which project folders the settings view looks in. */
const CLINE_FAMILY = new Set<AgentId>(['cline', 'roo-code', 'kilo-code', 'pearai'])

/** The three methods, ready to spread into the API object. */
export function createTimelineMethods(deps: TimelineMethodsDeps): {
  getTimeline(query?: TimelineQuery): Promise<TimelinePage>
  exportTimeline(format: TimelineFormat, filter?: TimelineFilter): Promise<string>
  getAgentSettings(options?: { home?: string; project?: string }): Promise<AgentSettingsView>
} {
  const service = new TimelineService(deps.library, deps.agents, deps.ctx)
  return {
    async getTimeline(query) {
      const q = checkFilter(query) as TimelineQuery
      for (const k of ['offset', 'limit'] as const) {
        const v = query?.[k]
        if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) {
          throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The timeline ${k} must be a number of rows (0 or more).` })
        }
        if (v !== undefined) q[k] = v
      }
      if (query?.sortBy !== undefined) {
        if (!SORT_KEYS.includes(query.sortBy)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The timeline cannot be sorted by "${String(query.sortBy)}". Use one of: ${SORT_KEYS.join(', ')}.` })
        q.sortBy = query.sortBy
      }
      if (query?.descending !== undefined) q.descending = query.descending === true
      await deps.init()
      return service.page(q)
    },
    async exportTimeline(format, filter) {
      if (format !== 'csv' && format !== 'jsonl') throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The timeline exports as "csv" or "jsonl", not "${String(format)}".` })
      const f = checkFilter(filter)
      await deps.init()
      return service.export(format, f)
    },
    async getAgentSettings(options) {
      // JSON over the loopback transport turns an omitted argument into null: the same as absent.
      if (options === null) options = undefined
      if (options !== undefined && typeof options !== 'object') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The settings options must be an object {home?, project?}.' })
      await deps.init()
      const homes = deps.library.openHomes
      let layout = homes[0]?.layout
      if (options?.home !== undefined) {
        const home = await deps.paths.check(options.home, 'The home folder')
        await checkFolder(home)
        layout = homes.find((h) => resolve(h.layout.home) === home)?.layout ?? (await layoutForHome({ home }))
      }
      if (!layout) throw new SepiaError({ code: 'NOT_FOUND', message: 'No home folder is open. Open a folder first.' })
      const lib = await deps.library.load()
      const projects = new Set<string>()
      for (const s of lib.sessions) {
        if (CLINE_FAMILY.has(s.agent) && s.home === layout.home && s.workingDirectory) projects.add(s.workingDirectory)
      }
      if (options?.project !== undefined) {
        const project = await deps.paths.check(options.project, 'The project folder')
        await checkFolder(project)
        projects.add(project)
      }
      return buildAgentSettings(layout, { projects: [...projects] })
    },
  }
}

/** A filter with checked types (agent id, strings). */
function checkFilter(filter: TimelineFilter | undefined): TimelineFilter {
  if (filter === undefined || filter === null) return {}
  if (typeof filter !== 'object') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The timeline filter must be an object {agent?, sessionId?, project?}.' })
  const out: TimelineFilter = {}
  if (filter.agent !== undefined) {
    if (!isAgentId(filter.agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(filter.agent)}" is not an agent Sepia knows.` })
    out.agent = filter.agent
  }
  for (const k of ['sessionId', 'project'] as const) {
    const v = filter[k]
    if (v === undefined) continue
    if (typeof v !== 'string' || v.trim() === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The timeline ${k === 'sessionId' ? 'session id' : 'project'} must be a non-empty text.` })
    out[k] = v.trim()
  }
  return out
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
