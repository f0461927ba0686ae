/**
 * Timeline rows of the search index `db/session-search.db` (seed 000 "Past-use rows and secondary
 * sources", session-search.db bullet):
 * - one system row per indexed session at its started_at: `session search index: title=<title>
 *   workspace_root=<workspace_root> prompt=<metadata content> document_count=<n> indexed_at=<at>`;
 * - then one row per message document in ordinal order, user or assistant by role, system for any
 *   other, `source_line` ordinal + 1, no time (the index records none per message), project the
 *   manifest's cwd when the session is on disk, else the document's workspace_root;
 * - without FTS5: one system row says so, and each `indexed_sessions` row gives a session row with
 *   no time.
 */
import type { AgentId } from '../../../../shared/ir'
import { makeSecondaryRow, type SecondaryRow } from '../timeline/rows'
import { isoToMs } from '../sdk-store'
import type { IndexDocument, IndexedSession, SearchIndex } from './search-index'

/** The source name search-index rows carry (`recovered.source`). */
export const SEARCH_SOURCE = 'session-search.db'

/** Options of {@link searchIndexRows}. */
export interface SearchRowsOptions {
  agent: AgentId
  /** Only these sessions (all when absent). */
  sessionIds?: ReadonlySet<string>
  /** The project of a session whose manifest is on disk (its cwd), when known. */
  projectOf?: (sessionId: string) => string | undefined
}

/** Rows of an open index (see the module comment). */
export function searchIndexRows(index: SearchIndex, opts: SearchRowsOptions): SecondaryRow[] {
  const { agent } = opts
  const file = index.path
  const recovered = { source: SEARCH_SOURCE }
  const wanted = (id: string) => !opts.sessionIds || opts.sessionIds.has(id)
  const rows: SecondaryRow[] = []
  if (!index.fts5) {
    if (!opts.sessionIds) {
      rows.push(makeSecondaryRow({
        agent,
        turnType: 'system',
        text: 'session search index: this SQLite build has no FTS5, so the documents (the copy of each transcript) cannot be read; only indexed_sessions was read',
        sourceFile: file,
        recovered,
      }))
    }
    for (const s of index.sessions.values()) {
      if (!wanted(s.sessionId)) continue
      rows.push(makeSecondaryRow({
        agent,
        sessionId: s.sessionId,
        projectPath: opts.projectOf?.(s.sessionId) ?? '',
        turnType: 'system',
        text: `session search index: title=${s.title} document_count=${s.documentCount} indexed_at=${s.indexedAt}`,
        sourceFile: file,
        recovered,
      }))
    }
    return rows
  }
  const docs = index.documents(opts.sessionIds)
  const bySession = new Map<string, IndexDocument[]>()
  for (const d of docs) {
    const list = bySession.get(d.sessionId)
    if (list) list.push(d)
    else bySession.set(d.sessionId, [d])
  }
  const order = [...new Set([...[...index.sessions.keys()].filter(wanted), ...bySession.keys()])]
  for (const sid of order) {
    rows.push(...sessionDocRows(sid, bySession.get(sid) ?? [], index.sessions.get(sid), file, agent, opts.projectOf?.(sid)))
  }
  return rows
}

/**
 * The rows of one indexed session: its `session search index:` row, then one row per message
 * document (see the module comment). `projectPath` overrides the documents' workspace_root.
 */
export function sessionDocRows(
  sessionId: string,
  docs: readonly IndexDocument[],
  info: IndexedSession | undefined,
  file: string,
  agent: AgentId,
  projectPath?: string,
): SecondaryRow[] {
  const recovered = { source: SEARCH_SOURCE }
  const meta = docs.find((d) => d.ordinal < 0)
  const first = meta ?? docs[0]
  const base = { agent, sessionId, projectPath: projectPath ?? first?.workspaceRoot ?? '', sourceFile: file, recovered }
  const rows: SecondaryRow[] = [
    makeSecondaryRow({
      ...base,
      turnType: 'system',
      timestampUtc: isoToMs(first?.startedAt),
      text:
        `session search index: title=${info?.title ?? meta?.title ?? ''} workspace_root=${first?.workspaceRoot ?? ''} ` +
        `prompt=${meta?.content ?? ''} document_count=${info?.documentCount ?? docs.length} indexed_at=${info?.indexedAt ?? ''}`,
    }),
  ]
  for (const d of [...docs].sort((a, b) => a.ordinal - b.ordinal)) {
    if (d.ordinal < 0) continue
    const turnType = d.role === 'user' ? 'user' : d.role === 'assistant' ? 'assistant' : 'system'
    rows.push(makeSecondaryRow({ ...base, turnType, text: d.content, sourceLine: d.ordinal + 1 }, { ordinal: d.ordinal }))
  }
  return rows
}
