/**
 * Nodes from a legacy `api_conversation_history.json` (Anthropic MessageParam[]), used when a
 * task has no `ui_messages.json` (seed 000 "Past-use rows and secondary sources": the API history
 * is a fallback, not a second copy).
 *
 * Shape (seed 000 "Legacy task files", apps/vscode/src/sdk/legacy-task-handling.ts:13-45):
 * {role, content: string | [text | tool_use | tool_result | thinking | image]}; newer CLI builds
 * also write `ts` (ms), `modelInfo{modelId, providerId, mode}` and
 * `metrics{tokens{prompt, completion, cached}, cost?}` on assistant messages
 * (`fixtures/real/cline-legacy/home`). Tool calls are XML inside assistant text (before 3.x) or
 * native `tool_use` blocks (3.x, cline src/core/task/index.ts "tool_calls"); their results are
 * `tool_result` blocks whose `tool_use_id` names the call and whose text starts
 * `[tool for 'path'] Result:`, or plain user text blocks with that header when Cline had no id
 * (`ToolResultUtils.pushToolResult`, id "cline"). Pairing, in this order: by `tool_use_id`; by tool
 * name and path from the header; by name among the previous assistant message's unanswered calls
 * without a path. A call answered by "Tool [x] was not executed because ..." or "Skipping tool
 * ..." (`formatResponse.toolAlreadyUsed`, `ToolExecutor.createToolRejectionMessage`) gets that text
 * as an error result and `metadata.refused`; a call the next user message does not answer at all
 * (the user interrupted the turn; the API history then goes on with "[TASK RESUMPTION]") gets no
 * result, `status: 'failed'` and `metadata.interrupted`. Facts from cline/cline v3.49.1
 * (2c75285566370205ab4ba340105e924d93e3c654).
 */
import type { ContentBlock, MessageNode, Session, ToolCall } from '../../../shared/ir'
import { skipRecord } from '../../ir/build'
import { isRecord, tryParseJson } from '../../util/json'
import { exitCodeFromText, makeToolCall, type NodeIds, num, str, usageOf } from './common'
import {
  CONVERSATIONAL_TAGS, isInjectedText, parseAssistantText, RESULT_HEADER, splitInjected, unwrapUserText,
} from './legacy-xml'
import { otherBlock, toolResultContent } from './sdk-nodes'

/** Append nodes for the API history `items` to `session.nodes`. `file` names diagnostics. */
export function apiHistoryToNodes(items: unknown[], session: Session, file: string, ids: NodeIds, times?: (index: number) => number | undefined): void {
  let pending: ToolCall[] = []
  const byId = new Map<string, ToolCall>()
  items.forEach((m, i) => {
    if (!isRecord(m)) {
      skipRecord(session, { severity: 'warning', path: file, message: `Message ${i + 1} is not an object; skipped.` })
      return
    }
    const blocks = Array.isArray(m.content) ? m.content : typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : []
    const ts = num(m.ts) ?? times?.(i)
    if (m.role === 'assistant') {
      markInterrupted(pending)
      const node = assistantNode(ids.take(`api-${i}`), i, blocks, m)
      if (ts !== undefined) node.createdAt = ts
      session.nodes.push(node)
      pending = [...(node.toolCalls ?? [])]
      for (const c of pending) byId.set(c.id, c)
    } else {
      userNodes(session, ids, i, blocks, ts, pending, byId)
      markInterrupted(pending)
      pending = []
    }
  })
  // The last assistant message's calls: unanswered because the task stopped there. A conversational
  // tool (attempt_completion, ask_followup_question) waiting for the user is not interrupted.
  markInterrupted(pending.filter((c) => CONVERSATIONAL_TAGS[c.name] === undefined))
}

/** Calls no result answered: the turn was stopped before they ran. */
function markInterrupted(calls: ToolCall[]): void {
  for (const c of calls) {
    c.status = 'failed'
    c.metadata = { ...c.metadata, interrupted: true }
  }
}

/** The path a call names (`path`, `file_path`, `absolutePath`...), as the result header quotes it. */
function pathOf(call: ToolCall): string | undefined {
  const a = call.arguments
  if (!isRecord(a)) return undefined
  return str(a.path) ?? str(a.file_path) ?? str(a.absolutePath) ?? str(a.command) ?? str(a.url) ?? str(a.query) ?? str(a.regex)
}

/** Take from `pending` the call a `[name for 'path']` header answers (see the module comment). */
function takeCall(pending: ToolCall[], name: string, path: string | undefined): ToolCall | undefined {
  let idx = pending.findIndex((c) => c.name === name && path !== undefined && pathOf(c) === path)
  if (idx < 0) idx = pending.findIndex((c) => c.name === name && (path === undefined || pathOf(c) === undefined))
  if (idx < 0 && path !== undefined) idx = pending.findIndex((c) => c.name === name && path.includes(pathOf(c) ?? '\u0000'))
  return idx >= 0 ? pending.splice(idx, 1)[0] : undefined
}

/** "Tool [x] was not executed because ...", "Skipping tool ... [x for 'p']": Cline refused the call x. */
const REFUSAL = /^\s*(?:Tool \[([\w-]+)\] was not executed because|(?:Skipping tool|Tool was interrupted and not executed)[^[]*\[([\w-]+)(?: for '([\s\S]*?)')?\])/

/** Cline's internal marker appended to a completion (`COMPLETION_RESULT_CHANGES_FLAG`, shared/ExtensionMessage.ts). */
export function stripChangesFlag(text: string): string {
  return text.endsWith('HAS_CHANGES') ? text.slice(0, -'HAS_CHANGES'.length).trimEnd() : text
}

function assistantNode(nodeId: string, index: number, blocks: unknown[], m: Record<string, unknown>): MessageNode {
  const node: MessageNode = { nodeId, role: 'assistant', content: '' }
  const texts: string[] = []
  const thinking: string[] = []
  const calls: ToolCall[] = []
  const extra: ContentBlock[] = []
  const meta: Record<string, unknown> = {}
  for (const b of blocks) {
    if (!isRecord(b)) continue
    if (b.type === 'text' && typeof b.text === 'string') {
      const p = parseAssistantText(b.text)
      if (p.text) texts.push(p.text)
      if (p.thinking) thinking.push(p.thinking)
      for (const t of p.tools) {
        const main = CONVERSATIONAL_TAGS[t.name]
        if (main !== undefined) {
          const said = t.params[main]
          if (said) texts.push(said)
          meta.xmlTag = t.name
          const { [main]: _said, ...others } = t.params
          if (Object.keys(others).length) meta.xmlParams = others
          continue
        }
        calls.push(makeToolCall(`xml-${index}-${calls.length}`, t.name, t.params))
        if (t.partial) meta.partialToolCall = true
      }
    } else if (b.type === 'thinking') {
      const t = str(b.thinking) ?? str(b.text)
      if (t) thinking.push(t)
      if (str(b.signature)) node.thinkingSignature = b.signature as string
    } else if (b.type === 'tool_use') {
      const name = str(b.name) ?? 'unknown'
      const input = typeof b.input === 'string' ? (tryParseJson(b.input) ?? b.input) : b.input
      calls.push(makeToolCall(str(b.id) ?? `tool-${index}-${calls.length}`, name, input))
      // attempt_completion / ask_followup_question: the UI shows their main argument as the
      // assistant's words, so it is also the node's text (the call stays, for pairing).
      const main = CONVERSATIONAL_TAGS[name]
      const said = main !== undefined && isRecord(input) ? str(input[main]) : undefined
      if (said) texts.push(said)
    } else {
      extra.push(otherBlock(b))
    }
  }
  node.content = texts.join('\n\n')
  if (extra.length) node.blocks = [...(node.content ? [{ type: 'text', text: node.content } as ContentBlock] : []), ...extra]
  if (thinking.length) node.thinking = thinking.join('\n\n')
  if (calls.length) node.toolCalls = calls
  const model = isRecord(m.modelInfo) ? str(m.modelInfo.modelId) : undefined
  if (model) node.model = model
  const metrics = isRecord(m.metrics) ? m.metrics : undefined
  const tokens = metrics && isRecord(metrics.tokens) ? metrics.tokens : undefined
  const usage = usageOf({ inputTokens: tokens?.prompt, outputTokens: tokens?.completion, cacheReadTokens: tokens?.cached, cost: metrics?.cost })
  if (usage) node.usage = usage
  if (Object.keys(meta).length) node.metadata = meta
  return node
}

/** One user message: tool result nodes, then the user's words, then injected text as a meta node. */
function userNodes(
  session: Session, ids: NodeIds, index: number, blocks: unknown[], ts: number | undefined, pending: ToolCall[], byId: Map<string, ToolCall>,
): void {
  const words: string[] = []
  const userBlocks: ContentBlock[] = []
  const injected: string[] = []
  const raw: string[] = []
  let result: { call?: ToolCall; name: string; texts: string[]; refused?: boolean } | undefined
  const flush = () => {
    if (!result) return
    const text = result.texts.join('\n\n').trim()
    const call = result.call
    const node: MessageNode = {
      nodeId: ids.take(`api-${index}:result`),
      role: 'tool',
      content: text,
      toolCallId: call?.id ?? `api-${index}:orphan`,
      toolName: result.name,
    }
    if (result.refused || /^(The tool execution failed|The user denied this operation)/.test(text)) node.isError = true
    if (result.refused && call) {
      call.status = 'failed'
      call.metadata = { ...call.metadata, refused: true }
    }
    if (call?.name === 'execute_command') {
      const code = exitCodeFromText(text)
      if (code !== undefined) call.exitCode = code
    }
    if (ts !== undefined) node.createdAt = ts
    session.nodes.push(node)
    result = undefined
  }
  for (const b of blocks) {
    if (!isRecord(b)) continue
    if (b.type === 'tool_result') {
      flush()
      const r = toolResultContent(b.content)
      const id = str(b.tool_use_id) ?? ''
      const call = byId.get(id)
      const at = call ? pending.indexOf(call) : -1
      if (at >= 0) pending.splice(at, 1)
      const header = RESULT_HEADER.exec(r.text)
      const split = splitInjected(header ? r.text.slice(header[0].length) : r.text)
      injected.push(...split.injected)
      const node: MessageNode = { nodeId: ids.take(`api-${index}:result`), role: 'tool', content: split.text, toolCallId: id }
      const name = call?.name ?? header?.[1]
      if (name) node.toolName = name
      if (b.is_error === true || r.isError || /^(The tool execution failed|The user denied this operation)/.test(split.text)) node.isError = true
      if (call?.name === 'execute_command') {
        const code = exitCodeFromText(split.text)
        if (code !== undefined) call.exitCode = code
      }
      if (ts !== undefined) node.createdAt = ts
      session.nodes.push(node)
      continue
    }
    if (b.type !== 'text' || typeof b.text !== 'string') {
      if (result) continue // images attached to a tool result (browser screenshots) are not kept apart
      userBlocks.push(otherBlock(b))
      continue
    }
    const refusal = REFUSAL.exec(b.text)
    if (refusal) {
      flush()
      const name = (refusal[1] ?? refusal[2])!
      const call = takeCall(pending, name, refusal[3])
      const rest = splitInjected(b.text)
      injected.push(...rest.injected)
      result = { name, texts: [rest.text], refused: true, ...(call ? { call } : {}) }
      continue
    }
    const header = RESULT_HEADER.exec(b.text)
    if (header && CONVERSATIONAL_TAGS[header[1]!] === undefined) {
      flush()
      const name = header[1]!
      const call = takeCall(pending, name, header[2])
      const rest = splitInjected(b.text.slice(header[0].length))
      injected.push(...rest.injected)
      result = { name, texts: rest.text ? [rest.text] : [], ...(call ? { call } : {}) }
      continue
    }
    if (isInjectedText(b.text)) {
      injected.push(b.text.trim())
      continue
    }
    if (result) {
      result.texts.push(b.text)
      continue
    }
    const body = header ? b.text.slice(header[0].length) : b.text
    const split = splitInjected(body)
    injected.push(...split.injected)
    const u = unwrapUserText(split.text)
    if (u.wrapper) raw.push(b.text)
    if (u.text) {
      words.push(u.text)
      userBlocks.push({ type: 'text', text: u.text })
    }
  }
  flush()
  if (words.length || userBlocks.length) {
    const node: MessageNode = { nodeId: ids.take(`api-${index}`), role: 'user', content: words.join('\n\n') }
    if (userBlocks.some((x) => x.type !== 'text')) node.blocks = userBlocks
    if (ts !== undefined) node.createdAt = ts
    if (raw.length) node.metadata = { rawText: raw.join('\n\n') }
    session.nodes.push(node)
  }
  if (injected.length) {
    const node: MessageNode = { nodeId: ids.take(`api-${index}:meta`), role: 'user', content: injected.join('\n\n'), isMeta: true }
    if (ts !== undefined) node.createdAt = ts
    session.nodes.push(node)
  }
}
