/**
 * Read one Factory Droid session (`<id>.jsonl`, with `<id>.settings.json` when present) into the IR.
 *
 * Shapes from the zod schemas bundled in the `@factory/cli-linux-x64` 0.225.2 binary (the session
 * loader that requires a `session_start` event and keeps `message` events; the content-block
 * schemas `text` / `image` / `thinking` / `redacted_thinking` / `tool_use` / `tool_result` /
 * `document`; the settings schema with `tokenUsage`) and the real store in fixtures/real/droid:
 * - `session_start` `{ id, title, owner, version?, cwd?, lastCwd?, parent?: <session id> | null,
 *   isSessionTitleManuallySet?, organizationId?, hostId? }` (the first line).
 * - `message` `{ id, timestamp (ISO string or ms), parentId?, message: { role: "user" | "assistant" |
 *   "tool" | "system", content: string | blocks }, tokens?, compactionSummaryId? }`. User messages
 *   carry the prompt text and the `tool_result` blocks (`tool_use_id`, `content`: string or text /
 *   image blocks, `is_error?`); assistant messages carry `text`, `thinking` (`thinking`,
 *   `signature`, `signatureProvider?`, `durationMs?`), `redacted_thinking` and `tool_use` (`id`,
 *   `name`, `input`). A user message whose id starts with `context-` is the context Droid injects
 *   before the first prompt (`<system-reminder>` blocks): read as meta, no prompt.
 * - `todo_state` (`todos`, `messageIndex`), `compaction_state` (`summaryText`, `removedCount`, …)
 *   and `agent_turn_outcome` (`turnId`, `reason`, `resultKind`).
 * - Settings side file: `model`, `reasoningEffort`, `autonomyLevel`, `tokenUsage { inputTokens,
 *   outputTokens, cacheCreationTokens, cacheReadTokens, thinkingTokens, factoryCredits? }` (the
 *   session total; Droid records no per-message usage), `assistantActiveTimeMs`.
 *
 * Execute results end with `[Process exited with code N]` (real store): that is the call's exit
 * code. A line that is not JSON, or an event type not in {@link KNOWN_EVENT_TYPES}, is a
 * diagnostic naming file and line; the rest loads.
 */
import { readFile } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import type { ContentBlock, MessageNode, ToolCall, Session, Usage } from '../../../shared/ir'
import { addDiagnostic, finishSession, jsonLineObject, newSession, sessionUsageOnLastAssistant, skipRecord } from '../../ir/build'
import { toolKind } from '../../ir/toolkind'
import { forEachLine } from '../../util/lines'
import type { ReadContext, StoreRef } from '../types'
import { KNOWN_EVENT_TYPES } from './format'

/** Moved to ./format.ts so discovery and the census load without this reader; kept here for its importers. */
export { KNOWN_EVENT_TYPES } from './format'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const timeOf = (v: unknown): number | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return v
  const t = typeof v === 'string' ? Date.parse(v) : NaN
  return Number.isNaN(t) ? undefined : t
}

/** Droid's built-in tools (the tool list its requests carry); others via the shared table. */
const DROID_KINDS: Record<string, ToolCall['kind']> = { Read: 'read', LS: 'search', Execute: 'execute', Edit: 'edit', MultiEdit: 'edit', Create: 'edit', ApplyPatch: 'edit', Grep: 'search', Glob: 'search', WebSearch: 'fetch', FetchUrl: 'fetch', Task: 'other' }
const kindOf = (name: string): ToolCall['kind'] => DROID_KINDS[name] ?? toolKind(name)

/** Text of a `tool_result.content` (string, or text / image blocks) and its non-text blocks. */
function resultContent(content: unknown): { text: string; blocks?: ContentBlock[] } {
  if (typeof content === 'string') return { text: content }
  const texts: string[] = []
  const blocks: ContentBlock[] = []
  let other = false
  for (const b of Array.isArray(content) ? content : []) {
    const o = obj(b)
    if (!o) continue
    if (o.type === 'text') {
      texts.push(str(o.text) ?? '')
      blocks.push({ type: 'text', text: str(o.text) ?? '' })
    } else if (o.type === 'image') {
      other = true
      const src = obj(o.source)
      blocks.push({ type: 'image', ...(str(src?.media_type) ? { mediaType: str(src?.media_type)! } : {}), ...(str(src?.data) ? { data: str(src?.data)! } : {}) })
    } else {
      other = true
      blocks.push({ type: 'unknown', originalType: str(o.type) ?? '(no type)', raw: o })
    }
  }
  return { text: texts.join('\n\n'), ...(other ? { blocks } : {}) }
}

/** Files an Edit / Create / Read call names, and an Edit's replacement. */
function fileFacts(name: string, input: Json | undefined): Pick<ToolCall, 'locations' | 'diffs'> {
  const path = str(input?.file_path)
  if (!path || !['Read', 'Edit', 'Create', 'MultiEdit'].includes(name)) return {}
  const out: Pick<ToolCall, 'locations' | 'diffs'> = { locations: [{ path }] }
  if (name === 'Edit' && typeof input?.old_str === 'string' && typeof input?.new_str === 'string') out.diffs = [{ path, oldText: input.old_str, newText: input.new_str }]
  if (name === 'Create' && typeof input?.content === 'string') out.diffs = [{ path, oldText: '', newText: input.content }]
  return out
}

/** IR usage of a settings `tokenUsage` (tokens; Droid's `inputTokens` excludes cache reads). */
function usageOf(u: Json | undefined): Usage | undefined {
  if (!u) return undefined
  const out: Usage = {}
  if (num(u.inputTokens) !== undefined) out.inputTokens = num(u.inputTokens)!
  if (num(u.outputTokens) !== undefined) out.outputTokens = num(u.outputTokens)!
  if (num(u.cacheReadTokens) !== undefined) out.cacheReadTokens = num(u.cacheReadTokens)!
  if (num(u.cacheCreationTokens) !== undefined) out.cacheWriteTokens = num(u.cacheCreationTokens)!
  if (num(u.thinkingTokens)) out.thinkingTokens = num(u.thinkingTokens)!
  return Object.keys(out).length ? out : undefined
}

/**
 * Read the session `ref` names. Rejects with `READ_FAILED` only when the transcript cannot be
 * opened; bad lines and a bad settings file become diagnostics naming the file (and line).
 */
export async function readDroidSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no session file' })
  const session = newSession('droid', ref.sessionId, ref.format, ref.files, ref.home)
  const calls = new Map<string, ToolCall>()
  let sawStart = false
  let todos = 0
  const push = (n: MessageNode): void => {
    session.nodes.push(n)
  }

  const take = (raw: string, lineNo: number): void => {
    const e = jsonLineObject(session, path, raw, lineNo)
    if (!e) return
    const type = str(e.type) ?? '(no type)'
    const at = timeOf(e.timestamp)
    const nodeId = str(e.id) ?? `line-${lineNo}`
    switch (type) {
      case 'session_start': {
        if (sawStart) {
          addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: 'a second session_start; ignored' })
          return
        }
        sawStart = true
        const id = str(e.id)
        if (id && id !== ref.sessionId) addDiagnostic(session, { severity: 'info', path, line: lineNo, message: `session_start names session ${id}, the file name ${ref.sessionId}; the file name is used` })
        if (str(e.title)?.trim()) session.title = str(e.title)!.trim()
        if (str(e.cwd)) session.workingDirectory = str(e.cwd)
        if (str(e.lastCwd) && e.lastCwd !== e.cwd) session.metadata.lastCwd = e.lastCwd
        if (str(e.parent)) session.parentSessionId = str(e.parent)
        if (num(e.version) !== undefined) session.metadata.droidSessionVersion = e.version
        return
      }
      case 'message': {
        const m = obj(e.message)
        if (!m) {
          skipRecord(session, { severity: 'warning', path, line: lineNo, message: 'message event without a message object; skipped' })
          return
        }
        takeMessage(m, nodeId, at, lineNo, str(e.parentId))
        return
      }
      case 'todo_state': {
        todos++
        const list = Array.isArray(e.todos) ? e.todos : []
        const text = list.map((t) => { const o = obj(t); return `- [${str(o?.status) === 'completed' ? 'x' : ' '}] ${str(o?.content) ?? ''}` }).join('\n')
        push({ nodeId, role: 'system', event: 'notice', content: text || 'Todo list', isMeta: true, metadata: { droidType: type, todos: e.todos }, ...(at !== undefined ? { createdAt: at } : {}) })
        return
      }
      case 'compaction_state':
        push({ nodeId, role: 'system', event: 'compaction', content: str(e.summaryText) ?? '', metadata: { droidType: type, removedCount: e.removedCount, summaryKind: e.summaryKind, summaryTokens: e.summaryTokens }, ...(at !== undefined ? { createdAt: at } : {}) })
        return
      case 'agent_turn_outcome':
        if (str(e.reason) && e.reason !== 'completed') push({ nodeId: `line-${lineNo}`, role: 'system', event: 'notice', content: `Turn ended: ${str(e.reason)}`, metadata: { droidType: type, turnId: e.turnId, reason: e.reason, resultKind: e.resultKind } })
        return
      default:
        addDiagnostic(session, { severity: 'info', path, line: lineNo, message: `event type "${type}" is not read; skipped` })
    }
  }

  const takeMessage = (m: Json, nodeId: string, at: number | undefined, lineNo: number, parentId: string | undefined): void => {
    const role = str(m.role) ?? '(no role)'
    const base = { ...(parentId ? { parentNodeId: parentId } : {}), ...(at !== undefined ? { createdAt: at } : {}) }
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content.map(obj).filter((b): b is Json => !!b) : []
    if (role === 'user' || role === 'tool') {
      const texts: string[] = []
      const other: ContentBlock[] = []
      let resultNo = 0
      for (const b of blocks) {
        if (b.type === 'text') texts.push(str(b.text) ?? '')
        else if (b.type === 'tool_result') {
          const callId = str(b.tool_use_id)
          if (!callId) addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: 'tool_result without tool_use_id; kept unpaired' })
          const c = resultContent(b.content)
          push({ nodeId: resultNo++ ? `${nodeId}#${resultNo}` : nodeId, role: 'tool', content: c.text, ...(c.blocks ? { blocks: c.blocks } : {}), ...(callId ? { toolCallId: callId } : {}), ...(b.is_error === true ? { isError: true } : {}), ...base })
          const call = callId ? calls.get(callId) : undefined
          const exit = /\[Process exited with code (\d+)\]\s*$/.exec(c.text)
          if (call && call.kind === 'execute' && exit) call.exitCode = Number(exit[1])
        } else if (b.type === 'image') {
          const src = obj(b.source)
          other.push({ type: 'image', ...(str(src?.media_type) ? { mediaType: str(src?.media_type)! } : {}), ...(str(src?.data) ? { data: str(src?.data)! } : {}) })
        } else other.push({ type: 'unknown', originalType: str(b.type) ?? '(no type)', raw: b })
      }
      if (texts.length || other.length) {
        const meta = nodeId.startsWith('context-') || m.isUserVisible === false || m.hiddenFromUserViews === true
        push({
          nodeId: resultNo ? `${nodeId}#text` : nodeId,
          role: 'user',
          content: texts.join('\n\n'),
          ...(other.length ? { blocks: [...texts.map((t): ContentBlock => ({ type: 'text', text: t })), ...other] } : {}),
          ...(meta ? { isMeta: true } : {}),
          ...base,
        })
      }
      return
    }
    if (role === 'assistant') {
      const texts: string[] = []
      const thinking: string[] = []
      const signatures: string[] = []
      const toolCalls: ToolCall[] = []
      const unknown: ContentBlock[] = []
      let redacted = false
      for (const b of blocks) {
        if (b.type === 'text') texts.push(str(b.text) ?? '')
        else if (b.type === 'thinking') {
          if (str(b.thinking)) thinking.push(str(b.thinking)!)
          if (str(b.signature)) signatures.push(str(b.signature)!)
        } else if (b.type === 'redacted_thinking') redacted = true
        else if (b.type === 'tool_use') {
          const id = str(b.id)
          if (!id) {
            skipRecord(session, { severity: 'warning', path, line: lineNo, message: 'tool_use block without id; skipped' })
            continue
          }
          const name = str(b.name) ?? '(unnamed)'
          const input = obj(b.input)
          const call: ToolCall = { id, name, kind: kindOf(name), arguments: b.input, ...fileFacts(name, input) }
          if (calls.has(id)) addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: `tool call id ${id} was used before` })
          calls.set(id, call)
          toolCalls.push(call)
        } else unknown.push({ type: 'unknown', originalType: str(b.type) ?? '(no type)', raw: b })
      }
      const node: MessageNode = {
        nodeId,
        role: 'assistant',
        content: texts.join('\n\n'),
        ...(unknown.length ? { blocks: [...texts.map((t): ContentBlock => ({ type: 'text', text: t })), ...unknown] } : {}),
        ...(toolCalls.length ? { toolCalls } : {}),
        ...(redacted ? { metadata: { redactedThinking: true } } : {}),
        ...base,
      }
      if (thinking.length) node.thinking = thinking.join('\n\n')
      if (signatures.length) node.thinkingSignature = signatures[0]
      push(node)
      return
    }
    if (role === 'system') {
      push({ nodeId, role: 'system', event: 'notice', content: blocks.map((b) => str(b.text) ?? '').join('\n\n'), isMeta: true, metadata: { droidType: 'message' }, ...base })
      return
    }
    addDiagnostic(session, { severity: 'info', path, line: lineNo, message: `message role "${role}" is not read; kept as an unknown event` })
    push({ nodeId, role: 'system', event: 'unknown-event', content: '', metadata: { raw: m }, ...base })
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
  if (!sawStart) addDiagnostic(session, { severity: 'warning', path, message: 'the file has no session_start event (Droid itself does not load such a file); read anyway' })
  if (todos) session.metadata.todoStates = todos

  const settingsPath = ref.files[1]
  if (settingsPath) {
    try {
      const s = obj(JSON.parse(await readFile(settingsPath, 'utf8')))
      if (!s) addDiagnostic(session, { severity: 'warning', path: settingsPath, line: 1, message: 'settings file is not a JSON object; ignored' })
      else {
        const usage = usageOf(obj(s.tokenUsage))
        if (usage) session.usage = usage
        if (str(s.model)) {
          session.model = str(s.model)
          for (const n of session.nodes) if (n.role === 'assistant') n.model = str(s.model)
        }
        for (const k of ['reasoningEffort', 'autonomyLevel', 'interactionMode', 'assistantActiveTimeMs', 'providerLock']) if (s[k] !== undefined) session.metadata[k] = s[k]
      }
    } catch (e) {
      addDiagnostic(session, { severity: 'warning', path: settingsPath, line: 1, message: `settings file cannot be read as JSON (${(e as Error).message}); ignored` })
    }
  }
  sessionUsageOnLastAssistant(session)
  return finishSession(session)
}
