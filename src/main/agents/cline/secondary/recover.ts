/**
 * Recovered turns in the IR: secondary rows (search-index documents, hook audit lines) that the
 * duplicate rule keeps become {@link MessageNode}s marked `recovered: {source, path, line}`, either
 * inside the SDK session they belong to ({@link addRecoveredTurns}) or as a whole session whose
 * transcript is gone ({@link readRecoveredSession}; seed 000 "What survives a delete").
 */
import type { MessageNode, Session } from '../../../../shared/ir'
import { addDiagnostic, finishSession, newSession } from '../../../ir/build'
import type { ReadContext, StoreRef } from '../../types'
import { chainNodes, makeToolCall, NodeIds } from '../common'
import type { SecondaryHints } from '../sdk-store'
import { isoToMs } from '../sdk-store'
import { sdkSessionRows } from '../timeline/sdk-rows'
import type { SecondaryRow } from '../timeline/rows'
import { dropDuplicates } from './dedup'
import type { RecoveredHints } from './discover'
import { HOOKS_SOURCE, hookRowsAt } from './hooks-log'
import { SEARCH_SOURCE, sessionDocRows } from './search-rows'
import { plural } from '../../../../shared/plural'

/**
 * Add to an SDK session the turns its secondary sources hold and its transcript lacks. `messages`
 * are the transcript's raw messages; `starts[i]` is the index in `session.nodes` of message i's
 * first node (nodes not yet chained). Index documents go where their ordinal says, hook turns by
 * time. Unreadable secondary files become warnings.
 */
export async function addRecoveredTurns(
  session: Session,
  secondary: SecondaryHints,
  messages: readonly unknown[],
  starts: readonly number[],
  ids: NodeIds,
): Promise<void> {
  const rows: SecondaryRow[] = []
  if (secondary.hooks) {
    try {
      rows.push(...(await hookRowsAt(secondary.hooks.path, secondary.hooks.lines, session.agent)))
    } catch (err) {
      addDiagnostic(session, { severity: 'warning', path: secondary.hooks.path, message: `Could not read the hook audit log: ${(err as Error).message}` })
    }
  }
  if (secondary.search) rows.push(...sessionDocRows(session.id, secondary.search.docs, secondary.search.info, secondary.search.path, session.agent).filter((r) => r.ordinal !== undefined))
  if (!rows.length) return
  const primary = sdkSessionRows({ agent: session.agent, sessionId: session.id, projectPath: '', messages: [...messages], lead: true })
  const kept = dropDuplicates({ primary, secondary: rows, transcripts: new Map([[session.id, messages]]) })
  if (!kept.length) return
  const known = new Set(session.nodes.flatMap((n) => n.toolCalls ?? []).map((c) => c.id))
  const placed: { pos: number; seq: number; nodes: MessageNode[] }[] = []
  kept.forEach((row, seq) => {
    let pos = session.nodes.length
    if (row.ordinal !== undefined) {
      if (row.ordinal < starts.length) pos = starts[row.ordinal]!
    } else if (row.timestampUtc !== undefined) {
      const i = session.nodes.findIndex((n) => n.createdAt !== undefined && n.createdAt > row.timestampUtc!)
      if (i >= 0) pos = i
    }
    placed.push({ pos, seq, nodes: rowNodes(row, ids, known) })
  })
  placed.sort((a, b) => a.pos - b.pos || a.seq - b.seq)
  const out: MessageNode[] = []
  let next = 0
  for (let i = 0; i <= session.nodes.length; i++) {
    while (next < placed.length && placed[next]!.pos === i) out.push(...placed[next++]!.nodes)
    if (i < session.nodes.length) out.push(session.nodes[i]!)
  }
  session.nodes = out
  const sources = [...new Set(kept.map((r) => r.recovered.source))].join(' and ')
  addDiagnostic(session, {
    severity: 'info',
    path: kept[0]!.sourceFile,
    message: `${plural(kept.length, 'turn')} missing from the transcript ${kept.length === 1 ? 'was' : 'were'} recovered from ${sources}; ${kept.length === 1 ? 'it is' : 'they are'} marked as recovered.`,
  })
}

/** Read a session known only to secondary sources (format `cline-recovered`). */
export async function readRecoveredSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const hints = (ref.hints ?? { kind: 'recovered' }) as unknown as RecoveredHints
  const session = newSession(ref.agent, ref.sessionId, ref.format, ref.files, ref.home)
  const ids = new NodeIds()
  const known = new Set<string>()
  const rows: SecondaryRow[] = []
  if (hints.search) {
    const { docs, info, path } = hints.search
    const meta = docs.find((d) => d.ordinal < 0)
    const first = meta ?? docs[0]
    const title = info?.title || meta?.title
    if (title) session.title = title
    if (first?.workspaceRoot) session.workingDirectory = first.workspaceRoot
    const started = isoToMs(first?.startedAt)
    if (started !== undefined) session.createdAt = started
    const docRows = sessionDocRows(ref.sessionId, docs, info, path, ref.agent).filter((r) => r.ordinal !== undefined)
    if (!docRows.length && meta?.content) {
      // Only the metadata document is left (the messages file was gone when the hub indexed it): its content is the prompt.
      session.nodes.push({ nodeId: ids.take('recovered:prompt'), role: 'user', content: meta.content, recovered: { source: SEARCH_SOURCE, path } })
    }
    rows.push(...docRows)
    if (!hints.search.fts5) {
      addDiagnostic(session, { severity: 'warning', path, message: 'This SQLite build has no FTS5, so the messages the search index keeps for this session cannot be read; only its title is shown.' })
    }
  }
  if (hints.hooks) {
    try {
      const hookRows = await hookRowsAt(hints.hooks.path, hints.hooks.lines, ref.agent)
      hookRows.sort((a, b) => (a.timestampUtc ?? 0) - (b.timestampUtc ?? 0))
      if (!session.workingDirectory && hookRows[0]?.projectPath) session.workingDirectory = hookRows[0].projectPath
      rows.push(...hookRows)
    } catch (err) {
      addDiagnostic(session, { severity: 'warning', path: hints.hooks.path, message: `Could not read the hook audit log: ${(err as Error).message}` })
    }
  }
  for (const row of rows) session.nodes.push(...rowNodes(row, ids, known))
  chainNodes(session.nodes)
  const source = hints.search ? SEARCH_SOURCE : HOOKS_SOURCE
  const path = hints.search?.path ?? hints.hooks?.path ?? ref.files[0] ?? ''
  session.recovered = { source, path }
  if (ref.parentSessionId) session.parentSessionId = ref.parentSessionId
  addDiagnostic(session, {
    severity: 'info',
    path,
    message: hints.search
      ? 'The transcript of this session is gone; it was rebuilt from the Cline search index (session-search.db), which keeps the text of each message but not its time' +
        (hints.hooks ? ', and from the hook audit log (hooks.jsonl).' : '.')
      : 'The transcript of this session is gone; it was rebuilt from the Cline hook audit log (hooks.jsonl): tool calls, their results and the final replies.',
  })
  return finishSession(session)
}

/** The nodes of one recovered row. A tool result whose call is nowhere gets its call from the hook's call record. */
function rowNodes(row: SecondaryRow, ids: NodeIds, knownCalls: Set<string>): MessageNode[] {
  const recovered = { source: row.recovered.source, path: row.sourceFile, ...(row.sourceLine !== undefined ? { line: row.sourceLine } : {}) }
  const base = (suffix = '') => {
    const node: MessageNode = { nodeId: ids.take(`recovered:${row.recovered.source}:${row.sourceLine ?? 0}${suffix}`), role: 'assistant', content: '', recovered }
    if (row.timestampUtc !== undefined) node.createdAt = row.timestampUtc
    return node
  }
  const callNode = (suffix = '') => {
    const id = row.toolUseId || `recovered-${row.recovered.source}-${row.sourceLine ?? 0}`
    knownCalls.add(id)
    return { ...base(suffix), toolCalls: [makeToolCall(id, row.toolName || 'unknown', row.input ?? (row.turnType === 'tool_use' ? row.text : undefined))] }
  }
  switch (row.turnType) {
    case 'user':
      return [{ ...base(), role: 'user', content: row.text }]
    case 'assistant':
      return [{ ...base(), content: row.text }]
    case 'thinking':
      return [{ ...base(), thinking: row.text }]
    case 'tool_use':
      return [callNode()]
    case 'tool_result': {
      const out: MessageNode[] = []
      const callId = row.toolUseId || `recovered-${row.recovered.source}-${row.sourceLine ?? 0}`
      if (!knownCalls.has(callId)) out.push(callNode(':call'))
      const result: MessageNode = { ...base(), role: 'tool', content: row.text, toolCallId: callId }
      if (row.toolName) result.toolName = row.toolName
      if (row.isError) result.isError = true
      out.push(result)
      return out
    }
    default:
      return [{ ...base(), role: 'system', content: row.text }]
  }
}
