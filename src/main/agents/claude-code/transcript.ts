/**
 * Build the message forest of one Claude Code transcript from its records, in file order.
 *
 * Facts (seed 002 "Claude Code"; fixtures/real/claude-code/README.md "Worth knowing"):
 * - One API reply is stored as one `assistant` record per content block, all sharing
 *   `message.id`, chained by `parentUuid`: they become ONE node; its usage is the last record's
 *   snapshot (not a sum).
 * - `parentUuid` chains also run through non-message records (`attachment`, `system`
 *   turn_duration, `progress`...): a parent that names such a record is followed up to the nearest
 *   message, so the forest stays connected.
 * - `user` records hold a string, or blocks where each `tool_result` becomes a `role:"tool"` node.
 * - `system` `compact_boundary` has `parentUuid: null` and links back via `logicalParentUuid`.
 * - A resumed session may replay earlier records with the same `uuid`: the first copy wins.
 * - A `tool_result` may end with `<system-reminder>` blocks the CLI appended for the model (Read
 *   results: "Whenever you read a file..."): they are not the tool's output, so the tool node's
 *   text is the output alone and the reminders' texts are `metadata.systemReminders` (issue 14).
 */
import { COMMAND_PROMPT, type ContentBlock, type MessageNode, type PartRef } from '../../../shared/ir'
import { type Json, convertBlock, hasNonText, isoToMs, obj, str, textOf, toolCallFrom, toolResultContent, usageFrom } from './content'
import { classifyInjected, splitReminders, stripAnsi } from './injected'
import { Slices } from '../../util/turn'

/** Where a node's parent points before resolution. */
export type RawParent = { uuid: string; logical: boolean } | { nodeId: string } | undefined

/** A link that could not be resolved: the node's line and the uuid it named. */
export interface BrokenLink {
  nodeId: string
  line: number
  uuid: string
}

/** Largest `toolUseResult` (JSON characters) kept whole in a tool node's metadata. */
const MAX_TOOL_USE_RESULT = 2000
/** Text Claude Code writes as the user turn when a request was interrupted. */
const INTERRUPTED = '[Request interrupted by user'

/**
 * True when the JSON text of `value` is surely longer than `limit`: its strings (with their
 * quotes) and keys alone are. Stops as soon as it knows, so a large value is not serialised.
 */
function jsonLongerThan(value: unknown, limit: number): boolean {
  let n = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v === 'string') n += v.length + 2
    else if (Array.isArray(v)) for (const x of v) stack.push(x)
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined || typeof x === 'function') continue // left out of JSON
        n += k.length + 3
        stack.push(x)
      }
    } else if (typeof v === 'number' || typeof v === 'boolean') n += 1
    if (n > limit) return true
  }
  return false
}

/** Keep a `toolUseResult` whole when small, else only its short scalar fields. */
function smallToolUseResult(value: unknown): unknown {
  const json = jsonLongerThan(value, MAX_TOOL_USE_RESULT) ? undefined : JSON.stringify(value)
  if (json !== undefined && json.length <= MAX_TOOL_USE_RESULT) return value
  const o = obj(value)
  if (!o) return undefined
  const out: Json = {}
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'number' || typeof v === 'boolean' || v === null) out[k] = v
    else if (typeof v === 'string' && v.length <= 200) out[k] = v
  }
  out.truncated = true
  return out
}

/** The parts of each open assistant node in record order (see {@link MessageNode.partOrder}). */
const PARTS = new WeakMap<MessageNode, PartRef[]>()

/** Note the next part of an assistant node (a thinking part once, at its first block). */
function notePart(node: MessageNode, part: PartRef): void {
  let parts = PARTS.get(node)
  if (!parts) PARTS.set(node, (parts = []))
  if (part.part === 'thinking' && parts.some((p) => p.part === 'thinking')) return
  parts.push(part)
}

/** True when `parts` are in the IR's default order: thinking, then blocks, then tool calls. */
function defaultOrder(parts: readonly PartRef[]): boolean {
  const rank = (p: PartRef): number => (p.part === 'thinking' ? 0 : p.part === 'block' ? 1 : 2)
  return parts.every((p, i) => i === 0 || rank(parts[i - 1]!) <= rank(p))
}

/**
 * Set an assistant node's text (and blocks, when some are not text) from its gathered blocks;
 * when its parts were written in another order, `blocks` (all of them) and `partOrder` keep it.
 */
export function fillAssistant(node: MessageNode, blocks: ContentBlock[]): void {
  node.content = textOf(blocks)
  const parts = PARTS.get(node)
  PARTS.delete(node)
  if (parts && !defaultOrder(parts)) {
    node.blocks = blocks
    node.partOrder = parts
  } else if (hasNonText(blocks)) node.blocks = blocks
}

/** The forest under construction. */
export class Transcript {
  /** The nodes in order (a {@link StreamTranscript} keeps only the open ones here). */
  readonly nodes: MessageNode[] = []
  protected readonly parents = new Map<MessageNode, RawParent>()
  protected readonly lines = new Map<MessageNode, number>()
  /** record uuid → node it became (the last node, for records split into several). */
  private readonly uuidToNode = new Map<string, string>()
  /** uuid of a record that made no node → its own parentUuid (followed when resolving). */
  private readonly skipped = new Map<string, string | undefined>()
  private readonly nodeIds = new Set<string>()
  protected readonly byMessageId = new Map<string, MessageNode>()
  protected readonly assistantBlocks = new Map<MessageNode, ContentBlock[]>()
  /** Number of records skipped because their uuid was already read. */
  duplicates = 0
  /** Texts of the API errors read (`api-error` nodes), trimmed: a `summary` holding one is not a title. */
  readonly apiErrors = new Set<string>()
  /**
   * True when reading a main session file (not a sub-agent's): Claude Code 1.x wrote its Task
   * sub-agents' records inline with `isSidechain: true` (fixtures/public-real/claude-code
   * sword-1090-siblings, 1.0.90). Those are the sub-agent's thread, not the person's: their nodes
   * are kept as meta (`metadata.isSidechain`), out of the main thread's prompts, counts and conversion.
   */
  inlineSidechainsAreMeta = false
  /** The last slash-command marker and its record uuid: its output record is merged into it. */
  private lastCommand: { node: MessageNode; uuid: string | undefined } | undefined
  /** uuid of the last record that was a slash command (a marker or a user turn): see {@link COMMAND_PROMPT}. */
  private lastCommandUuid: string | undefined

  /**
   * True the first time a uuid is seen; false for a replayed copy. A record whose uuid is sighted
   * ends, before the next record is taken, in `uuidToNode` (it made or joined a node) or in
   * `skipped`: those two remember every uuid seen.
   */
  firstSighting(uuid: string | undefined): boolean {
    if (uuid === undefined) return true
    if (this.uuidToNode.has(uuid) || this.skipped.has(uuid)) {
      this.duplicates++
      return false
    }
    return true
  }

  /** A record that made no node: remember where its chain leads. */
  skip(r: Json): void {
    const uuid = str(r.uuid)
    if (uuid !== undefined) this.skipped.set(uuid, str(r.parentUuid))
  }

  private newId(r: Json, line: number, k: number): string {
    const base = str(r.uuid) ?? `line-${line}`
    let id = k === 0 ? base : `${base}#${k}`
    while (this.nodeIds.has(id)) id += "'"
    this.nodeIds.add(id)
    return id
  }

  protected push(node: MessageNode, parent: RawParent, line: number): void {
    this.nodes.push(node)
    this.parents.set(node, parent)
    this.lines.set(node, line)
  }

  /** Record-level parent: `parentUuid`, else (compaction) `logicalParentUuid`. */
  private recordParent(r: Json): RawParent {
    const p = str(r.parentUuid)
    if (p !== undefined) return { uuid: p, logical: false }
    const lp = str(r.logicalParentUuid)
    return lp !== undefined ? { uuid: lp, logical: true } : undefined
  }

  /** Add nodes made from one record, chained one after the other; maps the record's uuid. */
  private addChain(r: Json, line: number, made: MessageNode[]): void {
    if (made.length === 0) return this.skip(r)
    let parent = this.recordParent(r)
    made.forEach((node, k) => {
      node.nodeId = this.newId(r, line, k)
      this.push(node, parent, line)
      parent = { nodeId: node.nodeId }
    })
    const uuid = str(r.uuid)
    const last = made[made.length - 1]!
    if (uuid !== undefined) this.uuidToNode.set(uuid, last.nodeId)
    this.lastCommand = last.event === 'command' ? { node: last, uuid } : undefined
    this.lastCommandUuid = made.some((n) => n.event === 'command' || n.metadata?.slashCommand !== undefined) ? uuid : undefined
  }

  /** Fields shared by nodes made from record `r`. */
  private base(r: Json, role: MessageNode['role']): MessageNode {
    const node: MessageNode = { nodeId: '', role, content: '' }
    const at = isoToMs(r.timestamp)
    if (at !== undefined) node.createdAt = at
    if (r.isMeta === true) node.isMeta = true
    if (this.inlineSidechainsAreMeta && r.isSidechain === true) {
      node.isMeta = true
      node.metadata = { ...node.metadata, isSidechain: true }
    }
    return node
  }

  /** A `user` record: text/image blocks → user node(s), each `tool_result` → a tool node. */
  user(r: Json, line: number): void {
    const content = obj(r.message)?.content
    const made: MessageNode[] = []
    const meta: Json = {}
    if (r.isCompactSummary === true) meta.isCompactSummary = true
    if (r.isVisibleInTranscriptOnly === true) meta.isVisibleInTranscriptOnly = true
    if (r.isSidechain === true) meta.isSidechain = true
    const origin = str(obj(r.origin)?.kind)
    if (origin !== undefined) meta.origin = origin
    if (r.isMeta === true && this.lastCommandUuid !== undefined && str(r.parentUuid) === this.lastCommandUuid) meta[COMMAND_PROMPT] = true
    const userNode = (blocks: ContentBlock[]): void => {
      const text = textOf(blocks)
      if (text.trim() === '' && !hasNonText(blocks)) return
      if (!hasNonText(blocks)) {
        const marker = this.injected(r, text)
        if (marker === 'merged') return
        if (marker) {
          if (Object.keys(meta).length) marker.metadata = { ...meta, ...marker.metadata }
          made.push(marker)
          return
        }
      }
      const node = this.base(r, 'user')
      node.content = text
      if (hasNonText(blocks)) node.blocks = blocks
      if (text.startsWith(INTERRUPTED)) node.event = 'interrupted'
      if (r.isCompactSummary === true) node.isMeta = true
      if (Object.keys(meta).length) node.metadata = { ...meta }
      made.push(node)
    }
    if (typeof content === 'string') userNode([{ type: 'text', text: content }])
    else if (Array.isArray(content)) {
      let pending: ContentBlock[] = []
      let firstResult = true
      for (const raw of content) {
        const b = obj(raw)
        if (!b) continue
        if (b.type !== 'tool_result') {
          pending.push(convertBlock(b))
          continue
        }
        userNode(pending)
        pending = []
        made.push(this.toolNode(r, b, firstResult))
        firstResult = false
      }
      userNode(pending)
    }
    this.addChain(r, line, made)
  }

  /**
   * The marker (or meta node) for text the CLI wrote in the user's place ({@link classifyInjected}),
   * `'merged'` when it was a command's output folded into that command's marker, undefined for text
   * the person typed.
   */
  private injected(r: Json, text: string): MessageNode | 'merged' | undefined {
    const inj = classifyInjected(text)
    if (!inj) return undefined
    const cmd = this.lastCommand
    if (inj.kind === 'command-output' && cmd && this.nodes[this.nodes.length - 1] === cmd.node && (cmd.uuid === undefined || str(r.parentUuid) === cmd.uuid)) {
      const out = inj.label.split('\n').find((l) => l.trim() !== '')?.trim()
      if (out) cmd.node.content += ` → ${out}`
      const uuid = str(r.uuid)
      if (uuid !== undefined) this.uuidToNode.set(uuid, cmd.node.nodeId)
      this.lastCommand = undefined
      return 'merged'
    }
    const node = this.base(r, 'system')
    node.content = inj.label
    if (inj.kind === 'command-with-args') {
      node.role = 'user'
      delete node.isMeta
      node.metadata = { slashCommand: inj.label.split(/\s/, 1)[0] }
      return node
    }
    if (inj.kind === 'meta') {
      node.role = 'user'
      node.isMeta = true
      return node
    }
    node.event = inj.kind === 'command-output' ? 'command' : inj.kind
    delete node.isMeta
    node.metadata = { injected: true }
    if (inj.kind === 'notification' && inj.status) node.metadata.status = inj.status
    return node
  }

  private toolNode(r: Json, b: Json, withRecordFields: boolean): MessageNode {
    const node = this.base(r, 'tool')
    // A tool result is never meta, except in an inline sub-agent thread (its call is meta too).
    if (!(this.inlineSidechainsAreMeta && r.isSidechain === true)) delete node.isMeta
    const id = str(b.tool_use_id)
    if (id !== undefined) node.toolCallId = id
    const { text, blocks } = toolResultContent(b.content)
    // CLI reminders appended to the output (issue 14) go to `metadata.systemReminders`.
    const reminders: string[] = []
    const split = (t: string): string => {
      const r = splitReminders(t)
      reminders.push(...r.reminders)
      return r.text
    }
    if (blocks) {
      node.blocks = blocks.map((x) => (x.type === 'text' ? { ...x, text: split(x.text) } : x))
      node.content = textOf(node.blocks)
    } else node.content = split(text)
    if (reminders.length) node.metadata = { ...node.metadata, systemReminders: reminders }
    if (b.is_error === true) node.isError = true
    if (withRecordFields && r.toolUseResult !== undefined) {
      const tur = obj(r.toolUseResult)
      const meta: Json = { toolUseResult: smallToolUseResult(r.toolUseResult) }
      const agentId = str(tur?.agentId)
      if (agentId !== undefined) meta.agentId = agentId
      const ms = typeof tur?.totalDurationMs === 'number' ? tur.totalDurationMs : tur?.durationMs
      if (typeof ms === 'number') meta.durationMs = ms
      node.metadata = { ...node.metadata, ...meta }
    }
    return node
  }

  /** An `assistant` record: merged into the node of its `message.id` when one exists. */
  assistant(r: Json, line: number): void {
    const msg = obj(r.message) ?? {}
    const mid = str(msg.id)
    const existing = mid !== undefined ? this.openMessage(mid) : undefined
    const node = existing ?? this.base(r, 'assistant')
    if (!existing) {
      this.addChain(r, line, [node])
      if (mid !== undefined) this.registerMessage(mid, node)
      this.assistantBlocks.set(node, [])
    } else {
      const uuid = str(r.uuid)
      if (uuid !== undefined) this.uuidToNode.set(uuid, node.nodeId)
    }
    const blocks = this.assistantBlocks.get(node)!
    const content = typeof msg.content === 'string' ? [{ type: 'text', text: msg.content }] : Array.isArray(msg.content) ? msg.content : []
    for (const raw of content) {
      const b = obj(raw)
      if (!b) continue
      if (b.type === 'thinking' || b.type === 'redacted_thinking') notePart(node, { part: 'thinking' })
      else if (b.type === 'tool_use' || b.type === 'server_tool_use') notePart(node, { part: 'tool-call', id: str(b.id) ?? '' })
      else notePart(node, { part: 'block', index: blocks.length })
      if (b.type === 'thinking') {
        // Thinking may be stored empty (display "omitted") while its signature is kept.
        const t = str(b.thinking) ?? ''
        if (t !== '') node.thinking = node.thinking ? `${node.thinking}\n\n${t}` : t
        const sig = str(b.signature)
        if (sig) node.thinkingSignature = sig
      } else if (b.type === 'redacted_thinking') {
        const data = str(b.data)
        if (data) node.thinkingSignature = data
        node.metadata = { ...node.metadata, redactedThinking: true }
      } else if (b.type === 'tool_use' || b.type === 'server_tool_use') {
        ;(node.toolCalls ??= []).push(toolCallFrom(b))
      } else {
        // A server tool's result (`web_search_tool_result`...) sits in the same message.
        const call = typeof b.tool_use_id === 'string' ? node.toolCalls?.find((c) => c.id === b.tool_use_id) : undefined
        if (call) call.status = str(obj(b.content)?.type)?.endsWith('_error') ? 'failed' : 'completed'
        blocks.push(convertBlock(b))
      }
    }
    const model = str(msg.model)
    if (model !== undefined && node.model === undefined) node.model = model
    const requestId = str(r.requestId)
    if (requestId !== undefined && node.requestId === undefined) node.requestId = requestId
    const stop = str(msg.stop_reason)
    if (stop !== undefined) node.finishReason = stop
    const usage = usageFrom(msg.usage)
    if (usage) node.usage = usage
    if (r.isApiErrorMessage === true) node.metadata = { ...node.metadata, isApiErrorMessage: true }
    // `<synthetic>`: a reply the CLI wrote itself (an API error, "No response requested."), not the model's.
    if (msg.model === '<synthetic>' && !node.toolCalls?.length) {
      node.role = 'system'
      node.event = r.isApiErrorMessage === true ? 'api-error' : 'notice'
      if (node.event === 'api-error') this.apiErrors.add(node.content.trim())
    }
    if (r.isSidechain === true && r.agentId === undefined) node.metadata = { ...node.metadata, isSidechain: true }
  }

  /** A `system` record: compaction marker, a visible system line, or (no text) metadata only. */
  system(r: Json, line: number): void {
    const subtype = str(r.subtype)
    const text = str(r.content) ?? ''
    if (subtype === 'compact_boundary') {
      const node = this.base(r, 'system')
      node.event = 'compaction'
      node.content = text
      const meta: Json = { subtype }
      if (r.compactMetadata !== undefined) meta.compactMetadata = r.compactMetadata
      node.metadata = meta
      return this.addChain(r, line, [node])
    }
    if (subtype === 'api_error') {
      const node = this.base(r, 'system')
      node.event = 'api-error'
      node.content = apiErrorText(r)
      this.apiErrors.add(node.content)
      node.metadata = { subtype }
      return this.addChain(r, line, [node])
    }
    if (text.trim() === '') return this.skip(r)
    const marker = this.injected(r, text)
    if (marker === 'merged') return
    if (marker) {
      if (subtype !== undefined) marker.metadata = { ...marker.metadata, subtype }
      return this.addChain(r, line, [marker])
    }
    const node = this.base(r, 'system')
    node.content = stripAnsi(text)
    const meta: Json = {}
    if (subtype !== undefined) meta.subtype = subtype
    if (typeof r.level === 'string') meta.level = r.level
    if (Object.keys(meta).length) node.metadata = meta
    this.addChain(r, line, [node])
  }

  /** A record of a type this reader does not model, carrying `text`: an `unknown-event` node. */
  unknown(r: Json, line: number, type: string, text: string): void {
    const node = this.base(r, 'system')
    node.event = 'unknown-event'
    node.content = text
    node.metadata = { recordType: type }
    this.addChain(r, line, [node])
  }

  /** The node of an API reply (`message.id`) that later records of the reply merge into. */
  protected openMessage(mid: string): MessageNode | undefined {
    return this.byMessageId.get(mid)
  }

  /** Remember the node of an API reply. */
  protected registerMessage(mid: string, node: MessageNode): void {
    this.byMessageId.set(mid, node)
  }

  /** The node a record uuid became (following skipped records to their nearest message). */
  nodeOf(uuid: string): string | undefined {
    const r = this.resolve(uuid)
    return 'nodeId' in r ? r.nodeId : undefined
  }

  protected resolve(start: string): { nodeId: string } | { missing: string } | { root: true } {
    let u: string | undefined = start
    for (let steps = 0; u !== undefined && steps < 100_000; steps++) {
      const id = this.uuidToNode.get(u)
      if (id !== undefined) return { nodeId: id }
      if (!this.skipped.has(u)) return { missing: u }
      u = this.skipped.get(u)
    }
    return { root: true }
  }

  /**
   * Resolve parents, fill assistant content from their blocks, and copy tool-result facts
   * (duration) onto the calls. Returns the links that named no record (compaction boundaries'
   * logical links excepted: their earlier history may be gone by design). Gives the event loop a
   * turn every 8 ms or so (`Slices`): a 200 MB transcript's passes took ~110 ms in one go.
   */
  async finish(): Promise<BrokenLink[]> {
    const slices = new Slices()
    const broken: BrokenLink[] = []
    let i = 0
    for (const node of this.nodes) {
      if ((++i & 63) === 0 && slices.due()) await slices.turn()
      const p = this.parents.get(node)
      if (!p) continue
      if ('nodeId' in p) {
        node.parentNodeId = p.nodeId
        continue
      }
      const r = this.resolve(p.uuid)
      if ('nodeId' in r && r.nodeId !== node.nodeId) node.parentNodeId = r.nodeId
      else if ('missing' in r) {
        node.metadata = { ...node.metadata, [p.logical ? 'logicalParentUuid' : 'missingParentUuid']: p.uuid }
        if (!p.logical) broken.push({ nodeId: node.nodeId, line: this.lines.get(node) ?? 0, uuid: p.uuid })
      }
    }
    for (const [node, blocks] of this.assistantBlocks) {
      if ((++i & 63) === 0 && slices.due()) await slices.turn()
      fillAssistant(node, blocks)
    }
    const durations = new Map<string, number>()
    for (const n of this.nodes) {
      const ms = n.metadata?.durationMs
      if (n.role === 'tool' && n.toolCallId && typeof ms === 'number') durations.set(n.toolCallId, ms)
    }
    for (const n of this.nodes) {
      if ((++i & 63) === 0 && slices.due()) await slices.turn()
      for (const c of n.toolCalls ?? []) {
        const ms = durations.get(c.id)
        if (ms !== undefined) c.durationMs = ms
      }
    }
    return broken
  }
}

/** `Unable to connect to API (ECONNRESET) (retry 1 of 10)` from a `system` `api_error` record. */
function apiErrorText(r: Json): string {
  const e = obj(r.error)
  const status = typeof e?.status === 'number' ? String(e.status) : undefined
  const what = str(e?.formatted) ?? str(e?.message) ?? str(r.content) ?? ''
  const attempt = typeof r.retryAttempt === 'number' ? ` (retry ${r.retryAttempt}${typeof r.maxRetries === 'number' ? ` of ${r.maxRetries}` : ''})` : ''
  return stripAnsi([status, what].filter(Boolean).join(' ') + attempt).trim()
}
