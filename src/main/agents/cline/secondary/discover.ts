/**
 * Discovery of Cline's secondary sources for the library (seed 000 "What survives a delete",
 * "Past-use rows and secondary sources"): the search index `db/session-search.db` and the hook
 * audit log `logs/hooks.jsonl`.
 *
 * - A session the SDK store lists (manifest or sessions.db row) gets `hints.secondary`: its hook
 *   turn lines, and its index documents when the index may hold what the transcript lacks (the
 *   transcript is gone, or its size differs from the index's `source_revision`). `read`
 *   checks them against the transcript (dedup.ts) and adds what is left as recovered turns. The
 *   source file joins the ref's files, so a change re-reads the session.
 * - A session only the index or the hook log knows (its transcript and sessions.db row were
 *   deleted) becomes its own ref of format `cline-recovered`, read by `readRecoveredSession`.
 * The CLI prompt history has no session, so it is shown in the timeline only.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { AgentId, Diagnostic } from '../../../../shared/ir'
import type { HomeLayout } from '../../../platform'
import type { StoreRef } from '../../types'
import { parentOf, sizeAndTime } from '../discover-sdk'
import type { SdkHints, SecondaryHints } from '../sdk-store'
import { indexHookLog, type HookLineRef } from './hooks-log'
import { openSearchIndex, revisionMatchesFile, type IndexDocument, type IndexedSession, type SearchIndexOptions } from './search-index'

/** Store generation of a session rebuilt from secondary sources (Session.source.format). */
export const RECOVERED_FORMAT = 'cline-recovered'

/** Hints of a `cline-recovered` ref. */
export interface RecoveredHints {
  kind: 'recovered'
  search?: { path: string; docs: IndexDocument[]; info?: IndexedSession; fts5: boolean }
  hooks?: { path: string; lines: HookLineRef[] }
}

/** The secondary files of a Cline data dir. */
export function secondaryPaths(clineDataDir: string): { search: string; hooks: string; inputHistory: string; teams: string[] } {
  return {
    search: join(clineDataDir, 'db', 'session-search.db'),
    hooks: join(clineDataDir, 'logs', 'hooks.jsonl'),
    inputHistory: join(clineDataDir, 'cache', 'user_input_history.jsonl'),
    teams: [join(clineDataDir, 'teams', 'teams.db'), join(clineDataDir, 'db', 'teams.db')],
  }
}

/**
 * Attach secondary material to the SDK refs in `refs` and append `cline-recovered` refs for
 * sessions known only to a secondary source. Never throws: an unreadable source is a diagnostic.
 */
export async function discoverSecondary(
  agent: AgentId,
  layout: HomeLayout,
  refs: StoreRef[],
  diagnostics: Diagnostic[],
  options: SearchIndexOptions = {},
): Promise<void> {
  const paths = secondaryPaths(layout.clineDataDir)
  const known = new Map(refs.map((r) => [r.sessionId, r]))
  const sdk = (id: string) => {
    const r = known.get(id)
    return r && (r.hints as { kind?: string } | undefined)?.kind === 'sdk' ? r : undefined
  }
  const extra = new Map<string, SecondaryHints>()
  const lost = new Map<string, RecoveredHints>()
  const hintsOf = (id: string) => extra.get(id) ?? (extra.set(id, {}), extra.get(id)!)
  const lostOf = (id: string) => lost.get(id) ?? (lost.set(id, { kind: 'recovered' }), lost.get(id)!)

  if (await exists(paths.search)) {
    try {
      const index = openSearchIndex(paths.search, options)
      try {
        if (!index.fts5) {
          diagnostics.push({
            severity: 'warning',
            path: paths.search,
            agent,
            message: 'This SQLite build has no FTS5, so the Cline search index\'s copy of each transcript cannot be read; sessions known only from it are listed by title, without messages.',
          })
        }
        const wanted = new Set<string>()
        for (const info of index.sessions.values()) {
          const ref = sdk(info.sessionId)
          if (!ref) {
            if (!known.has(info.sessionId)) wanted.add(info.sessionId)
            continue
          }
          const messages = (ref.hints as unknown as SdkHints).messages
          const st = messages ? await stat(messages).catch(() => undefined) : undefined
          if (!st || !revisionMatchesFile(info.sourceRevision, st.size)) wanted.add(info.sessionId)
        }
        const docs = new Map<string, IndexDocument[]>()
        for (const d of index.documents(wanted)) {
          const list = docs.get(d.sessionId)
          if (list) list.push(d)
          else docs.set(d.sessionId, [d])
        }
        for (const id of wanted) {
          const search = { path: paths.search, docs: docs.get(id) ?? [], fts5: index.fts5, ...(index.sessions.has(id) ? { info: index.sessions.get(id)! } : {}) }
          if (sdk(id)) {
            if (search.docs.some((d) => d.ordinal >= 0)) hintsOf(id).search = search
          } else lostOf(id).search = search
        }
      } finally {
        index.close()
      }
    } catch (err) {
      diagnostics.push({ severity: 'warning', skipped: 1, path: paths.search, agent, message: `Could not read the Cline search index (${(err as Error).message}); turns it alone holds are not shown.` })
    }
  }

  if (await exists(paths.hooks)) {
    try {
      const log = await indexHookLog(paths.hooks)
      for (const [id, lines] of log.turns) {
        if (!lines.length) continue
        if (sdk(id)) hintsOf(id).hooks = { path: paths.hooks, lines }
        else if (!known.has(id)) lostOf(id).hooks = { path: paths.hooks, lines }
      }
    } catch (err) {
      diagnostics.push({ severity: 'warning', skipped: 1, path: paths.hooks, agent, message: `Could not read the Cline hook audit log (${(err as Error).message}); turns it alone holds are not shown.` })
    }
  }

  for (const [id, secondary] of extra) {
    const ref = sdk(id)!
    const hints = ref.hints as unknown as SdkHints
    hints.secondary = secondary
    for (const f of [secondary.search?.path, secondary.hooks?.path]) if (f && !ref.files.includes(f)) ref.files.push(f)
    Object.assign(ref, await sizeAndTime(ref.files))
  }
  const lostIds = new Set(lost.keys())
  for (const [id, hints] of [...lost].sort(([a], [b]) => a.localeCompare(b))) {
    const files = [hints.search?.path, hints.hooks?.path].filter((f): f is string => !!f)
    const ref: StoreRef = { agent, sessionId: id, format: RECOVERED_FORMAT, files, home: layout.home, hints: hints as unknown as Record<string, unknown>, ...(await sizeAndTime(files)) }
    const parent = parentOf(id, undefined)
    if (parent && (known.has(parent) || lostIds.has(parent))) ref.parentSessionId = parent
    refs.push(ref)
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}
