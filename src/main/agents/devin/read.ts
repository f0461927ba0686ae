/**
 * Read one Devin CLI session (or one sub-agent chain of it) from `sessions.db`, with
 * `transcripts/<id>.json` (ATIF) as a second source.
 *
 * Store facts: `shared/formats/cursor-devin-atif-acp.md` C1-C5 and D; seed 002 "Devin CLI" and
 * "Format surprises". Summary of the mapping:
 * - transcript = the chain from `main_chain_id` (else the largest node_id) to its root; other
 *   nodes of the forest stay as branches (`metadata.branch = true`); `session.metadata.mainThread`
 *   lists the chain's node ids. Same-`message_id` copies and import twins are folded (forest.ts).
 * - sub-agents (`subagent_heads`) are their own sessions `<session_id>/<agent_id>` with
 *   `parentSessionId`; their chain's nodes are not repeated in the parent.
 * - usage per assistant message from `metrics` (input excludes cache reads, message.ts); session
 *   usage from ATIF `final_metrics` only when no message carries usage.
 * - `hidden = 1` sessions are read with `metadata.hidden = true`.
 */
import type { MessageNode, Session } from '../../../shared/ir'
import { SepiaError } from '../../../shared/api'
import { addDiagnostic, finishSession, newSession } from '../../ir/build'
import type { ReadContext, StoreRef } from '../types'
import { type Atif, atifUsage, loadAtif, nodesFromAtif } from './atif'
import { applyCallFacts } from './calls'
import { fillReasoning, markCompactions } from './compaction'
import { foldForest, pickHead, type Parents, walkChain } from './forest'
import { epochToMs, type Json, nonEmpty, obj, parseJsonCell, str } from './json'
import { type Loaded, loadSession } from './load'
import { buildNode, extensionsOf } from './message'
import { FORMAT_DB, FORMAT_SUBAGENT, FORMAT_ATIF, subagentSessionId, type DevinHints } from './format'

/** Moved to ./format.ts so discovery and the census load without this reader; kept here for its importers. */
export { FORMAT_DB, FORMAT_SUBAGENT, FORMAT_ATIF, subagentSessionId, type DevinHints } from './format'

/**
 * Read one ref. Rejects with `READ_FAILED` only when the database cannot be opened at all; every
 * other problem is a diagnostic on the session.
 */
export async function readSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const hints = (ref.hints ?? {}) as DevinHints
  const session = newSession('devin', ref.sessionId, ref.format, ref.files, ref.home)
  const atif = hints.transcript ? await loadAtif(hints.transcript) : undefined
  if (atif?.problem) addDiagnostic(session, atif.problem)
  if (ref.format === FORMAT_ATIF || !hints.db) {
    if (atif) session.nodes = nodesFromAtif(atif)
    atifFacts(session, atif, true)
    return finishSession(session)
  }
  let loaded: Loaded
  try {
    loaded = loadSession(hints.db, hints.parentId ?? ref.sessionId)
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `cannot open ${hints.db}: ${(e as Error).message}`, path: hints.db })
  }
  for (const p of loaded.problems) addDiagnostic(session, p)
  fromDatabase(session, loaded, hints)
  if (atif && ref.format === FORMAT_DB) {
    const main = new Set(session.metadata.mainThread as string[])
    const filled = fillReasoning(session.nodes.filter((n) => main.has(n.nodeId) && n.role === 'assistant' && !n.event), atif)
    if (filled) session.metadata.atifReasoningFilled = filled
  }
  atifFacts(session, atif, ref.format !== FORMAT_SUBAGENT)
  return finishSession(session)
}

/** Build nodes and session fields from the loaded rows. */
function fromDatabase(session: Session, loaded: Loaded, hints: DevinHints): void {
  const db = hints.db!
  const sid = hints.parentId ?? session.id
  const parents: Parents = new Map(loaded.rows.map((r) => [r.id, r.parent]))
  const live = loaded.heads.filter((h) => parents.has(Number(h.chain_node_id)))
  const subChains = new Map(live.map((h) => [h.agent_id, walkChain(parents, Number(h.chain_node_id)).ids]))

  // The chain and the members of this session.
  let chainIds: number[]
  let members: Set<number>
  if (hints.agentId !== undefined) {
    chainIds = subChains.get(hints.agentId) ?? []
    if (!subChains.has(hints.agentId)) addDiagnostic(session, { severity: 'warning', path: db, message: `subagent_heads has no live head for agent "${hints.agentId}"` })
    members = new Set(chainIds)
  } else {
    const { head, fallback } = pickHead(parents, loaded.row?.main_chain_id)
    if (fallback === 'absent' && head !== undefined) addDiagnostic(session, { severity: 'info', path: db, message: `sessions has no main_chain_id column (older schema); the transcript ends at the newest node (node_id ${head})` })
    if (fallback === 'null' && head !== undefined) addDiagnostic(session, { severity: 'info', path: db, message: `sessions.main_chain_id is NULL; the transcript ends at the newest node (node_id ${head})` })
    if (fallback === 'missing') addDiagnostic(session, { severity: 'warning', path: db, message: `sessions.main_chain_id ${loaded.row?.main_chain_id} names no message_nodes row; the newest node (node_id ${head}) is used` })
    if (fallback) session.metadata.mainChainFallback = fallback
    const chain = head === undefined ? { ids: [], cycle: false } : walkChain(parents, head)
    if (chain.cycle) addDiagnostic(session, { severity: 'warning', path: db, message: `message_nodes parent links form a cycle; the chain stops at node_id ${chain.ids[0]}` })
    if (chain.missingParent !== undefined) addDiagnostic(session, { severity: 'warning', path: db, message: `message_nodes node_id ${chain.ids[0]} names parent ${chain.missingParent}, which has no row; the chain starts there` })
    chainIds = chain.ids
    const onMain = new Set(chainIds)
    const subOnly = new Set([...subChains.values()].flat().filter((id) => !onMain.has(id)))
    members = new Set(loaded.rows.map((r) => r.id).filter((id) => !subOnly.has(id)))
    for (const h of loaded.heads.filter((x) => !live.includes(x))) {
      addDiagnostic(session, { severity: 'warning', path: db, message: `subagent_heads agent "${h.agent_id}" names node_id ${h.chain_node_id}, which has no row; no sub-agent session` })
    }
    const dangling = loaded.heads.filter((x) => !live.includes(x)).map((h) => ({ agentId: h.agent_id, chainNodeId: h.chain_node_id }))
    if (dangling.length) session.metadata.danglingSubagentHeads = dangling
    if (live.length) session.childSessionIds = live.map((h) => subagentSessionId(sid, h.agent_id))
  }

  // Build one node per parsed member row.
  const ctx = { hasUserInputFlag: loaded.rows.some((r) => r.msg?.role === 'user' && obj(r.msg.metadata)?.is_user_input !== undefined) }
  const built = new Map<number, MessageNode>()
  const messageIds = new Map<number, string>()
  const msgs = new Map<string, Json>()
  const nodeMeta = new Map<string, Json>()
  const extensionCounts: Record<string, number> = {}
  for (const r of loaded.rows) {
    if (!members.has(r.id) || !r.msg) continue
    const node = buildNode(r.id, r.msg, r.row, r.meta, ctx)
    built.set(r.id, node)
    msgs.set(node.nodeId, r.msg)
    if (r.meta) nodeMeta.set(node.nodeId, r.meta)
    const mid = str(r.msg.message_id)
    if (mid) messageIds.set(r.id, mid)
    for (const k of Object.keys(extensionsOf(r.msg))) extensionCounts[k] = (extensionCounts[k] ?? 0) + 1
  }
  const folded = foldForest(parents, members, chainIds, built, messageIds)
  session.nodes = folded.nodes
  const compactions = markCompactions(session.nodes, nodeMeta, msgs)
  const liveIds = new Set(live.map((h) => h.agent_id))
  const facts = applyCallFacts(session.nodes, msgs, loaded.tools, (a) => (liveIds.has(a) ? subagentSessionId(sid, a) : undefined))

  const m = session.metadata
  m.mainThread = folded.mainThread
  m.nodeCount = members.size
  const branches = session.nodes.filter((n) => n.metadata?.branch === true).length
  if (branches) m.branchNodes = branches
  if (folded.copies) m.foldedCopies = folded.copies
  if (folded.twins) m.foldedTwins = folded.twins
  if (compactions) m.compactions = compactions
  if (facts.applied) m.toolCallStates = facts.applied
  if (facts.unmatched && hints.agentId === undefined) m.unmatchedToolCallStates = facts.unmatched
  if (Object.keys(extensionCounts).length) m.extensionCounts = Object.fromEntries(Object.entries(extensionCounts).sort(([a], [b]) => (a < b ? -1 : 1)))
  if (loaded.schema !== undefined) m.schemaVersion = loaded.schema
  sessionFields(session, loaded, hints, sid)
}

/** Session-level fields from the `sessions` row (the parent's row for a sub-agent). */
function sessionFields(session: Session, loaded: Loaded, hints: DevinHints, sid: string): void {
  const row = loaded.row
  const m = session.metadata
  const cwd = nonEmpty(row?.working_directory)
  if (cwd !== undefined) session.workingDirectory = cwd
  const lastModel = [...session.nodes].reverse().find((n) => n.role === 'assistant' && n.model && n.metadata?.branch !== true)?.model
  if (hints.agentId !== undefined) {
    session.parentSessionId = sid
    session.agentName = hints.agentId
    const head = loaded.heads.find((h) => h.agent_id === hints.agentId)
    const updated = epochToMs(head?.updated_at)
    if (updated !== undefined) session.lastActivityAt = updated
    const spawn = loaded.rows.find((r) => r.msg?.role === 'tool' && extensionsOf(r.msg)['subagent/agent_id'] === hints.agentId)
    const callId = str(spawn?.msg?.tool_call_id)
    if (callId !== undefined) session.parentToolCallId = callId
    if (lastModel !== undefined) session.model = lastModel
    return
  }
  if (!row) return
  const title = nonEmpty(row.title)
  if (title !== undefined) session.title = title
  const model = nonEmpty(row.model) ?? lastModel
  if (model !== undefined) session.model = model
  if (nonEmpty(row.model) === undefined && row.model !== undefined) m.sessionModelEmpty = true
  const created = epochToMs(row.created_at)
  if (created !== undefined) session.createdAt = created
  const last = epochToMs(row.last_activity_at)
  if (last !== undefined) session.lastActivityAt = last
  if (nonEmpty(row.backend_type)) m.backendType = row.backend_type
  if (nonEmpty(row.agent_mode)) m.agentMode = row.agent_mode
  if (row.hidden !== undefined && row.hidden !== null && Number(row.hidden) !== 0) m.hidden = true
  if (row.main_chain_id !== undefined && row.main_chain_id !== null) m.mainChainId = String(row.main_chain_id)
  if (typeof row.shell_last_seen_index === 'number') m.shellLastSeenIndex = row.shell_last_seen_index
  if (nonEmpty(row.cogs_json)) m.hasCogs = true
  const dirs = parseJsonCell(row.workspace_dirs)
  if (dirs.ok && Array.isArray(dirs.value) && dirs.value.length) m.workspaceDirs = dirs.value
  const meta = parseJsonCell(row.metadata)
  if (meta.ok && obj(meta.value) && Object.keys(obj(meta.value)!).length) m.sessionMetadata = meta.value
  const prompts = loaded.prompts.map((p) => str(p.content)).filter((p): p is string => p !== undefined)
  if (prompts.length) session.promptHistory = prompts
  const shell = loaded.prompts.filter((p) => Number(p.is_shell) === 1).length
  if (shell) m.shellPrompts = shell
}

/** ATIF header facts: labels, totals (session usage when no message has usage), id mismatch. */
function atifFacts(session: Session, atif: Atif | undefined, ownsTotals: boolean): void {
  if (!atif || (atif.steps.length === 0 && Object.keys(atif.root).length === 0)) return
  const agent = obj(atif.root.agent)
  const info: Json = { file: atif.path, steps: atif.steps.length }
  if (str(atif.root.schema_version)) info.schemaVersion = atif.root.schema_version
  if (str(agent?.model_name)) info.modelLabel = agent!.model_name
  if (str(agent?.version)) info.agentVersion = agent!.version
  const fm = obj(atif.root.final_metrics)
  if (fm) info.finalMetrics = fm
  session.metadata.atif = info
  const atifId = str(atif.root.session_id)
  if (atifId !== undefined && atifId !== session.id && atifId !== session.id.split('/')[0]) {
    addDiagnostic(session, { severity: 'info', path: atif.path, message: `ATIF session_id "${atifId}" differs from the session id` })
  }
  if (ownsTotals && fm && !session.nodes.some((n) => n.usage)) {
    const usage = atifUsage(fm.total_prompt_tokens, fm.total_completion_tokens, fm.total_cached_tokens, fm.total_cost_usd)
    if (usage) session.usage = usage
  }
}
