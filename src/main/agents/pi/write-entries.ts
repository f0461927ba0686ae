/**
 * A prepared session (src/main/convert/prepare.ts) as Pi 0.73.1 session entries, one JSON object per
 * line after the header (@mariozechner/pi-coding-agent 0.73.1 `dist/core/session-manager.js`
 * `SessionMessageEntry`, pi-ai `dist/types.d.ts` `UserMessage`, `AssistantMessage`,
 * `ToolResultMessage`; shapes as the real CLI wrote them in fixtures/real/pi):
 * - every entry: `{type: "message", id (8 hex, unique in the file, as Pi's `generateId`), parentId
 *   (the entry before; `null` for the first), timestamp (ISO), message}`;
 * - user: `{role: "user", content: [{type: "text", text} | {type: "image", data, mimeType}],
 *   timestamp (ms)}`;
 * - assistant: `{role: "assistant", content: [{type: "text", text} | {type: "toolCall", id, name,
 *   arguments}] (in the node's part order, convert-shared/part-order.ts), api, provider, model, usage{input,
 *   output, cacheRead, cacheWrite, totalTokens, cost{input, output, cacheRead, cacheWrite, total}},
 *   stopReason: "toolUse" | "stop", timestamp}`. `usage` is always written (Pi sums it for its
 *   footer); counts the node lacks are 0; `cost.total` is the node's cost in US dollars (0, Pi's "no
 *   price", without one; the per-kind split is unknown and left 0). `provider` and `api`
 *   are `sepia-import`: no configured provider has that name, so Pi treats the messages as another
 *   model's (plain text, call ids normalized; pi-ai `transform-messages.js`) and, resuming, falls
 *   back from restoring the model to its default (sdk.js "Could not restore model"). `stopReason`
 *   is never "error"/"aborted": Pi leaves such messages out of the request;
 * - tool result: `{role: "toolResult", toolCallId, toolName, content: [text, images...], isError,
 *   timestamp}`;
 * - the title: `{type: "session_info", ..., name}` last.
 */
import type { ContentBlock, MessageNode, Session } from '../../../shared/ir'
import { assistantParts } from '../../convert-shared/part-order'

type Json = Record<string, unknown>

/** The session header `version` Pi 0.73.1 writes (`CURRENT_SESSION_VERSION`). */
export const PI_SESSION_VERSION = 3

/** The provider and api name written on assistant messages (see the module comment). */
export const PI_IMPORT_PROVIDER = 'sepia-import'

/** A text or image block in Pi's shape; undefined for blocks Pi has no place for. */
function piBlock(b: ContentBlock): Json | undefined {
  if (b.type === 'text' || b.type === 'unknown') return b.text ? { type: 'text', text: b.text } : undefined
  if (b.type === 'image' && b.data) return { type: 'image', data: b.data, mimeType: b.mediaType ?? 'image/png' }
  return undefined
}

const blocksOf = (n: MessageNode): Json[] => (n.blocks ? n.blocks.map(piBlock).filter((x): x is Json => x !== undefined) : n.content === '' ? [] : [{ type: 'text', text: n.content }])

/** IR usage → Pi's `usage` (every field; 0 where the node has no count; the cost as `cost.total`). */
function usageOf(n: MessageNode): Json {
  const u = n.usage ?? {}
  const input = u.inputTokens ?? 0
  const output = (u.outputTokens ?? 0) + (u.thinkingTokens ?? 0)
  const cacheRead = u.cacheReadTokens ?? 0
  const cacheWrite = u.cacheWriteTokens ?? 0
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: u.cost ?? 0 } }
}

/** The content of an assistant node: text and `toolCall` blocks in the node's order. */
function assistantContent(n: MessageNode): Json[] {
  const out: Json[] = []
  // Thinking is not written: these targets take none (provider family `any`, convert/thinking.ts).
  for (const p of assistantParts(n)) {
    if (p.kind === 'thinking') continue
    if (p.kind === 'call') out.push({ type: 'toolCall', id: p.call.id, name: p.call.name, arguments: p.call.arguments ?? {} })
    else {
      const b = piBlock(p.block)
      if (b) out.push(b)
    }
  }
  return out
}

/**
 * The entries of `session`, in file order (generated lazily): one per user, assistant and tool
 * node, then the title. `newId` gives the entry ids (its first 8 characters, as Pi's); `start` is
 * the time of a node without one (ms since epoch).
 */
export function* sessionEntries(session: Session, newId: () => string, start: number): Generator<Json> {
  const used = new Set<string>()
  const entryId = (): string => {
    for (let k = 0; k < 100; k++) {
      const id = newId().slice(0, 8)
      if (!used.has(id)) return (used.add(id), id)
    }
    const id = newId()
    used.add(id)
    return id
  }
  let parentId: string | null = null
  let last = start
  const callNames = new Map<string, string>()
  const entry = (at: number, fields: Json): Json => {
    const e: Json = { type: 'message', id: entryId(), parentId, timestamp: new Date(at).toISOString(), ...fields }
    parentId = e.id as string
    return e
  }
  for (const n of session.nodes) {
    last = n.createdAt ?? last
    if (n.role === 'user') {
      yield entry(last, { message: { role: 'user', content: blocksOf(n), timestamp: last } })
    } else if (n.role === 'assistant') {
      for (const c of n.toolCalls ?? []) callNames.set(c.id, c.name)
      yield entry(last, {
        message: {
          role: 'assistant',
          content: assistantContent(n),
          api: PI_IMPORT_PROVIDER,
          provider: PI_IMPORT_PROVIDER,
          model: n.model ?? session.model ?? 'unknown',
          usage: usageOf(n),
          stopReason: n.toolCalls?.length ? 'toolUse' : 'stop',
          timestamp: last,
        },
      })
    } else if (n.role === 'tool' && n.toolCallId !== undefined) {
      const images = (n.blocks ?? []).filter((b) => b.type === 'image').map(piBlock).filter((x): x is Json => x !== undefined)
      yield entry(last, {
        message: {
          role: 'toolResult',
          toolCallId: n.toolCallId,
          toolName: callNames.get(n.toolCallId) ?? n.toolName ?? 'unknown',
          content: [{ type: 'text', text: n.content }, ...images],
          isError: n.isError === true,
          timestamp: last,
        },
      })
    }
  }
  if (session.title) yield entry(last, { type: 'session_info', name: session.title })
}
