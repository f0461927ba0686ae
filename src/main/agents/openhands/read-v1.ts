/**
 * Read one openhands-cli ("V1", software-agent-sdk) conversation (`~/.openhands/conversations/<hex>/`,
 * see discover.ts) into the IR.
 *
 * Shapes from OpenHands/software-agent-sdk @611629e6 (openhands-sdk/openhands/sdk/...) and the real
 * SDK events in its test data (tests/sdk/conversation/goal/fixtures/events.jsonl, a real run, and
 * tests/fixtures/conversations/v1_11_5_cli_default/base_state.json, what CLI 1.11.5 wrote):
 *
 * - Each event file is one pydantic `model_dump` of an `Event` (event/base.py): `{id (uuid),
 *   timestamp (datetime.now().isoformat(): local time, no zone; read as the local time of the machine reading it, like V0 and Aider, read.ts `openhandsTimeToMs`), source
 *   ("agent" | "user" | "environment" | "hook"), parent_id?, kind (the class name)}` plus its fields:
 *   - `SystemPromptEvent` `system_prompt {text}`, `tools`, `dynamic_context?` (llm_convertible/system.py): a meta node;
 *   - `MessageEvent` `llm_message {role, content [text | image], reasoning_content?, thinking_blocks}`,
 *     `llm_response_id?`, `activated_skills`, `extended_content`, `sender?` (llm_convertible/message.py):
 *     a user prompt (`source` user) or an agent text;
 *   - `ActionEvent` `thought [text]`, `reasoning_content?`, `thinking_blocks [{thinking, signature}]`,
 *     `action {kind, ...fields}` (null when the call could not be parsed or the tool is unknown),
 *     `tool_name`, `tool_call_id`, `tool_call {id, name, arguments (JSON text)}`, `llm_response_id`,
 *     `summary?` (llm_convertible/action.py): one assistant node with one call (arguments: the action's
 *     fields, else the parsed `tool_call.arguments`); `finish` (`FinishAction {message}`,
 *     tool/builtins/finish.py) also shows its message as the node's text, `think` (`ThinkAction
 *     {thought}`) its thought as thinking;
 *   - `ObservationEvent` `tool_name`, `tool_call_id`, `action_id`, `observation {kind, content [text |
 *     image], is_error, ...}` (llm_convertible/observation.py, tool/schema.py `Observation`):
 *     the call's result. `TerminalObservation` (openhands-tools terminal/definition.py) has
 *     `exit_code` (null when unknown) and `metadata.exit_code` (-1: unknown); a code other than 0
 *     and -1 is the call's `exitCode` and marks it failed. `FileEditorObservation` has `old_content`,
 *     `new_content`, `path` (the diff, when the action gave none). Older SDK observations carried an
 *     `output` string (ExecuteBashObservation): read when `content` is absent;
 *   - `UserRejectObservation` `rejection_reason`, `rejection_source` and `AgentErrorEvent` `error`:
 *     a failed result of their call (an `AgentErrorEvent` with no known call is an `api-error` node);
 *   - `Condensation` `forgotten_event_ids`, `summary?` and `CondensationSummaryEvent` `summary`
 *     (event/condenser.py): compaction markers; `InterruptEvent` (event/user_action.py): an
 *     `interrupted` marker; `ConversationErrorEvent` `code`, `detail` (event/conversation_error.py): `api-error`;
 *   - not shown: `ConversationStateUpdateEvent` (`key`, `value`; a `stats` value is the running usage),
 *     `CondensationRequest`, `PauseEvent`, `LLMCompletionLogEvent`, `TokenEvent`,
 *     `StreamingDeltaEvent`, `HookExecutionEvent`, `ACPToolCallEvent` ({@link HIDDEN_V1_KINDS}).
 * - The tree (event_store.py `_effective_parent_id`): an event's parent is `parent_id` when set
 *   (the reserved root sentinel: none), else the event before it. The shown thread is the path to
 *   `base_state.leaf_event_id` when it names an event, else to the last event; nodes off it get
 *   `metadata.branch = true`, `session.metadata.mainThread` lists the path.
 * - `base_state.json` (conversation/state.py `ConversationState`): `id` (the uuid), `agent.llm.model`,
 *   `workspace.working_dir`, `execution_status`, `leaf_event_id?`, `stats.usage_to_metrics.<usage id>`
 *   = `Metrics` (llm/utils/metrics.py): `accumulated_cost` (USD), `accumulated_token_usage`
 *   and `token_usages[]` (`prompt_tokens`, `completion_tokens`, `cache_read_tokens`,
 *   `cache_write_tokens`, `reasoning_tokens`, `response_id`). A response's usage goes on the first
 *   node carrying its `llm_response_id`; the session's is the sum over usage ids (agent and
 *   condenser). `inputTokens` is `prompt_tokens` less cache reads and writes (LiteLLM counts them
 *   in `prompt_tokens`, as in V0).
 */
import { readFile } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import type { ContentBlock, MessageNode, Session, ToolCall, ToolCallDiff, ToolKind, Usage } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession, skipRecord } from '../../ir/build'
import { toolKind } from '../../ir/toolkind'
import type { ReadContext, StoreRef } from '../types'
import { OPENHANDS_TIME_ZONE, openhandsTimeToMs, zoneless } from './read'
import { HIDDEN_V1_KINDS } from './format'

/** Moved to ./format.ts so discovery and the census load without this reader; kept here for its importers. */
export { SHOWN_V1_KINDS, HIDDEN_V1_KINDS } from './format'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

const HIDDEN = new Set<string>(HIDDEN_V1_KINDS)
/** event/types.py `ROOT_PARENT_ID`: a parent_id meaning "a root". */
const ROOT_PARENT_ID = '__root__'

/** ACP kind of a V1 tool call (openhands-tools names, and the older execute_bash / str_replace_editor). */
export function v1Kind(toolName: string, args: Json): ToolKind {
  switch (toolName) {
    case 'terminal':
    case 'execute_bash':
    case 'bash':
      return 'execute'
    case 'file_editor':
    case 'str_replace_editor':
      return args.command === 'view' ? 'read' : 'edit'
    case 'think':
      return 'think'
    case 'glob':
    case 'grep':
      return 'search'
    default:
      return toolName.startsWith('browser_') ? 'fetch' : toolKind(toolName)
  }
}

/** Files and changes a file_editor call names. */
function fileDetails(toolName: string, args: Json): Pick<ToolCall, 'locations' | 'diffs'> {
  const path = str(args.path)
  if (!path || !['file_editor', 'str_replace_editor'].includes(toolName)) return {}
  const diffs: ToolCallDiff[] = []
  if (args.command === 'str_replace' && typeof args.old_str === 'string' && typeof args.new_str === 'string') diffs.push({ path, oldText: args.old_str, newText: args.new_str })
  else if (args.command === 'create' && typeof args.file_text === 'string') diffs.push({ path, newText: args.file_text })
  return { locations: [{ path }], ...(diffs.length && { diffs }) }
}

/** Text and image blocks of a `content` list (TextContent / ImageContent). */
function contentOf(content: unknown): { text: string; blocks?: ContentBlock[] } {
  if (typeof content === 'string') return { text: content }
  const texts: string[] = []
  const blocks: ContentBlock[] = []
  let image = false
  for (const b of Array.isArray(content) ? content : []) {
    const o = obj(b)
    if (o?.type === 'text') {
      texts.push(str(o.text) ?? '')
      blocks.push({ type: 'text', text: str(o.text) ?? '' })
    } else if (o?.type === 'image') {
      image = true
      for (const url of Array.isArray(o.image_urls) ? o.image_urls : []) if (typeof url === 'string') blocks.push(url.startsWith('data:') ? { type: 'image', ...(/^data:([^;,]+)/.exec(url) ? { mediaType: /^data:([^;,]+)/.exec(url)![1]! } : {}), data: url.replace(/^data:[^,]*,/, '') } : { type: 'image', uri: url })
    }
  }
  return { text: texts.join('\n\n'), ...(image ? { blocks } : {}) }
}

/** Thinking text and the first signature of `reasoning_content` / `thinking_blocks`. */
function thinkingOf(e: Json): { thinking?: string; signature?: string } {
  const blocks = (Array.isArray(e.thinking_blocks) ? e.thinking_blocks : []).map(obj).filter((b): b is Json => !!b && b.type === 'thinking')
  const fromBlocks = blocks.map((b) => str(b.thinking) ?? '').filter((t) => t)
  const thinking = fromBlocks.length ? fromBlocks.join('\n\n') : str(e.reasoning_content) || undefined
  const signature = blocks.map((b) => str(b.signature)).find((s) => s)
  return { ...(thinking ? { thinking } : {}), ...(signature ? { signature } : {}) }
}

/** A `TokenUsage` → IR usage (see the module comment). */
function tokenUsage(u: Json | undefined, cost?: number): Usage | undefined {
  if (!u) return undefined
  const prompt = num(u.prompt_tokens)
  const output = num(u.completion_tokens)
  if (prompt === undefined && output === undefined && cost === undefined) return undefined
  const cacheRead = num(u.cache_read_tokens) ?? 0
  const cacheWrite = num(u.cache_write_tokens) ?? 0
  const out: Usage = {}
  if (prompt !== undefined) out.inputTokens = Math.max(0, prompt - cacheRead - cacheWrite)
  if (output !== undefined) out.outputTokens = output
  if (cacheRead) out.cacheReadTokens = cacheRead
  if (cacheWrite) out.cacheWriteTokens = cacheWrite
  if (num(u.reasoning_tokens)) out.thinkingTokens = num(u.reasoning_tokens)
  if (cost !== undefined) out.cost = cost
  return out
}

/** Sum of the `Metrics` of every usage id (`usage_to_metrics`), or undefined when none counts. */
function statsUsage(stats: Json | undefined): Usage | undefined {
  const metrics = Object.values(obj(stats?.usage_to_metrics) ?? {}).map(obj).filter((m): m is Json => !!m)
  let out: Usage | undefined
  for (const m of metrics) {
    const u = tokenUsage(obj(m.accumulated_token_usage), num(m.accumulated_cost))
    if (!u) continue
    out ??= {}
    for (const k of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'thinkingTokens', 'cost'] as const) if (u[k] !== undefined) out[k] = (out[k] ?? 0) + u[k]!
  }
  return out
}

interface LoadedEvent {
  e: Json
  path: string
}

/**
 * Read the V1 conversation `ref` names. Rejects with `READ_FAILED` only when its first event file
 * cannot be opened; a damaged event file is a diagnostic naming it, and the other events load.
 */
export async function readOpenHandsV1(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  if (ref.files[0] === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no file' })
  const session = newSession('openhands', ref.sessionId, ref.format, ref.files, ref.home)
  const events: LoadedEvent[] = []
  let state: Json | undefined
  for (const [i, path] of ref.files.entries()) {
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch (e) {
      if (i === 0) throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${(e as Error).message}`, path })
      skipRecord(session, { severity: 'warning', path, message: `cannot read file: ${(e as Error).message}; skipped` })
      continue
    }
    const isState = /base_state\.json$/.test(path)
    let v: Json | undefined
    try {
      v = obj(JSON.parse(text))
    } catch {
      skipRecord(session, { severity: 'warning', path, line: 1, message: `${isState ? 'base_state.json' : 'event file'} is not JSON (cut short?); skipped` })
      continue
    }
    if (!v) {
      skipRecord(session, { severity: 'warning', path, line: 1, message: `${isState ? 'base_state.json' : 'event file'} is not a JSON object; skipped` })
      continue
    }
    if (isState) state = v
    else events.push({ e: v, path })
  }

  // Per-response usage from the metrics in base_state.json.
  const responseUsage = new Map<string, Usage>()
  for (const m of Object.values(obj(obj(state?.stats)?.usage_to_metrics) ?? {})) {
    for (const tu of Array.isArray(obj(m)?.token_usages) ? (obj(m)!.token_usages as unknown[]) : []) {
      const rid = str(obj(tu)?.response_id)
      const u = tokenUsage(obj(tu))
      if (rid && u && !responseUsage.has(rid)) responseUsage.set(rid, u)
    }
  }
  const usedResponses = new Set<string>()
  const calls = new Map<string, ToolCall>()
  const callOfAction = new Map<string, ToolCall>()
  /** Event id → nearest node at or above it; event id → its parent event id. */
  const nodeAbove = new Map<string, string | undefined>()
  const parentOf = new Map<string, string | undefined>()
  const nodeOfEvent = new Map<string, MessageNode>()
  let lastStats: Json | undefined
  let prevId: string | undefined

  for (const [idx, { e, path }] of events.entries()) {
    let id = str(e.id) ?? `event-${idx}`
    if (parentOf.has(id)) {
      addDiagnostic(session, { severity: 'warning', path, line: 1, message: `event id ${id} was used by an earlier event file; this one is called ${id}@${idx}` })
      id = `${id}@${idx}`
    }
    const pid = e.parent_id === ROOT_PARENT_ID ? undefined : str(e.parent_id) !== undefined ? (parentOf.has(str(e.parent_id)!) ? str(e.parent_id) : undefined) : prevId
    if (str(e.parent_id) && e.parent_id !== ROOT_PARENT_ID && pid === undefined) addDiagnostic(session, { severity: 'warning', path, line: 1, message: `parent_id ${str(e.parent_id)} names no earlier event; the event starts a new branch` })
    parentOf.set(id, pid)
    prevId = id
    const above = pid === undefined ? undefined : nodeAbove.get(pid)
    nodeAbove.set(id, above)
    const at = openhandsTimeToMs(e.timestamp)
    if (zoneless(e.timestamp)) session.metadata.timeZone ??= OPENHANDS_TIME_ZONE
    const push = (n: Omit<MessageNode, 'nodeId' | 'parentNodeId'>): MessageNode => {
      const node: MessageNode = { nodeId: id, ...(above !== undefined ? { parentNodeId: above } : {}), ...n, ...(at !== undefined ? { createdAt: at } : {}) }
      const rid = str(e.llm_response_id)
      if (rid && !usedResponses.has(rid) && responseUsage.has(rid) && (node.role === 'assistant')) {
        usedResponses.add(rid)
        node.usage = responseUsage.get(rid)
      }
      if (rid && node.role === 'assistant') node.requestId = rid
      session.nodes.push(node)
      nodeOfEvent.set(id, node)
      nodeAbove.set(id, id)
      return node
    }
    const kind = str(e.kind)
    if (kind === undefined) {
      skipRecord(session, { severity: 'warning', path, line: 1, message: 'event has no kind; skipped' })
      continue
    }
    if (HIDDEN.has(kind)) {
      if (kind === 'ConversationStateUpdateEvent' && e.key === 'stats' && obj(e.value)) lastStats = obj(e.value)
      continue
    }
    switch (kind) {
      case 'SystemPromptEvent': {
        const texts = [str(obj(e.system_prompt)?.text), str(obj(e.dynamic_context)?.text)].filter((t): t is string => !!t)
        push({ role: 'system', isMeta: true, content: texts.join('\n\n'), ...(Array.isArray(e.tools) ? { metadata: { tools: e.tools.length } } : {}) })
        break
      }
      case 'MessageEvent': {
        const m = obj(e.llm_message) ?? {}
        const c = contentOf(m.content)
        const extended = contentOf(e.extended_content).text
        const metadata: Json = {}
        if (Array.isArray(e.activated_skills) && e.activated_skills.length) metadata.activatedSkills = e.activated_skills
        if (extended) metadata.extendedContent = extended
        if (str(e.sender)) metadata.sender = e.sender
        const role = e.source === 'user' ? 'user' : e.source === 'agent' ? 'assistant' : 'user'
        const node = push({ role, content: c.text, ...(c.blocks ? { blocks: c.blocks } : {}), ...(e.source !== 'user' && e.source !== 'agent' ? { isMeta: true } : {}), ...(Object.keys(metadata).length ? { metadata } : {}) })
        const t = thinkingOf(m)
        if (t.thinking) node.thinking = t.thinking
        if (t.signature) node.thinkingSignature = t.signature
        break
      }
      case 'ActionEvent': {
        const action = obj(e.action)
        const name = str(e.tool_name) ?? str(obj(e.tool_call)?.name) ?? '(unnamed)'
        let args: Json = {}
        if (action) {
          const { kind: _k, ...rest } = action
          args = rest
        } else {
          try {
            args = obj(JSON.parse(str(obj(e.tool_call)?.arguments) ?? '{}')) ?? {}
          } catch {
            args = { raw: str(obj(e.tool_call)?.arguments) }
          }
        }
        let callId = str(e.tool_call_id) ?? str(obj(e.tool_call)?.id) ?? id
        if (calls.has(callId)) callId = `${callId}:${id}`
        const call: ToolCall = { id: callId, name, kind: v1Kind(name, args), arguments: args, ...fileDetails(name, args) }
        calls.set(callId, call)
        callOfAction.set(id, call)
        const thought = contentOf(e.thought).text
        const t = thinkingOf(e)
        const content = name === 'finish' ? str(args.message) || thought : thought
        const metadata: Json = {}
        if (!action) metadata.actionMissing = true
        if (str(e.summary)) metadata.summary = e.summary
        if (str(e.security_risk)) metadata.securityRisk = e.security_risk
        if (name === 'finish') metadata.finish = true
        const node = push({ role: 'assistant', content, toolCalls: [call], ...(Object.keys(metadata).length ? { metadata } : {}) })
        const thinking = t.thinking ?? (name === 'think' ? str(args.thought) : undefined)
        if (thinking) node.thinking = thinking
        if (t.signature) node.thinkingSignature = t.signature
        break
      }
      case 'ObservationEvent':
      case 'UserRejectObservation':
      case 'AgentErrorEvent': {
        const call = (str(e.action_id) ? callOfAction.get(str(e.action_id)!) : undefined) ?? (str(e.tool_call_id) ? calls.get(str(e.tool_call_id)!) : undefined)
        if (kind === 'AgentErrorEvent' && !call) {
          push({ role: 'system', event: 'api-error', content: str(e.error) ?? '', metadata: { kind } })
          break
        }
        let content = ''
        let isError = false
        let blocks: ContentBlock[] | undefined
        const metadata: Json = {}
        if (kind === 'ObservationEvent') {
          const o = obj(e.observation) ?? {}
          const c = o.content !== undefined ? contentOf(o.content) : { text: str(o.output) ?? '' }
          content = c.text
          blocks = 'blocks' in c ? c.blocks : undefined
          isError = o.is_error === true
          const exit = num(o.exit_code) ?? num(obj(o.metadata)?.exit_code)
          if (call && exit !== undefined && exit !== -1) {
            call.exitCode = exit
            if (exit !== 0) isError = true
          }
          if (!session.workingDirectory && str(obj(o.metadata)?.working_dir)) session.workingDirectory = str(obj(o.metadata)?.working_dir)
          if (call && !call.diffs && str(o.path) && typeof o.new_content === 'string' && o.command !== 'view') {
            call.diffs = [{ path: str(o.path)!, ...(typeof o.old_content === 'string' && { oldText: o.old_content }), newText: o.new_content }]
          }
          if (str(o.kind)) metadata.observation = o.kind
        } else if (kind === 'UserRejectObservation') {
          content = str(e.rejection_reason) ?? 'Rejected'
          isError = true
          metadata.rejected = str(e.rejection_source) ?? 'user'
        } else {
          content = str(e.error) ?? ''
          isError = true
          metadata.agentError = true
        }
        push({ role: 'tool', content, ...(blocks ? { blocks } : {}), ...(call ? { toolCallId: call.id } : {}), ...(isError ? { isError: true } : {}), ...(Object.keys(metadata).length ? { metadata } : {}) })
        if (!call) addDiagnostic(session, { severity: 'warning', path, line: 1, message: `${kind} answers no earlier action (action_id ${str(e.action_id) ?? '-'}, tool_call_id ${str(e.tool_call_id) ?? '-'}); kept unpaired` })
        break
      }
      case 'Condensation':
        push({ role: 'system', event: 'compaction', content: str(e.summary) ?? 'Earlier events were condensed.', metadata: { forgottenEvents: Array.isArray(e.forgotten_event_ids) ? e.forgotten_event_ids.length : 0 } })
        break
      case 'CondensationSummaryEvent':
        push({ role: 'system', event: 'compaction', content: str(e.summary) ?? '' })
        break
      case 'InterruptEvent':
        push({ role: 'system', event: 'interrupted', content: 'The user interrupted the agent.' })
        break
      case 'ConversationErrorEvent':
        push({ role: 'system', event: 'api-error', content: [str(e.code), str(e.detail)].filter((x) => x).join(': '), metadata: { code: e.code } })
        break
      default:
        addDiagnostic(session, { severity: 'info', path, line: 1, message: `event kind "${kind}" is not read; kept as an unknown event` })
        push({ role: 'system', event: 'unknown-event', content: str(e.message) ?? '', metadata: { raw: e } })
    }
  }

  // The shown thread: the path to base_state's leaf (else the last event).
  const leafId = str(state?.leaf_event_id)
  const leaf = leafId && parentOf.has(leafId) ? leafId : prevId
  const onPath = new Set<string>()
  for (let cur = leaf; cur !== undefined && !onPath.has(cur); cur = parentOf.get(cur)) onPath.add(cur)
  const mainThread: string[] = []
  for (const [eventId, node] of nodeOfEvent) {
    if (onPath.has(eventId)) mainThread.push(node.nodeId)
    else node.metadata = { ...node.metadata, branch: true }
  }
  if (mainThread.length !== session.nodes.length) session.metadata.mainThread = mainThread

  if (state) {
    if (str(state.id)) session.metadata.conversationId = state.id
    const model = str(obj(obj(state.agent)?.llm)?.model)
    if (model) {
      session.model = model
      // The events name no model; the conversation's one LLM answered every assistant turn.
      for (const n of session.nodes) if (n.role === 'assistant' && n.model === undefined) n.model = model
    }
    const wd = str(obj(state.workspace)?.working_dir)
    if (wd) session.workingDirectory = wd
    if (str(state.execution_status)) session.metadata.executionStatus = state.execution_status
  }
  const usage = statsUsage(obj(state?.stats)) ?? statsUsage(lastStats)
  if (usage) session.usage = usage
  session.metadata.openhandsStore = 'v1'
  return finishSession(session)
}
