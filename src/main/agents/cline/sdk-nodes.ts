/**
 * Turn the `messages` of a Cline SDK `<id>.messages.json` into IR nodes.
 *
 * Shapes (seed 000 "SDK messages file", sdk/packages/shared/src/llms/messages.ts:19-165; seed 002
 * "messages[] entry shape"; `fixtures/real/cline/README.md` "Worth knowing"):
 * message {id?, role: user|assistant, content: string | block[], ts? (ms), modelInfo?{id, provider},
 * metrics?{inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cost}, metadata?}.
 * Blocks: text{text}, thinking{thinking, signature?}, redacted_thinking{data}, tool_use{id, name,
 * input}, tool_result{tool_use_id, name, content, is_error?}, image{data, mediaType}, file{content, path}.
 *
 * Mapping: a user message gives one `tool` node per tool_result (first) and one `user` node for
 * its other blocks; the CLI's `<user_input mode="act">…</user_input>` wrapper is removed (raw kept
 * in `metadata.rawText`). An assistant message gives one `assistant` node (text, thinking,
 * signature, tool calls, model, usage), preceded by a `model-change` event node when its
 * `modelInfo.id` differs from the model before it: the previous message's, or for the lead
 * transcript the manifest model (seed 000 "Model rows": "The lead transcript starts from the
 * manifest model; a subagent transcript starts from its own first modelInfo.id").
 */
import type { ContentBlock, MessageNode, Session } from '../../../shared/ir'
import { addDiagnostic, skipRecord } from '../../ir/build'
import { isRecord, tryParseJson } from '../../util/json'
import { makeToolCall, type NodeIds, num, str, usageOf } from './common'

/**
 * Convert SDK messages into nodes appended to `session.nodes`. `file` names diagnostics;
 * `initialModel` is the model in effect before the first message (the manifest model of a lead
 * transcript). Returns, per message, the index in `session.nodes` where its nodes start.
 */
export function sdkMessagesToNodes(messages: unknown[], session: Session, file: string, ids: NodeIds, initialModel?: string): number[] {
  let prevModel: string | undefined = initialModel
  const starts: number[] = []
  messages.forEach((m, index) => {
    starts.push(session.nodes.length)
    if (!isRecord(m)) {
      skipRecord(session, { severity: 'warning', path: file, message: `Message ${index + 1} is not an object; skipped.` })
      return
    }
    const msgId = str(m.id) ?? `msg-${index}`
    const ts = num(m.ts)
    const blocks = Array.isArray(m.content)
      ? m.content
      : typeof m.content === 'string'
        ? [{ type: 'text', text: m.content }]
        : []
    const extra = isRecord(m.metadata) ? { cline: m.metadata } : undefined
    if (m.role === 'assistant') {
      const model = isRecord(m.modelInfo) ? str(m.modelInfo.id) : undefined
      if (model && prevModel && model !== prevModel) {
        const ev: MessageNode = {
          nodeId: ids.take(`${msgId}:model`),
          role: 'system',
          content: `Model: ${prevModel} → ${model}`,
          event: 'model-change',
          metadata: { from: prevModel, to: model },
        }
        const provider = isRecord(m.modelInfo) ? str(m.modelInfo.provider) : undefined
        if (provider) ev.metadata!.provider = provider
        if (ts !== undefined) ev.createdAt = ts
        session.nodes.push(ev)
      }
      if (model) prevModel = model
      session.nodes.push(assistantNode(ids.take(msgId), blocks, ts, m, model, extra))
    } else if (m.role === 'user' || m.role === 'system') {
      pushUserNodes(session, ids, msgId, m.role, blocks, ts, extra)
    } else {
      addDiagnostic(session, { severity: 'warning', path: file, message: `Message ${index + 1} has an unknown role ${JSON.stringify(m.role)}; kept as an unknown event.` })
      session.nodes.push({ nodeId: ids.take(msgId), role: 'system', content: textOf(blocks), event: 'unknown-event', metadata: { raw: m } })
    }
  })
  return starts
}

function assistantNode(
  nodeId: string,
  blocks: unknown[],
  ts: number | undefined,
  m: Record<string, unknown>,
  model: string | undefined,
  extra: Record<string, unknown> | undefined,
): MessageNode {
  const node: MessageNode = { nodeId, role: 'assistant', content: '' }
  const texts: string[] = []
  const thinking: string[] = []
  const out: ContentBlock[] = []
  let nonText = false
  for (const b of blocks) {
    if (!isRecord(b)) continue
    switch (b.type) {
      case 'text':
        if (typeof b.text === 'string') {
          texts.push(b.text)
          out.push({ type: 'text', text: b.text })
        }
        break
      case 'thinking': {
        const t = str(b.thinking) ?? str(b.text)
        if (t) thinking.push(t)
        if (str(b.signature)) node.thinkingSignature = b.signature as string
        break
      }
      case 'tool_use':
        ;(node.toolCalls ??= []).push(makeToolCall(str(b.id) ?? str(b.call_id) ?? `${nodeId}:tool${node.toolCalls?.length ?? 0}`, str(b.name) ?? 'unknown', b.input))
        break
      default:
        nonText = true
        out.push(otherBlock(b))
    }
  }
  node.content = texts.join('\n\n')
  if (nonText) node.blocks = out
  if (thinking.length) node.thinking = thinking.join('\n\n')
  if (ts !== undefined) node.createdAt = ts
  if (model) node.model = model
  const metrics = isRecord(m.metrics) ? m.metrics : undefined
  const usage = metrics && usageOf({
    inputTokens: metrics.inputTokens,
    outputTokens: metrics.outputTokens,
    cacheReadTokens: metrics.cacheReadTokens,
    cacheWriteTokens: metrics.cacheWriteTokens,
    cost: metrics.cost,
  })
  if (usage) node.usage = usage
  if (extra) node.metadata = extra
  return node
}

function pushUserNodes(
  session: Session,
  ids: NodeIds,
  msgId: string,
  role: 'user' | 'system',
  blocks: unknown[],
  ts: number | undefined,
  extra: Record<string, unknown> | undefined,
): void {
  const texts: string[] = []
  const out: ContentBlock[] = []
  const meta: Record<string, unknown> = { ...extra }
  let nonText = false
  for (const b of blocks) {
    if (!isRecord(b)) continue
    if (b.type === 'tool_result') {
      session.nodes.push(toolResultNode(ids, msgId, b, ts))
    } else if (b.type === 'text' && typeof b.text === 'string') {
      const u = unwrapUserInput(b.text)
      if (u.mode !== undefined) {
        meta.userInputMode = u.mode
        meta.rawText = b.text
      }
      texts.push(u.text)
      out.push({ type: 'text', text: u.text })
    } else {
      nonText = true
      out.push(otherBlock(b))
    }
  }
  if (!texts.length && !nonText) return
  const node: MessageNode = { nodeId: ids.take(msgId), role, content: texts.join('\n\n') }
  if (nonText) node.blocks = out
  if (ts !== undefined) node.createdAt = ts
  if (Object.keys(meta).length) node.metadata = meta
  session.nodes.push(node)
}

/**
 * Remove the CLI's `<user_input mode="...">…</user_input>` wrapper (fixtures/real/cline README
 * "Worth knowing": the stored first user message is wrapped; the request carries the raw prompt).
 */
export function unwrapUserInput(text: string): { text: string; mode?: string } {
  const m = /^\s*<user_input(?:\s+mode="([^"]*)")?\s*>([\s\S]*?)<\/user_input>\s*$/.exec(text)
  return m ? { text: m[2] ?? '', mode: m[1] ?? '' } : { text }
}

function toolResultNode(ids: NodeIds, msgId: string, b: Record<string, unknown>, ts: number | undefined): MessageNode {
  const callId = str(b.tool_use_id) ?? ''
  const r = toolResultContent(b.content)
  const node: MessageNode = { nodeId: ids.take(`${msgId}:${callId || 'result'}`), role: 'tool', content: r.text, toolCallId: callId }
  if (str(b.name)) node.toolName = b.name as string
  if (b.is_error === true || r.isError) node.isError = true
  if (r.blocks) node.blocks = r.blocks
  if (ts !== undefined) node.createdAt = ts
  if (r.metadata) node.metadata = r.metadata
  return node
}

/** What a tool_result's content says, as text plus error flag and per-item metadata. */
export interface ToolResultContent {
  text: string
  isError: boolean
  blocks?: ContentBlock[]
  metadata?: Record<string, unknown>
}

/**
 * Read a tool_result `content`: an array of per-item results `{query, result, success}` (one
 * logical call fanned out, seed 002 "Tool vocabulary"), the same as a JSON string (editor
 * results), a JSON object with `text` (spawn_agent), content blocks, or plain text (kept raw when
 * it is not JSON). Several items are joined with their query as a header (`> query`).
 */
export function toolResultContent(content: unknown): ToolResultContent {
  let value = content
  if (typeof content === 'string') {
    const t = content.trim()
    if (!(t.startsWith('{') || t.startsWith('['))) return { text: content, isError: false }
    const parsed = tryParseJson(t)
    if (parsed === undefined) return { text: content, isError: false }
    value = parsed
  }
  const items = Array.isArray(value) ? value : [value]
  if (items.length && items.every((x) => isRecord(x) && ('result' in x || 'query' in x || 'success' in x))) {
    const recs = items as Record<string, unknown>[]
    const body = (it: Record<string, unknown>) =>
      typeof it.result === 'string' ? it.result : it.result !== undefined ? JSON.stringify(it.result, null, 2) : (str(it.error) ?? '')
    const text = recs.length === 1 ? body(recs[0]!) : recs.map((it) => `> ${String(it.query ?? '')}\n${body(it)}`).join('\n\n')
    const results = recs.map((it) => ({ query: it.query, success: it.success }))
    return { text, isError: recs.some((it) => it.success === false), metadata: { results } }
  }
  if (isRecord(value) && typeof value.text === 'string') {
    const { text, ...rest } = value
    return { text, isError: false, metadata: Object.keys(rest).length ? { result: rest } : undefined }
  }
  if (isRecord(value) && typeof value.error === 'string' && Object.keys(value).length === 1) {
    return { text: value.error, isError: true }
  }
  if (Array.isArray(value) && value.every((x) => isRecord(x) && typeof x.type === 'string')) {
    const blocks = value.map((x) => (x.type === 'text' && typeof x.text === 'string' ? ({ type: 'text', text: x.text } as ContentBlock) : otherBlock(x)))
    const text = blocks.map((x) => (x.type === 'text' ? x.text : '')).filter(Boolean).join('\n\n')
    return blocks.some((x) => x.type !== 'text') ? { text, isError: false, blocks } : { text, isError: false }
  }
  return { text: typeof content === 'string' ? content : JSON.stringify(value, null, 2), isError: false }
}

/** Image, file, redacted thinking and unknown blocks (SDK and Anthropic shapes) as IR content blocks (nothing dropped). */
export function otherBlock(b: Record<string, unknown>): ContentBlock {
  if (b.type === 'image') {
    const src = isRecord(b.source) ? b.source : undefined
    const block: ContentBlock = { type: 'image' }
    const mediaType = str(b.mediaType) ?? str(b.media_type) ?? str(src?.media_type)
    const data = str(b.data) ?? str(src?.data)
    if (mediaType) block.mediaType = mediaType
    if (data) block.data = data
    return block
  }
  if (b.type === 'file') {
    const block: ContentBlock = { type: 'file' }
    if (str(b.path)) block.path = b.path as string
    if (typeof b.content === 'string') block.text = b.content
    return block
  }
  const text = str(b.text) ?? str(b.thinking)
  return { type: 'unknown', originalType: String(b.type ?? 'unknown'), ...(text ? { text } : {}), raw: b }
}

function textOf(blocks: unknown[]): string {
  return blocks.map((b) => (isRecord(b) && typeof b.text === 'string' ? b.text : '')).filter(Boolean).join('\n\n')
}
