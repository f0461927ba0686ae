/**
 * A session as an ATIF v1.7 trajectory (Harbor RFC 0001; `shared/formats/cursor-devin-atif-acp.md`
 * section D), checked by {@link validateAtif} before it is written.
 *
 * Mapping (IR → ATIF):
 * - root: `schema_version: "ATIF-v1.7"`, `session_id` = session id, `agent{name: agent id,
 *   version, model_name}`; `version` is required by ATIF but the IR has no field for it: the
 *   store's own version (`metadata.version`, `cliVersion`, `agentVersion`) when recorded, else
 *   `"unknown"`. `extra.sepia` keeps title, project, source format, IR version.
 * - `user` / `system` nodes → `user` / `system` steps; `assistant` nodes → `agent` steps with
 *   `model_name`, `reasoning_content` (thinking), `tool_calls[{tool_call_id, function_name,
 *   arguments}]` (non-object arguments are wrapped as `{input: …}`), `metrics` (ATIF
 *   `prompt_tokens` **includes** cached tokens, v1.2: input + cache read + cache write;
 *   `cached_tokens` = cache read; `extra.cache_creation_input_tokens`, `reasoning_tokens`).
 * - Tool results paired to a call → the calling step's `observation.results[{source_call_id,
 *   content}]`; a result with no call in the session → a `system` step with an observation whose
 *   `source_call_id` is null (the id kept in `extra`).
 * - Event markers → `system` steps with `extra.sepia_event`; a compaction also gets the v1.7
 *   convention `extra.context_management {type: "compaction", boundary: "replace"}` with the
 *   summary as its observation.
 * - Sub-agent sessions given in `subagents` are embedded in `subagent_trajectories` (each with
 *   `trajectory_id` = its session id) and referenced from the spawning call's observation.
 * - Images cannot be embedded (ATIF images are files next to the trajectory): they become a text
 *   mention. Injected (`isMeta`) nodes are kept with `extra.is_meta: true`.
 */
import type { MessageNode, Session, ToolCall, Usage } from '../../shared/ir'
import { IR_VERSION } from '../../shared/ir'
import type { ContentChoice } from './rows'

/** The schema version this writer produces. */
export const ATIF_SCHEMA_VERSION = 'ATIF-v1.7'

type Json = Record<string, unknown>

/** Options for {@link sessionToAtif}. */
export interface AtifOptions extends ContentChoice {
  /** e.g. `Sepia 0.1.0`, recorded in `agent.extra.exported_by`. */
  exportedBy?: string
  /** Sub-agent sessions of `session` to embed (their own children via `childrenOf`). */
  childrenOf?: (session: Session) => Session[]
}

/** Build the ATIF trajectory of a session (pure). */
export function sessionToAtif(session: Session, options: AtifOptions = {}, embedded = false): Json {
  const children = options.childrenOf?.(session) ?? []
  const embeddedIds = new Set(children.map((c) => c.id))
  const steps = buildSteps(session, options, embeddedIds)
  const root: Json = { schema_version: ATIF_SCHEMA_VERSION, session_id: session.id }
  if (embedded) root.trajectory_id = session.id
  const agent: Json = { name: session.agent, version: agentVersion(session) }
  if (session.model) agent.model_name = session.model
  if (options.exportedBy) agent.extra = { exported_by: options.exportedBy }
  root.agent = agent
  root.steps = steps
  const totals = sessionTotals(session)
  const final: Json = { total_steps: steps.length }
  if (totals) {
    const m = metricsOf(totals)
    if (m.prompt_tokens !== undefined) final.total_prompt_tokens = m.prompt_tokens
    if (m.completion_tokens !== undefined) final.total_completion_tokens = m.completion_tokens
    if (m.cached_tokens !== undefined) final.total_cached_tokens = m.cached_tokens
    if (m.cost_usd !== undefined) final.total_cost_usd = m.cost_usd
  }
  root.final_metrics = final
  const sepia: Json = { ir_version: IR_VERSION, source_format: session.source.format }
  if (session.title) sepia.title = session.title
  if (session.workingDirectory) sepia.working_directory = session.workingDirectory
  if (session.createdAt !== undefined) sepia.created_at = new Date(session.createdAt).toISOString()
  if (session.parentSessionId) sepia.parent_session_id = session.parentSessionId
  if (session.git) sepia.git = session.git
  root.extra = { sepia }
  if (children.length > 0) root.subagent_trajectories = children.map((c) => sessionToAtif(c, options, true))
  return root
}

function buildSteps(session: Session, options: AtifOptions, embeddedIds: Set<string>): Json[] {
  const thinking = options.includeThinking !== false
  const toolOutput = options.includeToolOutput !== false
  const callIds = new Set<string>()
  for (const n of session.nodes) for (const c of n.toolCalls ?? []) callIds.add(c.id)
  const results = new Map<string, MessageNode[]>()
  for (const n of session.nodes) {
    if (n.role === 'tool' && n.toolCallId && callIds.has(n.toolCallId)) results.set(n.toolCallId, [...(results.get(n.toolCallId) ?? []), n])
  }
  const steps: Json[] = []
  const push = (s: Json) => steps.push({ step_id: steps.length + 1, ...s })
  for (const n of session.nodes) {
    if (n.role === 'tool' && n.toolCallId && callIds.has(n.toolCallId)) continue // in its call's observation
    const extra: Json = { node_id: n.nodeId }
    if (n.parentNodeId) extra.parent_node_id = n.parentNodeId
    if (n.isMeta) extra.is_meta = true
    const base: Json = {}
    if (n.createdAt !== undefined) base.timestamp = new Date(n.createdAt).toISOString()
    if (n.event) {
      extra.sepia_event = n.event
      const s: Json = { ...base, source: 'system', message: n.event === 'compaction' ? '' : n.content }
      if (n.event === 'compaction') {
        extra.context_management = { type: 'compaction', boundary: 'replace' }
        if (n.content) s.observation = { results: [{ source_call_id: null, content: n.content }] }
      }
      push({ ...s, extra })
      continue
    }
    if (n.role === 'tool') {
      extra.tool_call_id = n.toolCallId ?? null
      if (n.toolName) extra.tool_name = n.toolName
      const r: Json = { source_call_id: null }
      if (toolOutput) r.content = n.content
      if (n.isError) r.extra = { is_error: true }
      push({ ...base, source: 'system', message: '', observation: { results: [r] }, extra })
      continue
    }
    const message = messageText(n)
    if (n.role !== 'assistant') {
      push({ ...base, source: n.role === 'user' ? 'user' : 'system', message, extra })
      continue
    }
    const s: Json = { ...base, source: 'agent' }
    if (n.model) s.model_name = n.model
    s.message = message
    if (thinking && n.thinking) s.reasoning_content = n.thinking
    if (n.toolCalls?.length) {
      s.tool_calls = n.toolCalls.map((c) => toolCall(c, toolOutput))
      const obs: Json[] = []
      for (const c of n.toolCalls) {
        for (const r of results.get(c.id) ?? []) {
          const o: Json = { source_call_id: c.id }
          if (toolOutput) o.content = r.content
          if (r.isError) o.extra = { is_error: true }
          if (c.subagentSessionId && embeddedIds.has(c.subagentSessionId)) o.subagent_trajectory_ref = [{ trajectory_id: c.subagentSessionId, session_id: c.subagentSessionId }]
          obs.push(o)
        }
        if (!results.has(c.id) && c.subagentSessionId && embeddedIds.has(c.subagentSessionId)) {
          obs.push({ source_call_id: c.id, subagent_trajectory_ref: [{ trajectory_id: c.subagentSessionId, session_id: c.subagentSessionId }] })
        }
      }
      if (obs.length) s.observation = { results: obs }
    }
    if (n.usage) {
      const m = metricsOf(n.usage)
      if (Object.keys(m).length) s.metrics = m
    }
    if (n.finishReason) extra.finish_reason = n.finishReason
    if (n.requestId) extra.request_id = n.requestId
    push({ ...s, extra })
  }
  return steps
}

function toolCall(c: ToolCall, toolOutput: boolean): Json {
  const args = !toolOutput ? {} : c.arguments && typeof c.arguments === 'object' && !Array.isArray(c.arguments) ? c.arguments : c.arguments === undefined ? {} : { input: c.arguments }
  const extra: Json = { kind: c.kind }
  if (c.status) extra.status = c.status
  if (c.subagentSessionId) extra.subagent_session_id = c.subagentSessionId
  return { tool_call_id: c.id, function_name: c.name, arguments: args, extra }
}

function messageText(n: MessageNode): string {
  const extras = (n.blocks ?? [])
    .map((b) => (b.type === 'image' ? `[image${b.mediaType ? ` ${b.mediaType}` : ''}${b.uri ? `: ${b.uri}` : ''}]` : b.type === 'file' ? `[file${b.path ? `: ${b.path}` : ''}]` : ''))
    .filter(Boolean)
  return [n.content, ...extras].filter((t) => t !== '').join('\n\n')
}

const int = (v: number | undefined): number | undefined => (v !== undefined && Number.isInteger(v) && v >= 0 ? v : undefined)

/** ATIF step metrics of an IR usage: prompt tokens include cache reads and writes (ATIF v1.2). */
function metricsOf(u: Usage): Json {
  const m: Json = {}
  const input = int(u.inputTokens)
  const read = int(u.cacheReadTokens)
  const write = int(u.cacheWriteTokens)
  if (input !== undefined || read !== undefined || write !== undefined) m.prompt_tokens = (input ?? 0) + (read ?? 0) + (write ?? 0)
  if (int(u.outputTokens) !== undefined) m.completion_tokens = u.outputTokens
  if (read !== undefined) m.cached_tokens = read
  if (typeof u.cost === 'number' && Number.isFinite(u.cost)) m.cost_usd = u.cost
  const extra: Json = {}
  if (write !== undefined) extra.cache_creation_input_tokens = write
  if (int(u.thinkingTokens) !== undefined) extra.reasoning_tokens = u.thinkingTokens
  if (Object.keys(extra).length) m.extra = extra
  return m
}

/** Session totals: the store's own when recorded, else the sum of the messages' usage. */
function sessionTotals(session: Session): Usage | undefined {
  if (session.usage) return session.usage
  let total: Usage | undefined
  for (const n of session.nodes) {
    if (!n.usage) continue
    total ??= {}
    for (const k of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'thinkingTokens', 'cost'] as const) {
      const v = n.usage[k]
      if (typeof v === 'number') total[k] = (total[k] ?? 0) + v
    }
  }
  return total
}

function agentVersion(session: Session): string {
  for (const k of ['version', 'cliVersion', 'agentVersion', 'clineVersion']) {
    const v = session.metadata[k]
    if (typeof v === 'string' && v.trim()) return v.trim()
  }
  return 'unknown'
}
