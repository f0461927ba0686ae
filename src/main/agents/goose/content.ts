/**
 * Goose messages (`Message` in block/goose crates/goose/src/conversation/message.rs @05132966) →
 * IR nodes. The same JSON is a `messages.content_json` cell (SQLite store) or one JSONL line's
 * `content` (legacy store): `{ id?, role: "user"|"assistant", created (s since epoch), content:
 * MessageContent[], metadata?: { userVisible, agentVisible } }`.
 *
 * `MessageContent` is tagged by `type` (camelCase): `text {text}`, `image {data, mimeType}`,
 * `toolRequest {id, toolCall: {status:"success", value:{name, arguments}} | {status:"error",
 * error}, thoughtSignature?}`, `toolResponse {id, toolResult: {status:"success", value:
 * CallToolResult {content[], isError?} | Content[] (legacy, tool_result_serde.rs
 * call_tool_result)} | {status:"error", error}}`, `toolConfirmationRequest {id, toolName,
 * arguments, prompt?}`, `actionRequired {data}`, `frontendToolRequest {id, toolCall}`, `thinking
 * {thinking, signature}`, `redactedThinking {data}`, `systemNotification {notificationType, msg}`;
 * `conversationCompacted` (pre-14.0) is dropped by Goose itself and kept here as a notice.
 * Tool results sit in the next `user` message and pair with their request by `id`.
 */
import type { ContentBlock, MessageNode, ToolCall, ToolCallDiff, ToolKind } from '../../../shared/ir'
import { toolKind } from '../../ir/toolkind'

type Json = Record<string, unknown>
export const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** ACP kind of a Goose tool. Names are `<extension>__<tool>` (`developer__shell`); the editor's kind depends on `command`. */
export function gooseKind(name: string, args: unknown): ToolKind {
  const tool = name.includes('__') ? name.slice(name.lastIndexOf('__') + 2) : name
  if (tool === 'shell') return 'execute'
  if (tool === 'text_editor') {
    const command = str(obj(args)?.command)
    return command === 'view' ? 'read' : 'edit'
  }
  if (tool === 'list_windows' || tool === 'screen_capture') return 'read'
  return toolKind(tool)
}

/** Files and edits named by `developer__text_editor` arguments (`path`, `old_str`/`new_str`, `file_text`). */
function editorDetails(name: string, args: unknown): Pick<ToolCall, 'locations' | 'diffs'> {
  const a = obj(args)
  const path = str(a?.path)
  if (!a || !path) return {}
  const out: Pick<ToolCall, 'locations' | 'diffs'> = { locations: [{ path }] }
  if (!name.endsWith('text_editor')) return out
  const diffs: ToolCallDiff[] = []
  if (a.command === 'str_replace' && typeof a.old_str === 'string' && typeof a.new_str === 'string') diffs.push({ path, oldText: a.old_str, newText: a.new_str })
  if (a.command === 'write' && typeof a.file_text === 'string') diffs.push({ path, newText: a.file_text })
  if (diffs.length) out.diffs = diffs
  return out
}

/** The text of MCP `Content[]` (`{type:"text", text}`; resources by their text; images as blocks). */
function contentText(items: unknown): { text: string; blocks: ContentBlock[] } {
  const texts: string[] = []
  const blocks: ContentBlock[] = []
  for (const c of Array.isArray(items) ? items : []) {
    const o = obj(c)
    if (!o) continue
    if (o.type === 'text' && typeof o.text === 'string') texts.push(o.text)
    else if (o.type === 'image') blocks.push({ type: 'image', ...(str(o.mimeType) && { mediaType: str(o.mimeType)! }), ...(str(o.data) && { data: str(o.data)! }) })
    else if (o.type === 'resource') {
      const r = obj(o.resource)
      if (typeof r?.text === 'string') texts.push(r.text)
    }
  }
  return { text: texts.join('\n'), blocks }
}

/** What one Goose message becomes: the message node (when it has anything besides tool results) and its tool result nodes. */
export interface GooseNodes {
  nodes: MessageNode[]
  /** Content items whose `type` this reader does not know (for a diagnostic). */
  unknownTypes: string[]
}

/**
 * One Goose `Message` → nodes with ids `<base>` (the message) and `<base>:result:<call id>`
 * (each `toolResponse`), chained after `parent`. `createdMs` is `created` × 1000.
 */
export function messageNodes(m: Json, base: string, parent: string | undefined): GooseNodes {
  const role = m.role === 'assistant' ? 'assistant' : 'user'
  const created = num(m.created)
  const at = created !== undefined ? { createdAt: created * 1000 } : {}
  const meta = obj(m.metadata)
  const hiddenFromUser = meta?.userVisible === false
  const texts: string[] = []
  const thinking: string[] = []
  const signatures: string[] = []
  const blocks: ContentBlock[] = []
  const toolCalls: ToolCall[] = []
  const results: MessageNode[] = []
  const notices: string[] = []
  const unknownTypes: string[] = []
  const metadata: Json = {}
  for (const item of Array.isArray(m.content) ? m.content : []) {
    const c = obj(item)
    if (!c) continue
    switch (c.type) {
      case 'text':
        if (typeof c.text === 'string') {
          texts.push(c.text)
          blocks.push({ type: 'text', text: c.text })
        }
        break
      case 'image':
        blocks.push({ type: 'image', ...(str(c.mimeType) && { mediaType: str(c.mimeType)! }), ...(str(c.data) && { data: str(c.data)! }) })
        break
      case 'thinking':
        if (typeof c.thinking === 'string') thinking.push(c.thinking)
        if (str(c.signature)) signatures.push(str(c.signature)!)
        break
      case 'redactedThinking':
        metadata.redactedThinking = [...((metadata.redactedThinking as unknown[]) ?? []), c.data]
        break
      case 'toolRequest':
      case 'frontendToolRequest': {
        const id = str(c.id)
        if (!id) break
        const tc = obj(c.toolCall)
        const value = obj(tc?.value)
        const name = str(value?.name) ?? '(invalid tool call)'
        const args = value?.arguments ?? {}
        const call: ToolCall = { id, name, kind: gooseKind(name, args), arguments: args, ...editorDetails(name, args) }
        if (tc?.status === 'error') {
          call.status = 'failed'
          call.isError = true
          call.metadata = { error: tc.error }
        }
        if (c.type === 'frontendToolRequest') call.metadata = { ...call.metadata, frontend: true }
        if (str(c.thoughtSignature)) signatures.push(str(c.thoughtSignature)!)
        toolCalls.push(call)
        break
      }
      case 'toolResponse': {
        const id = str(c.id)
        if (!id) break
        const tr = obj(c.toolResult)
        let text = ''
        let isError = false
        let rblocks: ContentBlock[] = []
        if (tr?.status === 'error') {
          isError = true
          text = str(tr.error) ?? ''
        } else {
          const v = tr?.value
          const r = contentText(Array.isArray(v) ? v : obj(v)?.content)
          text = r.text
          rblocks = r.blocks
          if (obj(v)?.isError === true) isError = true
        }
        results.push({ nodeId: `${base}:result:${id}`, role: 'tool', toolCallId: id, content: text, ...(isError && { isError: true }), ...(rblocks.length && { blocks: rblocks }), ...at })
        break
      }
      case 'toolConfirmationRequest':
        notices.push(`Confirmation requested for ${str(c.toolName) ?? 'a tool'}${str(c.prompt) ? `: ${str(c.prompt)}` : ''}`)
        break
      case 'actionRequired': {
        const d = obj(c.data)
        notices.push(`Action required: ${str(d?.actionType) ?? ''}${str(d?.toolName) ? ` for ${str(d?.toolName)}` : str(d?.message) ? ` - ${str(d?.message)}` : ''}`.trim())
        break
      }
      case 'systemNotification':
        notices.push(str(c.msg) ?? '')
        break
      case 'conversationCompacted':
        notices.push(str(c.msg) ?? 'Conversation compacted')
        break
      default:
        unknownTypes.push(str(c.type) ?? '(no type)')
    }
  }
  const nodes: MessageNode[] = []
  let prev = parent
  const chain = (n: MessageNode): void => {
    if (prev !== undefined) n.parentNodeId = prev
    nodes.push(n)
    prev = n.nodeId
  }
  const hasMessage = texts.length > 0 || thinking.length > 0 || toolCalls.length > 0 || blocks.some((b) => b.type !== 'text') || results.length === 0 && notices.length === 0
  if (hasMessage) {
    const node: MessageNode = { nodeId: base, role, content: texts.join('\n'), ...at }
    if (blocks.some((b) => b.type !== 'text')) node.blocks = blocks
    if (toolCalls.length) node.toolCalls = toolCalls
    if (thinking.length) node.thinking = thinking.join('\n\n')
    if (signatures.length) node.thinkingSignature = signatures.join('\n')
    if (hiddenFromUser) node.isMeta = true
    if (meta && (meta.userVisible === false || meta.agentVisible === false)) metadata.visibility = meta
    if (str(m.id)) metadata.gooseId = str(m.id)
    if (Object.keys(metadata).length) node.metadata = metadata
    chain(node)
  }
  notices.forEach((text, i) => chain({ nodeId: `${base}:notice:${i}`, role: 'system', event: 'notice', content: text, ...at }))
  for (const r of results) chain(r)
  return { nodes, unknownTypes }
}
