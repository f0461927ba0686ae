/**
 * Nodes from a legacy `api_conversation_history.json` (Anthropic MessageParam[]), used when a
 * task has no `ui_messages.json` (seed 000 "Past-use rows and secondary sources": the API history
 * is a fallback, not a second copy).
 *
 * Shape (seed 000 "Legacy task files", apps/vscode/src/sdk/legacy-task-handling.ts:13-45):
 * {role, content: string | [text | tool_use | tool_result | thinking | image]}; newer CLI builds
 * also write `ts` (ms), `modelInfo{modelId, providerId, mode}` and
 * `metrics{tokens{prompt, completion, cached}, cost?}` on assistant messages
 * (`fixtures/real/cline-legacy/home`). Tool calls are mostly XML inside assistant text and their
 * results user text blocks starting `[tool for '...'] Result:` ({@link parseAssistantText}).
 */
import type { ContentBlock, MessageNode, Session, ToolCall } from '../../../shared/ir'
import { addDiagnostic } from '../../ir/build'
import { isRecord } from '../../util/json'
import { exitCodeFromText, makeToolCall, type NodeIds, num, str, usageOf } from './common'
import {
  CONVERSATIONAL_TAGS, isInjectedText, parseAssistantText, RESULT_HEADER, splitInjected, unwrapUserText,
} from './legacy-xml'
import { otherBlock, toolResultContent } from './sdk-nodes'

/** Append nodes for the API history `items` to `session.nodes`. `file` names diagnostics. */
export function apiHistoryToNodes(items: unknown[], session: Session, file: string, ids: NodeIds): void {
  let pending: ToolCall[] = []
  items.forEach((m, i) => {
    if (!isRecord(m)) {
      addDiagnostic(session, { severity: 'warning', path: file, message: `Message ${i + 1} is not an object; skipped.` })
      return
    }
    const blocks = Array.isArray(m.content) ? m.content : typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : []
    const ts = num(m.ts)
    if (m.role === 'assistant') {
      const node = assistantNode(ids.take(`api-${i}`), i, blocks, m)
      if (ts !== undefined) node.createdAt = ts
      session.nodes.push(node)
      pending = [...(node.toolCalls ?? [])]
    } else {
      userNodes(session, ids, i, blocks, ts, pending)
    }
  })
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
      calls.push(makeToolCall(str(b.id) ?? `tool-${index}-${calls.length}`, str(b.name) ?? 'unknown', b.input))
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
function userNodes(session: Session, ids: NodeIds, index: number, blocks: unknown[], ts: number | undefined, pending: ToolCall[]): void {
  const words: string[] = []
  const userBlocks: ContentBlock[] = []
  const injected: string[] = []
  const raw: string[] = []
  let result: { call?: ToolCall; name: string; texts: string[] } | undefined
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
    if (/^(The tool execution failed|The user denied this operation)/.test(text)) node.isError = true
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
      const node: MessageNode = { nodeId: ids.take(`api-${index}:result`), role: 'tool', content: r.text, toolCallId: str(b.tool_use_id) ?? '' }
      if (b.is_error === true || r.isError) node.isError = true
      if (ts !== undefined) node.createdAt = ts
      session.nodes.push(node)
      continue
    }
    if (b.type !== 'text' || typeof b.text !== 'string') {
      if (result) continue // images attached to a tool result (browser screenshots) are not kept apart
      userBlocks.push(otherBlock(b))
      continue
    }
    const header = RESULT_HEADER.exec(b.text)
    if (header && CONVERSATIONAL_TAGS[header[1]!] === undefined) {
      flush()
      const name = header[1]!
      const idx = pending.findIndex((c) => c.name === name)
      const call = idx >= 0 ? pending.splice(idx, 1)[0] : undefined
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
