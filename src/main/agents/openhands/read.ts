/**
 * Read one OpenHands session (`~/.openhands/sessions/<sid>/`, see discover.ts) into the IR.
 *
 * Each event file is one `event_to_dict` object (All-Hands-AI/OpenHands @156d0686
 * openhands/events/serialization/event.py): `{id, timestamp, source: "user"|"agent"|"environment",
 * message, cause?, tool_call_metadata?, llm_metrics?}` plus either `action` with `args` (the
 * action dataclass fields, openhands/events/action/*.py) or `observation` with `content`,
 * `extras` (the observation fields, openhands/events/observation/*.py) and, for `run`, `success`.
 * `timestamp` is `datetime.now().isoformat()` (openhands/events/stream.py `add_event`): the local
 * time of the machine that ran OpenHands, with no zone. It is read as the local time of the machine
 * reading it, as Aider's stamps are ({@link openhandsTimeToMs}); `metadata.json` `created_at` and
 * `last_updated_at` carry `+00:00` since 2025-01-13 (`datetime.now(timezone.utc)`,
 * openhands/storage/data_models/conversation_metadata.py, commit 045ec2b9 "Timezone should be
 * UTC"; before it `created_at` was a zone-less `datetime.now`), and an explicit offset is honoured.
 *
 * Actions (openhands/core/schema/action.py): `message` is a user prompt (`source` user) or an
 * agent text (`args.content`); `system` is the system prompt (a meta node); `finish`
 * (`args.final_thought`) and `reject` are the agent's closing text; `condensation` is a
 * compaction marker; `recall`, `change_agent_state`, `null`, `pause`, `resume`, `stop` and
 * `condensation_request` are control events and are not shown. Every other action (`run`
 * `{command}`, `run_ipython {code}`, `read {path}`, `write {path, content}`, `edit {path, command,
 * old_str, new_str, file_text}`, `think {thought}`, `browse`, `call_tool_mcp`, `delegate`,
 * `task_tracking`, ...) is one assistant node with one tool call: id
 * `tool_call_metadata.tool_call_id` (else `event-<id>`), name `tool_call_metadata.function_name`
 * (else the action), `arguments` the recorded `args`, the node text `args.thought`.
 *
 * Observations pair with their action by `cause` (the action's event id), else by
 * `tool_call_metadata.tool_call_id`, and become tool results. A result is an error for
 * `observation` `error` or `user_rejected`, `success: false`, or a `run` whose
 * `extras.metadata.exit_code` (CmdOutputMetadata, openhands/events/observation/commands.py) is
 * neither 0 nor -1 (-1 is "unknown"); that exit code is the call's `exitCode`. An observation with
 * no action becomes a system node (`error` as `api-error`). `agent_state_changed` and `recall`
 * observations are not shown.
 *
 * Usage: per model response, `tool_call_metadata.model_response.usage` (LiteLLM `prompt_tokens`,
 * `completion_tokens`, `prompt_tokens_details.cached_tokens` / `cache_read_input_tokens`,
 * `cache_creation_input_tokens`, `completion_tokens_details.reasoning_tokens`) on the first node
 * of that response id. `inputTokens` is `prompt_tokens` less cache reads and writes (LiteLLM
 * counts them in `prompt_tokens`). Session usage: the last event's `llm_metrics`
 * (`accumulated_token_usage`, `accumulated_cost` in USD; Metrics.get in openhands/llm/metrics.py),
 * else metadata.json's `prompt_tokens`/`completion_tokens`/`accumulated_cost`.
 * metadata.json (ConversationMetadata, openhands/storage/data_models/conversation_metadata.py)
 * gives `title`, `created_at`, `last_updated_at`, `llm_model`, `selected_repository`, `trigger`.
 */
import { readFile } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import type { MessageNode, Session, ToolCall, ToolCallDiff, ToolKind, Usage } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession, skipRecord } from '../../ir/build'
import { toolKind } from '../../ir/toolkind'
import type { ReadContext, StoreRef } from '../types'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** Control actions that are not shown (see the module comment). */
const HIDDEN_ACTIONS = new Set(['recall', 'change_agent_state', 'null', 'pause', 'resume', 'stop', 'condensation_request'])
/** Observations that are not shown. */
const HIDDEN_OBSERVATIONS = new Set(['agent_state_changed', 'recall', 'null'])

/**
 * An OpenHands `isoformat()` timestamp → ms since epoch. A time with an offset (`Z`, `+00:00`) is
 * read with it. A time with none is the wall clock of the machine that ran OpenHands (V0
 * openhands/events/stream.py and V1 software-agent-sdk @611629e6 openhands-sdk/openhands/sdk/event/base.py
 * both write `datetime.now().isoformat()`), so it is read as the local time of the machine reading
 * it (the process's zone, `TZ`): right when both are the same machine or zone, off by the
 * difference of their offsets for a folder copied from another zone (as Aider, agents/aider/history.ts
 * `wallClockMs`). Undefined for anything else.
 */
export function openhandsTimeToMs(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined
  const zoned = /([zZ]|[+-]\d{2}:?\d{2})$/.test(value)
  // JavaScript dates keep milliseconds; Python writes microseconds.
  const iso = value.replace(/(\.\d{3})\d+/, '$1')
  if (zoned) {
    const ms = Date.parse(iso)
    return Number.isNaN(ms) ? undefined : ms
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(iso)
  if (!m) return undefined
  const [, y, mo, d, h, mi, sec, frac] = m
  const t = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec ?? 0), frac ? Number(frac.padEnd(3, '0')) : 0).getTime()
  return Number.isNaN(t) ? undefined : t
}

/** `session.metadata.timeZone` of an OpenHands session whose event times carry no zone. */
export const OPENHANDS_TIME_ZONE = 'unrecorded (OpenHands writes local wall-clock time; read as the local time of the machine reading it)'

/** True for a timestamp string with no zone (see {@link openhandsTimeToMs}). */
export function zoneless(value: unknown): boolean {
  return typeof value === 'string' && value !== '' && !/([zZ]|[+-]\d{2}:?\d{2})$/.test(value)
}

/** ACP kind of an OpenHands action. */
export function openhandsKind(action: string, toolName: string): ToolKind {
  switch (action) {
    case 'run':
    case 'run_ipython':
      return 'execute'
    case 'read':
      return 'read'
    case 'write':
    case 'edit':
      return 'edit'
    case 'think':
      return 'think'
    case 'browse':
    case 'browse_interactive':
      return 'fetch'
    default:
      return toolKind(toolName)
  }
}

/** Files and changes named by a file action's `args`. */
function fileDetails(action: string, args: Json): Pick<ToolCall, 'locations' | 'diffs'> {
  const path = str(args.path)
  if (!path || !['read', 'write', 'edit'].includes(action)) return {}
  const diffs: ToolCallDiff[] = []
  if (action === 'write' && typeof args.content === 'string') diffs.push({ path, newText: args.content })
  if (action === 'edit') {
    if (args.command === 'str_replace' && typeof args.old_str === 'string' && typeof args.new_str === 'string') diffs.push({ path, oldText: args.old_str, newText: args.new_str })
    else if (args.command === 'create' && typeof args.file_text === 'string') diffs.push({ path, newText: args.file_text })
  }
  return { locations: [{ path }], ...(diffs.length && { diffs }) }
}

/** LiteLLM `usage` of one model response → IR usage (see the module comment). */
function responseUsage(u: Json | undefined): Usage | undefined {
  if (!u) return undefined
  const prompt = num(u.prompt_tokens)
  const output = num(u.completion_tokens)
  const cacheRead = num(obj(u.prompt_tokens_details)?.cached_tokens) ?? num(u.cache_read_input_tokens)
  const cacheWrite = num(u.cache_creation_input_tokens)
  const thinking = num(obj(u.completion_tokens_details)?.reasoning_tokens)
  if (prompt === undefined && output === undefined) return undefined
  const out: Usage = {}
  if (prompt !== undefined) out.inputTokens = Math.max(0, prompt - (cacheRead ?? 0) - (cacheWrite ?? 0))
  if (output !== undefined) out.outputTokens = output
  if (cacheRead) out.cacheReadTokens = cacheRead
  if (cacheWrite) out.cacheWriteTokens = cacheWrite
  if (thinking) out.thinkingTokens = thinking
  return out
}

/** `llm_metrics` (Metrics.get) or metadata.json counts → session usage. */
function accumulatedUsage(prompt: number | undefined, output: number | undefined, cacheRead: number | undefined, cacheWrite: number | undefined, cost: number | undefined): Usage | undefined {
  if (prompt === undefined && output === undefined && cost === undefined) return undefined
  const out: Usage = {}
  if (prompt !== undefined) out.inputTokens = Math.max(0, prompt - (cacheRead ?? 0) - (cacheWrite ?? 0))
  if (output !== undefined) out.outputTokens = output
  if (cacheRead) out.cacheReadTokens = cacheRead
  if (cacheWrite) out.cacheWriteTokens = cacheWrite
  if (cost !== undefined) out.cost = cost
  return out
}

interface LoadedEvent {
  e: Json
  id: number
  path: string
}

async function loadEvents(ref: StoreRef, session: Session): Promise<LoadedEvent[]> {
  const out: LoadedEvent[] = []
  for (const [i, path] of ref.files.entries()) {
    if (/metadata\.json$/.test(path)) continue
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch (e) {
      if (i === 0) throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${(e as Error).message}`, path })
      skipRecord(session, { severity: 'warning', path, message: `cannot read event file: ${(e as Error).message}; skipped` })
      continue
    }
    let v: unknown
    try {
      v = JSON.parse(text)
    } catch {
      skipRecord(session, { severity: 'warning', path, line: 1, message: 'event file is not JSON (cut short?); skipped' })
      continue
    }
    const e = obj(v)
    if (!e) {
      skipRecord(session, { severity: 'warning', path, line: 1, message: 'event file is not a JSON object; skipped' })
      continue
    }
    const fileId = Number(/(\d+)\.json$/.exec(path)?.[1] ?? NaN)
    out.push({ e, id: num(e.id) ?? fileId, path })
  }
  return out.sort((a, b) => a.id - b.id)
}

async function readMetadata(ref: StoreRef, session: Session): Promise<Json | undefined> {
  const path = ref.files.find((f) => /metadata\.json$/.test(f))
  if (!path) return undefined
  try {
    const m = obj(JSON.parse(await readFile(path, 'utf8')))
    if (!m) addDiagnostic(session, { severity: 'warning', path, line: 1, message: 'metadata.json is not a JSON object; ignored' })
    return m
  } catch (e) {
    addDiagnostic(session, { severity: 'warning', path, line: 1, message: `metadata.json cannot be read (${(e as Error).message}); ignored` })
    return undefined
  }
}

/**
 * Read the session `ref` names. Rejects with `READ_FAILED` only when its first event file cannot
 * be opened; a damaged event file is a diagnostic naming it, and the other events load.
 */
export async function readOpenHandsSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  if (ref.files[0] === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no file' })
  const session = newSession('openhands', ref.sessionId, ref.format, ref.files, ref.home)
  const events = await loadEvents(ref, session)
  const meta = await readMetadata(ref, session)
  const callsByEvent = new Map<number, ToolCall>()
  const callsById = new Map<string, ToolCall>()
  const seenResponses = new Set<string>()
  let lastMetrics: Json | undefined
  const push = (n: MessageNode): void => {
    const prev = session.nodes[session.nodes.length - 1]
    if (prev) n.parentNodeId = prev.nodeId
    session.nodes.push(n)
  }
  for (const { e, id, path } of events) {
    const nodeId = `event-${id}`
    const at = openhandsTimeToMs(e.timestamp)
    if (zoneless(e.timestamp)) session.metadata.timeZone ??= OPENHANDS_TIME_ZONE
    const base = at !== undefined ? { createdAt: at } : {}
    const tcm = obj(e.tool_call_metadata)
    const response = obj(tcm?.model_response)
    if (obj(e.llm_metrics)) lastMetrics = obj(e.llm_metrics)
    const action = str(e.action)
    const observation = str(e.observation)
    if (action !== undefined) {
      const args = obj(e.args) ?? {}
      if (HIDDEN_ACTIONS.has(action)) continue
      const node: MessageNode = { nodeId, role: 'assistant', content: '', ...base }
      const model = str(response?.model)
      if (model) node.model = model
      const rid = str(response?.id)
      if (rid) node.requestId = rid
      if (rid && !seenResponses.has(rid)) {
        seenResponses.add(rid)
        const u = responseUsage(obj(response?.usage))
        if (u) node.usage = u
      }
      if (action === 'message') {
        node.role = e.source === 'user' ? 'user' : 'assistant'
        node.content = str(args.content) ?? str(e.message) ?? ''
        const images = Array.isArray(args.image_urls) ? args.image_urls : []
        if (images.length) node.metadata = { imageUrls: images }
      } else if (action === 'system') {
        node.role = 'system'
        node.isMeta = true
        node.content = str(args.content) ?? ''
        if (str(args.agent_class)) session.metadata.agentClass = args.agent_class
        if (str(args.openhands_version)) session.metadata.openhandsVersion = args.openhands_version
      } else if (action === 'finish' || action === 'reject') {
        node.content = str(args.final_thought) || str(args.thought) || str(e.message) || ''
        node.metadata = { [action]: true, ...(obj(args.outputs) && Object.keys(obj(args.outputs)!).length && { outputs: args.outputs }) }
      } else if (action === 'condensation') {
        push({ nodeId, role: 'system', event: 'compaction', content: str(args.summary) ?? 'Earlier events were condensed.', ...base })
        continue
      } else {
        const name = str(tcm?.function_name) ?? action
        const call: ToolCall = { id: str(tcm?.tool_call_id) ?? nodeId, name, kind: openhandsKind(action, name), arguments: args, ...fileDetails(action, args) }
        if (callsById.has(call.id)) call.id = `${call.id}:${nodeId}`
        if (action === 'think') node.thinking = str(args.thought) ?? ''
        else node.content = str(args.thought) ?? ''
        node.toolCalls = [call]
        callsByEvent.set(id, call)
        callsById.set(call.id, call)
      }
      push(node)
    } else if (observation !== undefined) {
      if (HIDDEN_OBSERVATIONS.has(observation)) continue
      const extras = obj(e.extras) ?? {}
      const content = str(e.content) ?? str(e.message) ?? ''
      const cause = num(e.cause)
      const call = (cause !== undefined ? callsByEvent.get(cause) : undefined) ?? (str(tcm?.tool_call_id) ? callsById.get(str(tcm?.tool_call_id)!) : undefined)
      if (!call) {
        push({ nodeId, role: 'system', event: observation === 'error' ? 'api-error' : 'notice', content, ...base, metadata: { observation } })
        continue
      }
      const exitCode = observation === 'run' ? num(obj(extras.metadata)?.exit_code) : undefined
      if (exitCode !== undefined && exitCode !== -1) call.exitCode = exitCode
      if (observation === 'run' && !session.workingDirectory && str(obj(extras.metadata)?.working_dir)) session.workingDirectory = str(obj(extras.metadata)?.working_dir)
      const isError = observation === 'error' || observation === 'user_rejected' || e.success === false || (exitCode !== undefined && exitCode !== 0 && exitCode !== -1)
      if (observation === 'edit' && !call.diffs && str(extras.path) && typeof extras.new_content === 'string') {
        call.diffs = [{ path: str(extras.path)!, ...(typeof extras.old_content === 'string' && { oldText: extras.old_content }), newText: extras.new_content }]
      }
      const result: MessageNode = { nodeId, role: 'tool', toolCallId: call.id, content, ...(isError && { isError: true }), ...base }
      if (str(extras.diff)) result.metadata = { diff: extras.diff }
      push(result)
    } else {
      skipRecord(session, { severity: 'warning', path, line: 1, message: 'event is neither an action nor an observation; skipped' })
    }
  }
  if (meta) {
    if (str(meta.title)) session.title = str(meta.title)
    const created = openhandsTimeToMs(meta.created_at)
    if (created !== undefined) session.createdAt = created
    const updated = openhandsTimeToMs(meta.last_updated_at)
    if (updated !== undefined) session.lastActivityAt = updated
    if (str(meta.llm_model)) session.model = str(meta.llm_model)
    if (str(meta.selected_repository)) session.metadata.selectedRepository = meta.selected_repository
    if (str(meta.trigger)) session.metadata.trigger = meta.trigger
  }
  const acc = obj(lastMetrics?.accumulated_token_usage)
  const usage = lastMetrics
    ? accumulatedUsage(num(acc?.prompt_tokens), num(acc?.completion_tokens), num(acc?.cache_read_tokens), num(acc?.cache_write_tokens), num(lastMetrics.accumulated_cost))
    : meta
      ? accumulatedUsage(num(meta.prompt_tokens), num(meta.completion_tokens), undefined, undefined, num(meta.accumulated_cost))
      : undefined
  if (usage) session.usage = usage
  return finishSession(session)
}
