/**
 * A prepared session (src/main/convert/prepare.ts) as Qwen Code 0.15.10 `ChatRecord` lines
 * (packages/core/src/services/chatRecordingService.ts in @qwen-code/qwen-code 0.15.10 `cli.js`;
 * shapes as the real CLI wrote them in fixtures/real/qwen-code):
 * - every record: `{uuid, parentUuid, sessionId, timestamp (ISO), type, cwd, version, gitBranch?}`,
 *   `parentUuid` the record before (`null` for the first): one linear chain;
 * - user: `message: {role: "user", parts}`;
 * - assistant: `message: {role: "model", parts}` with text parts and one `functionCall{id, name,
 *   args}` part per call, in the node's part order (`partOrder`, `../../convert-shared/part-order.ts`); `model`;
 *   `usageMetadata{candidatesTokenCount, thoughtsTokenCount, promptTokenCount,
 *   cachedContentTokenCount, totalTokenCount}` from what the node has;
 * - tool result: one `tool_result` record per call, `message: {role: "user", parts:
 *   [{functionResponse{id, name, response: {output} | {error}}}, images...]}` and
 *   `toolCallResult{callId, status: "success" | "error", resultDisplay}` (the CLI's own record;
 *   an error response is `response.error`, as the CLI's `invalid_tool_params` result);
 * - the title: `system` `custom_title` with `systemPayload{customTitle, titleSource: "manual"}`.
 * A session without any turn and without a title gives no record (an empty file), which Qwen Code
 * does not resume ("No saved session found"); nothing is made up to fill it.
 * Where it differs from Gemini CLI's writer (src/main/agents/gemini/write-records.ts): results are
 * records of their own (Gemini nests them in `toolCalls[].result` of the model message), the model
 * role is `model` inside `message` (Gemini: `type: "gemini"` with `content`), usage is the API's
 * `usageMetadata` (Gemini: `tokens`), and text parts after the first of a message start with a
 * blank line (the same rule: the reader joins parts as they are).
 */
import type { ContentBlock, MessageNode, Session } from '../../../shared/ir'
import { assistantParts } from '../../convert-shared/part-order'
import { partsOfBlocks } from '../gemini/write-records'

type Json = Record<string, unknown>

/** The Qwen Code version whose record shape is written (`version` of every record). */
export const QWEN_FORMAT_VERSION = '0.15.10'

/** Fields every record of the file repeats. */
export interface RecordEnvelope {
  sessionId: string
  cwd: string
  version: string
  gitBranch?: string
}

/** Parts of a message from blocks, text after earlier text starting with a blank line. */
function partsOf(blocks: ContentBlock[], state: { text: boolean }): Json[] {
  const out: Json[] = []
  for (const b of blocks) {
    const isText = b.type === 'text' || b.type === 'unknown'
    const [part] = partsOfBlocks([b])
    if (!part) continue
    if (isText && state.text) part.text = `\n\n${part.text as string}`
    if (isText) state.text = true
    out.push(part)
  }
  return out
}

/** IR usage → `usageMetadata` (only the counts the node has; undefined without any). */
export function usageMetadataOf(n: MessageNode): Json | undefined {
  const u = n.usage
  if (!u) return undefined
  const out: Json = {}
  const cached = u.cacheReadTokens
  const prompt = u.inputTokens === undefined && cached === undefined ? undefined : (u.inputTokens ?? 0) + (u.cacheWriteTokens ?? 0) + (cached ?? 0)
  if (prompt !== undefined) out.promptTokenCount = prompt
  if (u.outputTokens !== undefined) out.candidatesTokenCount = u.outputTokens
  if (u.thinkingTokens !== undefined) out.thoughtsTokenCount = u.thinkingTokens
  if (cached !== undefined) out.cachedContentTokenCount = cached
  if (!Object.keys(out).length) return undefined
  out.totalTokenCount = (prompt ?? 0) + (u.outputTokens ?? 0) + (u.thinkingTokens ?? 0)
  return out
}

/** The model message of an assistant node: text and `functionCall` parts in the node's order. */
function modelParts(n: MessageNode): Json[] {
  const state = { text: false }
  const out: Json[] = []
  // Thinking is not written: these targets take none (provider family `any`, convert/thinking.ts).
  for (const p of assistantParts(n)) {
    if (p.kind === 'thinking') continue
    if (p.kind === 'call') out.push({ functionCall: { id: p.call.id, name: p.call.name, args: p.call.arguments ?? {} } })
    else out.push(...partsOf([p.block], state))
  }
  return out
}

/** The parts of a user node. */
function userParts(n: MessageNode): Json[] {
  return partsOf(n.blocks ?? (n.content === '' ? [] : [{ type: 'text', text: n.content }]), { text: false })
}

/**
 * The records of `session`, in file order (generated lazily): one per user, assistant and tool
 * node, then the title. `newId` names each record (a UUID, as the CLI's); `start` is the time of a
 * node without one (ms since epoch).
 */
export function* chatRecords(session: Session, env: RecordEnvelope, newId: () => string, start: number): Generator<Json> {
  let parentUuid: string | null = null
  let last = start
  const callNames = new Map<string, string>()
  const record = (at: number, fields: Json): Json => {
    const r: Json = { uuid: newId(), parentUuid, sessionId: env.sessionId, timestamp: new Date(at).toISOString(), ...fields, cwd: env.cwd, version: env.version }
    if (env.gitBranch !== undefined) r.gitBranch = env.gitBranch
    parentUuid = r.uuid as string
    return r
  }
  for (const n of session.nodes) {
    last = n.createdAt ?? last
    if (n.role === 'user') {
      yield record(last, { type: 'user', message: { role: 'user', parts: userParts(n) } })
    } else if (n.role === 'assistant') {
      for (const c of n.toolCalls ?? []) callNames.set(c.id, c.name)
      const fields: Json = { type: 'assistant' }
      const model = n.model ?? session.model
      if (model !== undefined) fields.model = model
      fields.message = { role: 'model', parts: modelParts(n) }
      const usage = usageMetadataOf(n)
      if (usage) fields.usageMetadata = usage
      yield record(last, fields)
    } else if (n.role === 'tool' && n.toolCallId !== undefined) {
      const name = callNames.get(n.toolCallId) ?? n.toolName ?? 'unknown'
      const response = n.isError ? { error: n.content } : { output: n.content }
      const images = partsOfBlocks((n.blocks ?? []).filter((b) => b.type === 'image'))
      yield record(last, {
        type: 'tool_result',
        message: { role: 'user', parts: [{ functionResponse: { id: n.toolCallId, name, response } }, ...images] },
        toolCallResult: { callId: n.toolCallId, status: n.isError ? 'error' : 'success', resultDisplay: n.content },
      })
    }
  }
  if (session.title) yield record(last, { type: 'system', subtype: 'custom_title', systemPayload: { customTitle: session.title, titleSource: 'manual' } })
}
