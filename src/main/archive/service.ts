/**
 * The archive's API methods (issue 19), as a fragment `createApi` spreads into the API: status and
 * settings, pruning, put back, retention warnings. Arguments are validated here (they cross the
 * bridge).
 */
import { SepiaError } from '../../shared/api'
import type { ArchiveSettings, ArchiveStatus, PruneResult, PutBackResult, RetentionWarning } from '../../shared/archive'
import { isAgentId, type AgentId } from '../../shared/ir'
import type { LibraryService } from '../library'
import type { Archive } from './archive'
import { putBack } from './putback'
import { retentionWarnings } from './retention'

/** The methods this module adds to the API. */
export interface ArchiveMethods {
  getArchiveStatus(): Promise<ArchiveStatus>
  setArchiveSettings(settings: Partial<ArchiveSettings>): Promise<ArchiveStatus>
  pruneArchive(): Promise<PruneResult>
  putBack(agent: AgentId, id: string): Promise<PutBackResult>
  getRetentionWarnings(): Promise<RetentionWarning[]>
}

/** What the methods need from `createApi`. */
export interface ArchiveServiceDeps {
  archive: Archive
  library: LibraryService
  init: () => Promise<void>
  now: () => number
}

function checkSettings(p: unknown): Partial<ArchiveSettings> {
  if (!p || typeof p !== 'object' || Array.isArray(p)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The archive settings must be an object.' })
  const v = p as Record<string, unknown>
  const out: Partial<ArchiveSettings> = {}
  if (v['enabled'] !== undefined) {
    if (typeof v['enabled'] !== 'boolean') throw new SepiaError({ code: 'BAD_ARGUMENT', message: '`enabled` must be true or false.' })
    out.enabled = v['enabled']
  }
  if (v['answered'] !== undefined) out.answered = v['answered'] === true
  if (v['capBytes'] !== undefined) {
    if (typeof v['capBytes'] !== 'number' || !Number.isFinite(v['capBytes']) || v['capBytes'] < 1 << 20) throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The size cap must be a number of bytes of at least 1 MiB.' })
    out.capBytes = Math.floor(v['capBytes'])
  }
  if (v['excludedAgents'] !== undefined) {
    if (!Array.isArray(v['excludedAgents']) || !v['excludedAgents'].every(isAgentId)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: '`excludedAgents` must list agent ids.' })
    out.excludedAgents = v['excludedAgents'] as AgentId[]
  }
  if (v['excludedProjects'] !== undefined) {
    if (!Array.isArray(v['excludedProjects']) || !v['excludedProjects'].every((x) => typeof x === 'string' && x !== '')) throw new SepiaError({ code: 'BAD_ARGUMENT', message: '`excludedProjects` must list folder paths.' })
    out.excludedProjects = v['excludedProjects'] as string[]
  }
  return out
}

/** Build the archive methods. */
export function createArchiveMethods(deps: ArchiveServiceDeps): ArchiveMethods {
  const { archive, library, init } = deps
  const ownHomes = () => library.openHomes.filter((h) => h.layout.isOwnHome && !h.isDemo)
  async function status(): Promise<ArchiveStatus> {
    const s = archive.status()
    const own = new Set(ownHomes().map((h) => h.layout.home))
    s.ownHomeOpen = own.size > 0
    if (own.size > 0) {
      // The size column of the catalog is the session's files' bytes (a shared store file counts once).
      const seen = new Set<string>()
      let bytes = 0
      const rows = library.db.prepare(`SELECT ref FROM sessions WHERE home IN (${[...own].map(() => '?').join(', ')})`).all(...own) as { ref: string }[]
      for (const r of rows) {
        try {
          const ref = JSON.parse(r.ref) as { files?: string[]; size?: number }
          const key = ref.files?.join('\u0000') ?? ''
          if (!seen.has(key)) bytes += ref.size ?? 0
          seen.add(key)
        } catch {
          // a damaged row counts for nothing
        }
      }
      if (rows.length > 0) s.sourceBytes = bytes
    }
    return s
  }
  return {
    async getArchiveStatus() {
      await init()
      return status()
    },
    async setArchiveSettings(settings) {
      const patch = checkSettings(settings)
      await init()
      const before = archive.settings().enabled
      await archive.setSettings(patch)
      // Turned on: take the first copies now.
      if (!before && patch.enabled === true) await library.refresh()
      return status()
    },
    async pruneArchive() {
      return archive.prune()
    },
    async putBack(agent, id) {
      if (!isAgentId(agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(agent)}" is not an agent Sepia knows.` })
      if (typeof id !== 'string' || id === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A session id is required.' })
      await init()
      const row = await library.find(agent, id)
      if (!ownHomes().some((h) => h.layout.home === row.home)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Only sessions of your own home can be put back.' })
      const result = await putBack(archive, row.home, agent, id, deps.now())
      await library.refresh()
      return result
    },
    async getRetentionWarnings() {
      await init()
      const lib = await library.load({ partial: true })
      const out: RetentionWarning[] = []
      for (const h of ownHomes()) out.push(...(await retentionWarnings(h.layout, lib.sessions, archive, deps.now())))
      return out
    },
  }
}
