/**
 * Rollout records → IR nodes: response items, event messages, turn contexts, compactions.
 *
 * Store facts (codex-rs `protocol/src/models.rs` `ResponseItem`, `protocol/src/protocol.rs`
 * `EventMsg`/`TurnContextItem`/`CompactedItem`; fixtures/real/codex 0.171.0; fixtures/public/codex):
 * - `message {role: user|assistant|developer|system, content[]}`: developer/system messages and
 *   user messages Codex injected (environment context, AGENTS.md, harness provenance, sub-agent
 *   notifications, review results...) are `system` meta markers (`metadata.injected`); an IDE or
 *   Desktop wrapper is split into its context marker and the person's request (see `userNodes`);
 * - `agent_message {author, recipient, content[]}` (0.145 multi-agent): another agent's message,
 *   a `system` meta marker (`metadata.injected: "agent-message"`);
 * - `reasoning {summary[{type:"summary_text",text}], content?, encrypted_content}`: thinking
 *   (the summary, else the raw content) and the encrypted blob kept verbatim as the signature;
 * - tool calls and results (see `tools.ts`), `ghost_snapshot {ghost_commit{id}}` (an undo
 *   checkpoint), `compaction {encrypted_content}`;
 * - `event_msg`: `user_message`/`agent_message`/`agent_reasoning` (echoes, see `transcript.ts`),
 *   `token_count` (usage), `turn_aborted {reason}`, `item_completed {item: CommandExecution
 *   {id, exit_code, duration{secs,nanos}} | CollabAgentToolCall {id, receiver_thread_ids}}`,
 *   `exec_command_end {call_id, exit_code, duration}`; other known types are counted only, and an
 *   unknown type that carries text becomes an `unknown-event` node;
 * - `turn_context {model, cwd}`: the model of the turn's messages (a change adds a
 *   `model-change` node); `compacted {message, replacement_history?}`: a compaction marker.
 */
import type { Checkpoint, MessageNode } from '../../../shared/ir'
import { type ContentParts, type ToolOutput, contentParts, injectedKind, isHarnessProvenance, notificationOrigin, splitIdeWrapper, toolOutput } from './content'
import type { SessionFacts } from './facts'
import { type Json, type RolloutRecord, arr, num, obj, str } from './records'
import { CALL_TYPES, RESULT_TYPES, buildCall, resultCallId } from './tools'
import { type CallFacts, Transcript } from './transcript'
import { TokenCounter, toUsage } from './usage'

/** Top-level record kinds read for facts only (no node). */
const FACT_KINDS = new Set(['session_meta', 'world_state', 'state'])

/** Event types this reader knows and keeps as counts only (also the reading-health census, ./census.ts). */
export const COUNTED_EVENTS: ReadonlySet<string> = new Set([
  'task_started', 'task_complete', 'thread_settings_applied', 'item_started', 'context_compacted', 'exec_command_begin',
  'patch_apply_begin', 'patch_apply_end', 'mcp_tool_call_begin', 'mcp_tool_call_end', 'web_search_begin', 'web_search_end',
  'entered_review_mode', 'exited_review_mode', 'undo_started', 'undo_completed', 'thread_rolled_back', 'turn_diff',
  'plan_update', 'agent_reasoning_raw_content', 'agent_reasoning_section_break', 'session_configured',
  'view_image_tool_call', 'thread_name_updated', 'session_name_updated',
])

/** Echo key of the context half of a wrapped prompt (see {@link userNodes}). */
const CONTEXT_KEY = '\u0000ide-context\u0000'

/**
 * The nodes of one user-role text (issue 14 point 9). Injected context (`kind` set) is a
 * `system` node, `isMeta`, with `metadata.injected` naming the kind: a compact marker, not a turn.
 * An IDE/Desktop-wrapped prompt is two nodes: its context as such a marker (`ide-context`), then
 * the person's request as the user turn. Anything else is one user turn.
 */
function userNodes(parts: ContentParts, kind: string | undefined): Omit<MessageNode, 'nodeId'>[] {
  if (kind !== undefined) {
    const metadata: Record<string, unknown> = { injected: kind }
    const origin = notificationOrigin(parts.text)
    if (origin !== undefined) metadata.origin = origin
    const node: Omit<MessageNode, 'nodeId'> = { role: 'system', content: parts.text, isMeta: true, metadata }
    if (parts.blocks) node.blocks = parts.blocks
    return [node]
  }
  const wrapped = splitIdeWrapper(parts.text)
  if (!wrapped) {
    const node: Omit<MessageNode, 'nodeId'> = { role: 'user', content: parts.text }
    if (parts.blocks) node.blocks = parts.blocks
    return [node]
  }
  const user: Omit<MessageNode, 'nodeId'> = { role: 'user', content: wrapped.request }
  const others = parts.blocks?.filter((b) => b.type !== 'text')
  if (others?.length) user.blocks = [{ type: 'text', text: wrapped.request }, ...others]
  return [{ role: 'system', content: wrapped.context, isMeta: true, metadata: { injected: 'ide-context' } }, user]
}

/**
 * A user content list without the `<image name=[Image #1]>` / `</image>` text items Codex puts
 * around each attached image (fixtures/public-real/codex gitsync-0126-desktop-dynamic; the
 * `user_message` event of the same prompt has no such labels).
 */
function withoutImageLabels(content: unknown): unknown {
  if (!Array.isArray(content)) return content
  return content.filter((c) => !(obj(c)?.type === 'input_text' && /^(?:<image\b[^>]*>|<\/image>)$/.test((str(obj(c)?.text) ?? '').trim())))
}

/** `{secs, nanos}` (serde `Duration`) → ms. */
function durationMs(value: unknown): number | undefined {
  const d = obj(value)
  const secs = num(d?.secs)
  if (secs === undefined) return undefined
  return Math.round(secs * 1000 + (num(d?.nanos) ?? 0) / 1e6)
}

/** Text a record of an unknown kind carries (`message`, `text`, `content`, `summary` strings). */
function recordText(p: Json): string | undefined {
  for (const k of ['message', 'text', 'content', 'summary', 'payload']) {
    const v = str(p[k])
    if (v?.trim()) return v
  }
  return undefined
}

/** Feeds records to a {@link Transcript}, tracking the turn's model and working directory. */
export class RolloutBuilder {
  readonly t = new Transcript()
  readonly checkpoints: Checkpoint[] = []
  private readonly counter = new TokenCounter()
  private model: string | undefined
  private cwd: string | undefined
  /** `spawn_agent` call id → thread ids, from `CollabAgentToolCall` events. */
  private readonly spawned = new Map<string, string>()
  /** Result nodes by call id, so a spawn event written after the result still names the child. */
  private readonly resultNodes = new Map<string, MessageNode>()
  /** The last `user_message` event (its line and text), to drop an immediate repeat. */
  private lastUserEvent: { line: number; text: string } | undefined

  constructor(private readonly facts: SessionFacts) {}

  /** Turn one record into nodes (or facts). */
  take(rec: RolloutRecord): void {
    const p = rec.payload
    if (FACT_KINDS.has(rec.kind)) return
    if (rec.kind === 'response_item') return this.item(rec)
    if (rec.kind === 'event_msg') return this.event(rec)
    if (rec.kind === 'turn_context') return this.turnContext(p, rec)
    if (rec.kind === 'compacted') return this.compaction(rec, str(p.message) ?? '', { replacementItems: arr(p.replacement_history).length })
    if (rec.kind === 'token_usage_record') return this.t.usage(toUsage(p.usage), 'record', str(p.response_id))
    const text = recordText(p)
    if (text !== undefined) this.unknown(rec, rec.kind, text)
  }

  private item(rec: RolloutRecord): void {
    const p = rec.payload
    const type = str(p.type) ?? ''
    if (type === 'message') return this.message(rec)
    if (type === 'reasoning') return this.reasoning(rec)
    if (CALL_TYPES.has(type)) return this.call(rec)
    if (RESULT_TYPES.has(type)) return this.result(rec)
    if (type === 'ghost_snapshot') {
      const ref = str(obj(p.ghost_commit)?.id)
      if (ref !== undefined) this.checkpoints.push(rec.at === undefined ? { ref, kind: 'ghost-snapshot' } : { ref, kind: 'ghost-snapshot', createdAt: rec.at })
      return
    }
    if (type === 'compaction' || type === 'compaction_summary') return this.compaction(rec, '', { item: type })
    if (type === 'agent_message') return this.agentMessage(rec)
    const text = recordText(p) ?? contentParts(p.content).text
    if (text.trim()) this.unknown(rec, `response_item:${type}`, text)
  }

  private message(rec: RolloutRecord): void {
    const p = rec.payload
    const role = str(p.role) ?? '(none)'
    const parts = contentParts(role === 'user' ? withoutImageLabels(p.content) : p.content)
    if (role === 'assistant') {
      this.t.noteItemText('assistant', parts.text)
      const node = this.t.responseNode(rec.line, rec.at, this.model, (n) => !n.toolCalls?.length)
      if (parts.text) node.content = node.content ? `${node.content}\n\n${parts.text}` : parts.text
      if (parts.blocks) node.blocks = [...(node.blocks ?? []), ...parts.blocks]
      const phase = str(p.phase)
      if (phase !== undefined) node.metadata = { ...node.metadata, phase }
      return
    }
    this.t.closeResponse(role === 'user')
    if (role === 'user') {
      this.t.noteItemText('user', parts.text)
      const kind = injectedKind(parts.text) ?? (isHarnessProvenance(p) ? 'harness' : undefined)
      for (const node of userNodes(parts, kind)) this.t.push(rec.line, rec.at, node)
      if (splitIdeWrapper(parts.text) && kind === undefined) this.t.noteItemText('user', CONTEXT_KEY + parts.text)
      return
    }
    const node: Omit<MessageNode, 'nodeId'> = { role: 'system', content: parts.text, isMeta: true, metadata: { role } }
    if (parts.blocks) node.blocks = parts.blocks
    this.t.push(rec.line, rec.at, node)
  }

  /** An `agent_message` item (0.145 multi-agent): another agent's message to this one, shown as a marker. */
  private agentMessage(rec: RolloutRecord): void {
    const p = rec.payload
    this.t.closeResponse()
    const parts = contentParts(p.content)
    const metadata: Record<string, unknown> = { injected: 'agent-message' }
    for (const k of ['author', 'recipient', 'id'] as const) if (str(p[k]) !== undefined) metadata[k] = str(p[k])
    const node: Omit<MessageNode, 'nodeId'> = { role: 'system', content: parts.text, isMeta: true, metadata }
    if (parts.blocks) node.blocks = parts.blocks
    this.t.push(rec.line, rec.at, node)
  }

  private reasoning(rec: RolloutRecord): void {
    const p = rec.payload
    const texts = (v: unknown) => arr(v).map((s) => str(obj(s)?.text)).filter((s): s is string => !!s?.trim())
    const summary = texts(p.summary)
    for (const s of summary) this.t.noteItemText('reasoning', s)
    const thinking = (summary.length > 0 ? summary : texts(p.content)).join('\n\n')
    const sealed = str(p.encrypted_content)
    if (!thinking && sealed === undefined) return
    const fresh = (n: MessageNode) => !n.content && !n.toolCalls?.length && n.thinking === undefined && n.thinkingSignature === undefined
    const node = this.t.responseNode(rec.line, rec.at, this.model, fresh)
    if (thinking) node.thinking = thinking
    if (sealed !== undefined) node.thinkingSignature = sealed
  }

  private call(rec: RolloutRecord): void {
    const built = buildCall(rec.payload, `${str(rec.payload.type)}@L${rec.line}`, this.cwd ?? this.facts.cwd)
    if (!built) return
    const node = this.t.responseNode(rec.line, rec.at, this.model, () => true)
    ;(node.toolCalls ??= []).push(built.call)
  }

  private result(rec: RolloutRecord): void {
    const p = rec.payload
    this.t.closeResponse()
    const callId = resultCallId(p)
    const out: ToolOutput = str(p.type) === 'tool_search_output' ? { text: JSON.stringify(p.tools ?? p.output ?? null) } : toolOutput(p.output)
    const node: Omit<MessageNode, 'nodeId'> = { role: 'tool', content: out.text }
    if (callId !== undefined) node.toolCallId = callId
    if (out.blocks) node.blocks = out.blocks
    if (out.isError) node.isError = true
    const agentId = out.agentId ?? (callId === undefined ? undefined : this.spawned.get(callId))
    if (agentId !== undefined) node.metadata = { agentId }
    const pushed = this.t.push(rec.line, rec.at, node)
    if (callId === undefined) return
    this.resultNodes.set(callId, pushed)
    const facts: CallFacts = {}
    if (out.exitCode !== undefined) facts.exitCode = out.exitCode
    if (out.durationMs !== undefined) facts.durationMs = out.durationMs
    if (Object.keys(facts).length > 0) this.t.addCallFacts(callId, facts, false)
  }

  private event(rec: RolloutRecord): void {
    const p = rec.payload
    const type = str(p.type) ?? '(none)'
    const text = str(p.message) ?? str(p.text) ?? ''
    switch (type) {
      case 'user_message': {
        this.t.closeResponse(true)
        // Codex 0.144 writes the review prompt's event twice in a row (fixtures/public-real graph-0144-review).
        const repeat = this.lastUserEvent?.line === rec.line - 1 && this.lastUserEvent.text === text
        this.lastUserEvent = { line: rec.line, text }
        if (repeat) return
        const images = arr(p.images).filter((x): x is string => typeof x === 'string')
        const blocks = images.length > 0 ? [{ type: 'text' as const, text }, ...images.map((u) => contentParts([{ type: 'input_image', image_url: u }]).blocks![0]!)] : undefined
        const kind = injectedKind(text) ?? (p.kind === 'environment_context' || p.kind === 'user_instructions' ? str(p.kind)!.replace(/_/g, '-') : undefined)
        const nodes = userNodes(blocks ? { text, blocks } : { text }, kind)
        const wrapped = nodes.length === 2
        nodes.forEach((node, i) => this.t.echo('user', rec.line, rec.at, node, wrapped && i === 0 ? CONTEXT_KEY + text : text))
        return
      }
      case 'agent_message':
        return this.t.echo('assistant', rec.line, rec.at, this.withModel({ role: 'assistant', content: text }), text)
      case 'agent_reasoning':
        return this.t.echo('reasoning', rec.line, rec.at, this.withModel({ role: 'assistant', content: '', thinking: text }), text)
      case 'token_count':
        return this.t.usage(this.counter.next(p), 'count')
      case 'turn_aborted': {
        this.t.closeResponse()
        const reason = str(p.reason)
        this.t.push(rec.line, rec.at, { role: 'system', content: reason ?? '', event: 'interrupted', ...(reason === undefined ? {} : { metadata: { reason } }) })
        return
      }
      case 'item_completed':
        return this.itemCompleted(obj(p.item))
      case 'collab_agent_spawn_end':
        // 0.118: `{call_id, new_thread_id, new_agent_nickname, ...}` (fixtures/public-real gitsync-0118-collab).
        return this.spawnedThread(str(p.call_id), str(p.new_thread_id))
      case 'sub_agent_activity':
        // 0.145: `{event_id: <spawn call id>, agent_thread_id, agent_path, kind}` (graph-0145-multiagent).
        if (p.kind === 'started') this.spawnedThread(str(p.event_id), str(p.agent_thread_id))
        return
      case 'exec_command_end': {
        const id = str(p.call_id)
        if (id !== undefined) this.execFacts(id, p.exit_code, p.duration)
        return
      }
    }
    if (type === 'task_started') this.t.closeResponse()
    if (COUNTED_EVENTS.has(type)) return
    if (text.trim()) this.unknown(rec, `event_msg:${type}`, text)
  }

  private itemCompleted(item: Json | undefined): void {
    const id = str(item?.id)
    if (!item || id === undefined) return
    if (item.type === 'CommandExecution') this.execFacts(id, item.exit_code, item.duration)
    if (item.type === 'CollabAgentToolCall' && item.tool === 'spawn_agent') {
      const child = str(arr(item.receiver_thread_ids)[0])
      if (child !== undefined) this.spawned.set(id, child)
    }
  }

  /** A spawn call's child thread: on its result node when already read, else for the result to come. */
  private spawnedThread(callId: string | undefined, threadId: string | undefined): void {
    if (callId === undefined || threadId === undefined) return
    this.spawned.set(callId, threadId)
    const node = this.resultNodes.get(callId)
    if (node && node.metadata?.agentId === undefined) node.metadata = { ...node.metadata, agentId: threadId }
  }

  private execFacts(callId: string, exitCode: unknown, duration: unknown): void {
    const facts: CallFacts = {}
    const code = num(exitCode)
    if (code !== undefined) facts.exitCode = code
    const ms = durationMs(duration)
    if (ms !== undefined) facts.durationMs = ms
    this.t.addCallFacts(callId, facts, true)
  }

  private turnContext(p: Json, rec: RolloutRecord): void {
    this.t.closeResponse()
    this.cwd = str(p.cwd) ?? this.cwd
    const model = str(p.model)
    if (model === undefined) return
    if (this.model !== undefined && model !== this.model) {
      this.t.push(rec.line, rec.at, { role: 'system', content: `Model: ${this.model} → ${model}`, event: 'model-change', metadata: { from: this.model, to: model } })
    }
    this.model = model
  }

  private compaction(rec: RolloutRecord, text: string, metadata: Record<string, unknown>): void {
    this.t.closeResponse()
    const last = this.t.nodes[this.t.nodes.length - 1]
    if (last?.event === 'compaction') {
      if (text) last.content = last.content ? `${last.content}\n\n${text}` : text
      last.metadata = { ...last.metadata, ...metadata }
      return
    }
    this.t.push(rec.line, rec.at, { role: 'system', content: text, event: 'compaction', metadata })
  }

  private unknown(rec: RolloutRecord, recordType: string, text: string): void {
    this.t.closeResponse()
    this.t.push(rec.line, rec.at, { role: 'system', content: text, event: 'unknown-event', metadata: { recordType } })
  }

  private withModel(node: Omit<MessageNode, 'nodeId'>): Omit<MessageNode, 'nodeId'> {
    return this.model === undefined ? node : { ...node, model: this.model }
  }
}
