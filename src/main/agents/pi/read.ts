/**
 * Read one Pi session file (`<timestamp>_<id>.jsonl`) into the IR.
 *
 * Shapes from pi-mono (`packages/coding-agent/src/core/session-manager.ts`, `core/messages.ts`,
 * `packages/ai/src/types.ts`; `docs/session-format.md` of pi-coding-agent 0.73.1) and the real store
 * in fixtures/real/pi:
 * - Line 1 is the header `{ type: "session", version?: 1|2|3, id, timestamp (ISO), cwd,
 *   parentSession?: <path of the session file it was forked from> }`.
 * - Every other line is an entry `{ type, id (8 hex), parentId: string | null, timestamp (ISO) }`:
 *   `message` (`message`: an AgentMessage), `model_change` (`provider`, `modelId`),
 *   `thinking_level_change` (`thinkingLevel`), `compaction` (`summary`, `firstKeptEntryId`,
 *   `tokensBefore`, `details?`, `fromHook?`), `branch_summary` (`fromId`, `summary`, `details?`),
 *   `custom` (extension state: no node), `custom_message` (`customType`, `content`, `display`),
 *   `label` (`targetId`, `label`: set on the target node's `metadata.label`) and `session_info`
 *   (`name`: the session title). Version 1 files have no `id`/`parentId`: each entry follows the
 *   one before (Pi's `migrateV1ToV2`).
 * - AgentMessage roles: `user` (`content`: string or text/image blocks), `assistant` (`content`:
 *   text / thinking (`thinking`, `thinkingSignature?`, `redacted?`) / toolCall (`id`, `name`,
 *   `arguments`) blocks; `provider`, `api`, `model`, `stopReason` ("stop" | "length" | "toolUse" |
 *   "error" | "aborted"), `errorMessage?`, `usage { input, output, cacheRead, cacheWrite,
 *   totalTokens, cost { …, total } }`), `toolResult` (`toolCallId`, `toolName`, `content`,
 *   `details?`, `isError`), `bashExecution` (a `!` command the user ran: `command`, `output`,
 *   `exitCode`, `cancelled`, `truncated`), `custom` (v2 `hookMessage`), `branchSummary`,
 *   `compactionSummary`. `timestamp` is ms since epoch.
 * - Usage: pi-ai's `input` already excludes cache reads and writes (openai-completions.js
 *   `parseChunkUsage`, anthropic `input_tokens`); `cost.total` is US dollars computed by Pi from the
 *   model's price list, 0 for a model without prices (read as "no cost recorded").
 *
 * The tree: Pi's current leaf is the last entry of the file (`SessionManager._buildIndex`); the
 * shown thread is the path from the root to it (`buildSessionContext`). Every entry that is a
 * message becomes a node whose `parentNodeId` is the nearest node above it on the `parentId`
 * chain (as the Claude Code reader keeps `parentUuid` forks); nodes off the leaf's path are
 * kept with `metadata.branch = true` and `session.metadata.mainThread` lists the path's node ids
 * (as the Devin reader does). A `parentId` that names no earlier entry (missing, a later line, or
 * the entry itself: a loop) is a warning naming file and line, and the entry starts a new root, so
 * no walk can loop. A line that is not JSON, an entry type or message role not listed in
 * {@link KNOWN_ENTRY_TYPES} / {@link KNOWN_MESSAGE_ROLES} is a diagnostic naming file and line; the
 * rest loads.
 */
import { basename } from 'node:path'
import { SepiaError } from '../../../shared/api'
import type { ContentBlock, MessageNode, Session, ToolCall, Usage } from '../../../shared/ir'
import { addDiagnostic, finishSession, jsonLineObject, newSession, skipRecord } from '../../ir/build'
import { toolKind } from '../../ir/toolkind'
import { forEachLine } from '../../util/lines'
import type { ReadContext, StoreRef } from '../types'
import { sessionIdOfFile } from './discover'
import { KNOWN_ENTRY_TYPES, KNOWN_MESSAGE_ROLES } from './format'

/** Moved to ./format.ts so discovery and the census load without this reader; kept here for its importers. */
export { KNOWN_ENTRY_TYPES, KNOWN_MESSAGE_ROLES } from './format'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const isoTime = (v: unknown): number | undefined => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN
  return Number.isNaN(t) ? undefined : t
}
const KNOWN_TYPES = new Set<string>(KNOWN_ENTRY_TYPES)

/** Pi's built-in tools (`core/tools/`: read, bash, edit, write, grep, find, ls); others via the shared table. */
const PI_KINDS: Record<string, ToolCall['kind']> = { read: 'read', bash: 'execute', edit: 'edit', write: 'edit', grep: 'search', find: 'search', ls: 'search' }
const kindOf = (name: string): ToolCall['kind'] => PI_KINDS[name] ?? toolKind(name)

/** Text and image blocks of a user / tool result / custom message `content` (string or blocks). */
function contentOf(content: unknown): { text: string; blocks?: ContentBlock[] } {
  if (typeof content === 'string') return { text: content }
  const texts: string[] = []
  const blocks: ContentBlock[] = []
  let other = false
  for (const b of Array.isArray(content) ? content : []) {
    const o = obj(b)
    if (!o) continue
    if (o.type === 'text') {
      const t = str(o.text) ?? ''
      texts.push(t)
      blocks.push({ type: 'text', text: t })
    } else if (o.type === 'image') {
      other = true
      blocks.push({ type: 'image', ...(str(o.mimeType) ? { mediaType: str(o.mimeType)! } : {}), ...(str(o.data) ? { data: str(o.data)! } : {}) })
    } else {
      other = true
      blocks.push({ type: 'unknown', originalType: str(o.type) ?? '(no type)', raw: o })
    }
  }
  return { text: texts.join('\n\n'), ...(other ? { blocks } : {}) }
}

/** IR usage of a pi-ai `Usage` (tokens; `cost.total` USD when above 0). */
function usageOf(u: Json | undefined): Usage | undefined {
  if (!u) return undefined
  const out: Usage = {}
  if (num(u.input) !== undefined) out.inputTokens = num(u.input)!
  if (num(u.output) !== undefined) out.outputTokens = num(u.output)!
  if (num(u.cacheRead) !== undefined) out.cacheReadTokens = num(u.cacheRead)!
  if (num(u.cacheWrite) !== undefined) out.cacheWriteTokens = num(u.cacheWrite)!
  const cost = num(obj(u.cost)?.total)
  if (cost !== undefined && cost > 0) out.cost = cost
  return Object.keys(out).length ? out : undefined
}

/** Files a Pi tool call names, and the replacements of an `edit` (`edits[]`, or the older single `oldText`/`newText`). */
function fileFacts(name: string, args: unknown): Pick<ToolCall, 'locations' | 'diffs'> {
  const a = obj(args)
  const path = str(a?.path)
  if (!path || !['read', 'write', 'edit'].includes(name)) return {}
  const out: Pick<ToolCall, 'locations' | 'diffs'> = { locations: [{ path, ...(num(a?.offset) !== undefined ? { line: num(a?.offset)! } : {}) }] }
  if (name === 'edit') {
    const edits = Array.isArray(a?.edits) ? a!.edits.map(obj) : [a]
    const diffs = edits.filter((e): e is Json => !!e && typeof e.oldText === 'string' && typeof e.newText === 'string').map((e) => ({ path, oldText: e.oldText as string, newText: e.newText as string }))
    if (diffs.length) out.diffs = diffs
  }
  return out
}

/** One entry as the tree walk sees it. */
interface Entry {
  /** The entry's resolved parent entry id (only ids of earlier lines). */
  parent?: string
  /** Nearest node at or above this entry. */
  nodeAbove?: string
}

/**
 * Read the session `ref` names. Rejects with `READ_FAILED` only when the file cannot be opened;
 * bad lines become diagnostics naming file and line.
 */
export async function readPiSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no session file' })
  const session = newSession('pi', ref.sessionId, ref.format, ref.files, ref.home)
  const entries = new Map<string, Entry>()
  const nodeOfEntry = new Map<string, MessageNode>()
  const calls = new Map<string, ToolCall>()
  const labels = new Map<string, string | undefined>()
  /** Node id → `provider/model` in force there (for "Model: a → b"). */
  const modelAt = new Map<string, string>()
  let version: number | undefined
  let sawHeader = false
  let sawEntry = false
  let lastEntry: string | undefined
  let customEntries = 0
  const counts = { badParent: 0 }

  const take = (raw: string, lineNo: number): void => {
    const e = jsonLineObject(session, path, raw, lineNo)
    if (!e) return
    const type = str(e.type) ?? '(no type)'
    if (type === 'session') {
      if (sawHeader || sawEntry) {
        addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: 'a second session header; ignored (Pi reads only the first line as the header)' })
        return
      }
      sawHeader = true
      version = num(e.version) ?? 1
      session.metadata.piSessionVersion = version
      const id = str(e.id)
      if (id && id !== ref.sessionId) addDiagnostic(session, { severity: 'info', path, line: lineNo, message: `the header names session ${id}, the file name ${ref.sessionId}; the file name is used` })
      if (str(e.cwd)) session.workingDirectory = str(e.cwd)
      const at = isoTime(e.timestamp)
      if (at !== undefined) session.createdAt = at
      const parent = str(e.parentSession)
      if (parent) {
        session.metadata.parentSessionPath = parent
        session.parentSessionId = sessionIdOfFile(basename(parent.replace(/\\/g, '/')))
      }
      return
    }
    if (!sawHeader && !sawEntry) addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: 'the file does not start with a session header (Pi itself does not load such a file); read anyway' })
    sawEntry = true
    // Ids and the tree. Version 1 has neither: each entry follows the one before.
    let id = str(e.id)
    const linear = (version ?? 1) < 2 && id === undefined && e.parentId === undefined
    if (id === undefined) {
      id = `line-${lineNo}`
      if (!linear) addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: `entry has no id; called ${id}` })
    } else if (entries.has(id)) {
      addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: `entry id ${id} was used by an earlier line; this one is called ${id}@${lineNo}` })
      id = `${id}@${lineNo}`
    }
    let parent: string | undefined
    if (linear) parent = lastEntry
    else if (typeof e.parentId === 'string') {
      if (entries.has(e.parentId)) parent = e.parentId
      else {
        counts.badParent++
        const why = e.parentId === str(e.id) ? 'names the entry itself (a loop)' : 'names no earlier entry (missing, or a later line: a loop)'
        addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: `parentId ${e.parentId} ${why}; the entry starts a new branch` })
      }
    } else if (e.parentId !== null && e.parentId !== undefined) {
      addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: 'parentId is not a string or null; the entry starts a new branch' })
    }
    const above = parent === undefined ? undefined : entries.get(parent)!.nodeAbove
    const entry: Entry = { ...(parent !== undefined ? { parent } : {}), ...(above !== undefined ? { nodeAbove: above } : {}) }
    entries.set(id, entry)
    lastEntry = id
    const entryAt = isoTime(e.timestamp)
    const nodeId = id
    const push = (n: Omit<MessageNode, 'nodeId' | 'parentNodeId'>, at?: number): MessageNode => {
      const createdAt = at ?? entryAt
      const node: MessageNode = { nodeId, ...(above !== undefined ? { parentNodeId: above } : {}), ...n, ...(createdAt !== undefined ? { createdAt } : {}) }
      session.nodes.push(node)
      nodeOfEntry.set(id!, node)
      entry.nodeAbove = nodeId
      // The model in force on this node's path (model_change entries, assistant provider/model).
      const inForce = node.role === 'assistant' && node.model ? `${str(node.metadata?.provider) ? `${str(node.metadata?.provider)}/` : ''}${node.model}` : above === undefined ? undefined : modelAt.get(above)
      if (inForce) modelAt.set(nodeId, inForce)
      return node
    }
    const notice = (event: MessageNode['event'], content: string, metadata: Json, at?: number, isMeta = false): MessageNode =>
      push({ role: 'system', event, content, ...(isMeta ? { isMeta } : {}), metadata: { piType: type, ...(type === 'message' ? { piRole: str(obj(e.message)?.role) } : {}), ...metadata } }, at)

    switch (type) {
      case 'message': {
        const m = obj(e.message)
        if (!m) {
          skipRecord(session, { severity: 'warning', path, line: lineNo, message: 'message entry without a message object; skipped' })
          return
        }
        takeMessage(m, lineNo, push, notice)
        return
      }
      case 'model_change': {
        const model = `${str(e.provider) ? `${str(e.provider)}/` : ''}${str(e.modelId) ?? '?'}`
        const from = above === undefined ? undefined : modelAt.get(above)
        notice('model-change', `Model: ${from && from !== model ? `${from} → ` : ''}${model}`, { provider: e.provider, modelId: e.modelId, ...(from ? { previousModel: from } : {}) })
        modelAt.set(nodeId, model)
        return
      }
      case 'thinking_level_change':
        notice('notice', `Thinking level: ${str(e.thinkingLevel) ?? '?'}`, { thinkingLevel: e.thinkingLevel }, undefined, true)
        return
      case 'compaction':
        notice('compaction', str(e.summary) ?? '', { tokensBefore: e.tokensBefore, firstKeptEntryId: e.firstKeptEntryId, ...(e.details !== undefined ? { details: e.details } : {}), ...(e.fromHook ? { fromHook: true } : {}) })
        return
      case 'branch_summary':
        notice('notice', str(e.summary) ?? '', { fromId: e.fromId, ...(e.details !== undefined ? { details: e.details } : {}), ...(e.fromHook ? { fromHook: true } : {}) })
        return
      case 'custom_message':
        customMessage(e, push, notice)
        return
      case 'custom':
        customEntries++
        return
      case 'label':
        if (str(e.targetId)) labels.set(str(e.targetId)!, str(e.label))
        return
      case 'session_info':
        if (str(e.name)?.trim()) session.title = str(e.name)!.trim()
        return
      default:
        if (!KNOWN_TYPES.has(type)) addDiagnostic(session, { severity: 'info', path, line: lineNo, message: `entry type "${type}" is not read; kept as an unknown event` })
        notice('unknown-event', str(e.summary) ?? str(e.content) ?? '', { raw: e })
    }
  }

  type Push = (n: Omit<MessageNode, 'nodeId' | 'parentNodeId'>, at?: number) => MessageNode
  type Notice = (event: MessageNode['event'], content: string, metadata: Json, at?: number, isMeta?: boolean) => MessageNode

  /** A `custom` message / `custom_message` entry: shown ones are notices, hidden ones meta user text. */
  const customMessage = (m: Json, push: Push, notice: Notice, at?: number): void => {
    const c = contentOf(m.content)
    const meta = { customType: m.customType, ...(m.details !== undefined ? { details: m.details } : {}) }
    if (m.display === false) push({ role: 'user', content: c.text, ...(c.blocks ? { blocks: c.blocks } : {}), isMeta: true, metadata: { piType: 'custom', ...meta } }, at)
    else notice('notice', c.text, meta, at)
  }

  const takeMessage = (m: Json, lineNo: number, push: Push, notice: Notice): void => {
    const role = str(m.role) ?? '(no role)'
    const at = num(m.timestamp)
    switch (role) {
      case 'user': {
        const c = contentOf(m.content)
        push({ role: 'user', content: c.text, ...(c.blocks ? { blocks: c.blocks } : {}) }, at)
        return
      }
      case 'assistant': {
        const texts: string[] = []
        const thinking: string[] = []
        const signatures: string[] = []
        const toolCalls: ToolCall[] = []
        const unknown: ContentBlock[] = []
        let redacted = false
        for (const b of Array.isArray(m.content) ? m.content : []) {
          const o = obj(b)
          if (!o) continue
          if (o.type === 'text') texts.push(str(o.text) ?? '')
          else if (o.type === 'thinking') {
            if (str(o.thinking)) thinking.push(str(o.thinking)!)
            if (str(o.thinkingSignature)) signatures.push(str(o.thinkingSignature)!)
            if (o.redacted === true) redacted = true
          } else if (o.type === 'toolCall') {
            const callId = str(o.id)
            if (!callId) {
              skipRecord(session, { severity: 'warning', path, line: lineNo, message: 'toolCall block without id; skipped' })
              continue
            }
            const name = str(o.name) ?? '(unnamed)'
            const call: ToolCall = { id: callId, name, kind: kindOf(name), arguments: o.arguments, ...fileFacts(name, o.arguments) }
            if (calls.has(callId)) addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: `tool call id ${callId} was used before` })
            calls.set(callId, call)
            toolCalls.push(call)
          } else unknown.push({ type: 'unknown', originalType: str(o.type) ?? '(no type)', raw: o })
        }
        const stop = str(m.stopReason)
        const err = str(m.errorMessage)
        const usage = usageOf(obj(m.usage))
        const metadata: Json = {}
        if (str(m.provider)) metadata.provider = m.provider
        if (str(m.api)) metadata.api = m.api
        if (err) metadata.errorMessage = err
        if (redacted) metadata.redactedThinking = true
        if (signatures.length > 1) metadata.thinkingSignatures = signatures
        const empty = texts.every((t) => t.trim() === '') && thinking.length === 0 && toolCalls.length === 0 && unknown.length === 0
        if (empty && (stop === 'error' || stop === 'aborted')) {
          const n = notice(stop === 'error' ? 'api-error' : 'interrupted', err ?? (stop === 'aborted' ? 'The turn was stopped' : 'The request failed'), { ...metadata, stopReason: stop }, at)
          if (str(m.model)) n.model = str(m.model)
          if (usage) n.usage = usage
          return
        }
        const node = push({
          role: 'assistant',
          content: texts.join('\n\n'),
          ...(unknown.length ? { blocks: [...texts.map((t): ContentBlock => ({ type: 'text', text: t })), ...unknown] } : {}),
          ...(toolCalls.length ? { toolCalls } : {}),
          ...(Object.keys(metadata).length ? { metadata } : {}),
          ...(str(m.model) ? { model: str(m.model)! } : {}),
        }, at)
        if (thinking.length) node.thinking = thinking.join('\n\n')
        if (signatures.length) node.thinkingSignature = signatures[0]
        if (stop) node.finishReason = stop
        if (usage) node.usage = usage
        return
      }
      case 'toolResult': {
        const callId = str(m.toolCallId)
        if (!callId) addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: 'toolResult without toolCallId; kept unpaired' })
        const c = contentOf(m.content)
        const name = str(m.toolName)
        push({
          role: 'tool',
          content: c.text,
          ...(c.blocks ? { blocks: c.blocks } : {}),
          ...(callId ? { toolCallId: callId } : {}),
          ...(name ? { toolName: name } : {}),
          ...(m.isError === true ? { isError: true } : {}),
          ...(m.details !== undefined && !(obj(m.details) && Object.keys(obj(m.details)!).length === 0) ? { metadata: { details: m.details } } : {}),
        }, at)
        const call = callId ? calls.get(callId) : undefined
        // The bash tool appends "Command exited with code N" to a failed command's output (core/tools/bash.ts).
        const exit = /Command exited with code (\d+)\s*$/.exec(c.text)
        if (call && call.kind === 'execute' && exit) call.exitCode = Number(exit[1])
        return
      }
      case 'bashExecution': {
        const command = str(m.command) ?? ''
        const output = str(m.output) ?? ''
        const first = output.split('\n').find((l) => l.trim() !== '')
        const exitCode = num(m.exitCode)
        const tail = m.cancelled === true ? ' → cancelled' : exitCode !== undefined && exitCode !== 0 ? ` → exit ${exitCode}` : first ? ` → ${first.trim()}` : ''
        notice('command', `!${command}${tail}`, { command, output, exitCode, cancelled: m.cancelled, truncated: m.truncated, ...(m.excludeFromContext ? { excludeFromContext: true } : {}), ...(str(m.fullOutputPath) ? { fullOutputPath: m.fullOutputPath } : {}) }, at)
        return
      }
      case 'custom':
      case 'hookMessage':
        customMessage(m, push, notice, at)
        return
      case 'branchSummary':
        notice('notice', str(m.summary) ?? '', { fromId: m.fromId }, at)
        return
      case 'compactionSummary':
        notice('compaction', str(m.summary) ?? '', { tokensBefore: m.tokensBefore }, at)
        return
      default:
        addDiagnostic(session, { severity: 'info', path, line: lineNo, message: `message role "${role}" is not read; kept as an unknown event` })
        notice('unknown-event', contentOf(m.content).text, { raw: m }, at)
    }
  }

  let lines = 0
  try {
    await forEachLine(path, (text, lineNo) => {
      lines = lineNo
      take(text, lineNo)
    }, { size: ref.size })
  } catch (e) {
    const message = (e as Error).message
    if (lines === 0) throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${message}`, path })
    addDiagnostic(session, { severity: 'error', path, line: lines + 1, message: `reading stopped: ${message}` })
  }
  if (!sawHeader && !sawEntry) addDiagnostic(session, { severity: 'warning', path, message: 'the file holds no session header and no entries' })

  // The shown thread: the path from the root to the last entry (Pi's leaf).
  const onPath = new Set<string>()
  for (let cur = lastEntry; cur !== undefined && !onPath.has(cur); cur = entries.get(cur)?.parent) onPath.add(cur)
  const mainThread: string[] = []
  for (const [entryId, node] of nodeOfEntry) {
    if (onPath.has(entryId)) mainThread.push(node.nodeId)
    else node.metadata = { ...node.metadata, branch: true }
  }
  if (session.nodes.length) session.metadata.mainThread = mainThread
  for (const [target, label] of labels) {
    const n = nodeOfEntry.get(target)
    if (n && label) n.metadata = { ...n.metadata, label }
  }
  if (customEntries) session.metadata.customEntries = customEntries
  return finishSession(session)
}
