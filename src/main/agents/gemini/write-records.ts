/**
 * A prepared session (src/main/convert/prepare.ts) as Gemini CLI 0.61 chats-file message records,
 * one JSON object per line. Shapes (fixtures/real/gemini, realstores/README.md "Gemini CLI
 * 0.61.0"; @google/gemini-cli 0.61.0 packages/core/src/services/chatRecordingTypes.ts
 * `MessageRecord`, utils/sessionUtils.ts `convertSessionToClientHistory`):
 * - user: `{id, timestamp, type:"user", content: Part[]}`;
 * - assistant: `{id, timestamp, type:"gemini", content: string, thoughts: [], tokens?, model?,
 *   toolCalls?: [{id, name, args, result: [{functionResponse:{id, name, response:{output}}}],
 *   status:"success"|"error", timestamp}]}`. On resume the CLI sends `content` (+ `thoughts` as
 *   thought parts) + one `functionCall` per `toolCalls[]` as the model turn, then every `result` as
 *   one user turn of `functionResponse` parts. An error result is `response:{error}` (the CLI's
 *   own error responses). The CLI also writes each result again as a `type:"user"` line of
 *   `functionResponse` parts and sends both on resume (README "Worth knowing"); the writer records
 *   each result once, in `toolCalls[].result` (hand-written probe 01: listed and resumed);
 * - signed thinking (Google only, `thinking.ts`): `content` becomes parts: `{text, thought:true}`,
 *   the text, then the `functionCall`s (when content holds a thought or call part the CLI sends
 *   the parts as they are and adds no calls from `toolCalls`), the `thoughtSignature` on the first
 *   `functionCall` part (where Gemini returns it, README "The scenarios"), else on the last part;
 * - an assistant node keeps its parts' order (`partOrder`, issue 14). Gemini CLI records one `gemini`
 *   record per model response, `content` (its text) then `toolCalls` (core/geminiChat.ts records
 *   `content: responseText`; services/chatRecordingService.ts `recordToolCalls` adds the calls to
 *   that record; google-gemini/gemini-cli 5411f113ca), so a record cannot put text after its calls:
 *   [text, call, text] becomes {text, [call]} then {text} (`splitAssistantTurns`), which the CLI
 *   replays as model [text, call], user [result], model [text];
 * - images and text files: `inlineData{mimeType, data}` parts; text parts after the first start
 *   with a blank line, so the joined text is the node's `content` (the CLI joins parts as they are).
 */
import type { ContentBlock, MessageNode, Session } from '../../../shared/ir'
import { splitAssistantTurns } from '../../convert-shared/part-order'

type Json = Record<string, unknown>

/** One part per block: text (separated by a blank line from earlier text), inline images and text files. */
export function partsOfBlocks(blocks: ContentBlock[]): Json[] {
  const out: Json[] = []
  let text = false
  for (const b of blocks) {
    if (b.type === 'text' || b.type === 'unknown') {
      const t = b.text ?? ''
      if (t === '') continue
      out.push({ text: text ? `\n\n${t}` : t })
      text = true
    } else if (b.type === 'image' && b.data) {
      out.push({ inlineData: { mimeType: b.mediaType ?? 'image/png', data: b.data } })
    } else if (b.type === 'file' && b.text !== undefined) {
      const mimeType = b.mediaType?.startsWith('text/') ? b.mediaType : 'text/plain'
      out.push({ inlineData: { mimeType, data: Buffer.from(b.text, 'utf8').toString('base64') } })
    }
  }
  return out
}

/** A node's content as parts: its blocks, else one text part. */
function parts(n: MessageNode): Json[] {
  if (n.blocks) return partsOfBlocks(n.blocks)
  return n.content === '' ? [] : [{ text: n.content }]
}

/** IR usage → the CLI's `tokens` (every field set: the CLI adds them up on resume); undefined without token counts. */
export function tokensOf(n: MessageNode): Json | undefined {
  const u = n.usage
  if (!u || [u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens, u.thinkingTokens].every((x) => x === undefined)) return undefined
  const cached = u.cacheReadTokens ?? 0
  const input = (u.inputTokens ?? 0) + (u.cacheWriteTokens ?? 0) + cached
  const output = u.outputTokens ?? 0
  const thoughts = u.thinkingTokens ?? 0
  return { input, output, cached, thoughts, tool: 0, total: input + output + thoughts }
}

/** The `result` of one call: its `functionResponse`, then image parts next to it. */
function resultParts(callId: string, name: string, r: MessageNode | undefined): Json[] {
  const text = r?.content ?? ''
  const response = r?.isError ? { error: text } : { output: text }
  const images = (r?.blocks ?? []).filter((b) => b.type === 'image')
  return [{ functionResponse: { id: callId, name, response } }, ...partsOfBlocks(images)]
}

/** An assistant message, with the results of its calls (`results`, in call order). */
function assistantRecord(n: MessageNode, results: MessageNode[], base: Json, model: string | undefined): Json {
  const rec: Json = { ...base, type: 'gemini' }
  const calls = n.toolCalls ?? []
  if (n.thinkingSignature !== undefined) {
    const p: Json[] = [{ text: n.thinking ?? '', thought: true }, ...parts(n)]
    const fc: Json[] = calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.arguments ?? {} } }))
    if (fc[0]) fc[0].thoughtSignature = n.thinkingSignature
    else p[p.length - 1]!.thoughtSignature = n.thinkingSignature
    rec.content = [...p, ...fc]
  } else {
    rec.content = n.blocks ? parts(n) : n.content
  }
  rec.thoughts = []
  const tokens = tokensOf(n)
  if (tokens) rec.tokens = tokens
  if (model !== undefined) rec.model = model
  if (calls.length) {
    rec.toolCalls = calls.map((c) => {
      const r = results.find((x) => x.toolCallId === c.id)
      const at = r?.createdAt ?? n.createdAt
      const tc: Json = { id: c.id, name: c.name, args: c.arguments ?? {}, result: resultParts(c.id, c.name, r), status: r?.isError ? 'error' : 'success' }
      if (at !== undefined) tc.timestamp = new Date(at).toISOString()
      return tc
    })
  }
  return rec
}

/**
 * The message records of `session`, in order (generated lazily). `newId` names each message;
 * `start` is the time of a message without one (ms since epoch).
 */
export function* messageRecords(session: Session, newId: () => string, start: number): Generator<Json> {
  // One record per model turn: text after a call starts the next record (see the module comment).
  const nodes = splitAssistantTurns(session.nodes)
  let last = start
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!
    last = n.createdAt ?? last
    const base: Json = { id: newId(), timestamp: new Date(last).toISOString() }
    if (n.role === 'assistant') {
      const results: MessageNode[] = []
      while (results.length < (n.toolCalls?.length ?? 0) && nodes[i + 1]?.role === 'tool') results.push(nodes[++i]!)
      yield assistantRecord(n, results, base, n.model ?? session.model)
    } else if (n.role === 'user') {
      yield { ...base, type: 'user', content: parts(n) }
    }
    // A tool node never stands alone: prepare.ts puts each right after its call.
  }
}

/** True when Gemini CLI leaves this user text out on resume (`isIgnoredUserContent`: `/`, `?`, `<session_context>`, `<hook_context>`). */
export function skippedOnResume(text: string): boolean {
  const t = text.trim()
  return t.startsWith('/') || t.startsWith('?') || t.startsWith('<session_context>') || t.startsWith('<hook_context>')
}
