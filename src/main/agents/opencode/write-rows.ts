/**
 * Prepared IR nodes → OpenCode-family `message` and `part` rows (OpenCode 1.18.33, Kilo Code CLI
 * 7.7.7). Shapes (realstores/README.md "OpenCode 1.18.33 and Kilo Code CLI 7.7.7"; the real rows in
 * fixtures/real/{opencode,kilo}; packages/opencode/src/session/message-v2.ts): the row holds the
 * ids and times in columns and the rest as JSON `data`:
 * - user `{role, time{created}, agent, model?{providerID, modelID}}` with `text` parts
 *   `{type, text}` and images as `file` parts `{type, mime, filename, url: data:...}`;
 * - assistant `{parentID (the user message it answers), role, mode, agent, path{cwd, root}, cost,
 *   tokens{input, output, reasoning, cache{read, write}}, modelID, providerID, time{created,
 *   completed}, finish}` with a `text` part and one `tool` part per call `{callID, tool,
 *   state{status:"completed", input, output, metadata, title, time{start, end}}}` (a failed call:
 *   `state{status:"error", input, error, time}`); the call's result lives in its part, so the tool
 *   nodes that follow an assistant node fill its parts. The parts follow the node's parts' order
 *   (`partOrder`, issue 14: [text, tool, text] stays so; anomalyco/opencode
 *   packages/opencode/src/session/message-v2.ts at 007a9409: parts are read back ordered by id and
 *   replayed in that order).
 * Ids sort by time (`Identifier.ascending`): the CLI orders messages and parts by id and decides
 * whether the newest user message has been answered by comparing ids, so the ids are made in row
 * order by the caller (`write.ts`: at the time of writing, below any id the CLI makes afterwards);
 * the rows' times come from the nodes, never going back and never past the time of writing.
 */
import type { MessageNode, ToolCall, Usage } from '../../../shared/ir'
import { familyOfModel } from '../../convert-shared/model-family'
import { assistantTextRuns } from '../../convert-shared/part-order'

type Json = Record<string, unknown>

/** One row of `message` or `part` (`data` is JSON text). */
export interface FamilyRow {
  id: string
  session_id: string
  message_id?: string
  time_created: number
  time_updated: number
  data: string
}

/** What the rows are built with. */
export interface RowContext {
  sessionId: string
  /** Primary agent name of the target (`build` in OpenCode, `code` in Kilo). */
  agentName: string
  cwd: string
  /** `path.root`: the project's top folder. */
  root: string
  /** The model user messages name (the home's configured one), else none. */
  userModel?: { providerID: string; modelID: string }
  /** The session's model, for assistant messages without their own. */
  sessionModel?: string
  /** Keep input and cache token counts (the session comes from this agent itself). */
  keepInputUsage: boolean
  /** A fresh id `<prefix>_...`, greater than every id made before it. */
  newId(prefix: 'msg' | 'prt'): string
  /** ms since epoch: the time of writing, which bounds every time. */
  now: number
  /** ms since epoch for the first node when it has no time (the session's start). */
  start: number
}

/** The OpenCode provider id for a model name's family (`anthropic`, `openai`, `google`), else `unknown`. */
export function providerIdOf(model: string | undefined): string {
  const f = familyOfModel(model)
  return f === 'anthropic' || f === 'openai' || f === 'google' ? f : 'unknown'
}

function tokensOf(u: Usage | undefined, keepInput: boolean): Json {
  const input = keepInput ? (u?.inputTokens ?? 0) : 0
  const read = keepInput ? (u?.cacheReadTokens ?? 0) : 0
  const write = keepInput ? (u?.cacheWriteTokens ?? 0) : 0
  const output = u?.outputTokens ?? 0
  const reasoning = u?.thinkingTokens ?? 0
  return { total: input + read + write + output + reasoning, input, output, reasoning, cache: { write, read } }
}

/** A short title for a tool part (what the CLI shows): description, path, pattern, URL or command. */
function toolTitle(name: string, input: unknown): string {
  const a = (typeof input === 'object' && input !== null ? input : {}) as Json
  for (const k of ['description', 'filePath', 'pattern', 'url', 'command']) {
    const v = a[k]
    if (typeof v === 'string' && v.trim() !== '') return v.length > 120 ? `${v.slice(0, 117)}...` : v
  }
  return name
}

/** Build the rows of `nodes` (a prepared session: user, assistant and the tool results of each call). */
export function familyRows(nodes: readonly MessageNode[], ctx: RowContext): { messages: FamilyRow[]; parts: FamilyRow[] } {
  const messages: FamilyRow[] = []
  const parts: FamilyRow[] = []
  const results = new Map<string, MessageNode>()
  for (const n of nodes) if (n.role === 'tool' && n.toolCallId) results.set(n.toolCallId, n)
  let clock = -Infinity
  const at = (t: number | undefined): number => (clock = Math.min(ctx.now, Math.max(clock, t ?? (clock === -Infinity ? ctx.start : clock))))
  let parentID = ''
  const addMessage = (ms: number, data: Json): string => {
    const id = ctx.newId('msg')
    messages.push({ id, session_id: ctx.sessionId, time_created: ms, time_updated: ms, data: JSON.stringify(data) })
    return id
  }
  const addPart = (messageId: string, ms: number, data: Json): void => {
    parts.push({ id: ctx.newId('prt'), message_id: messageId, session_id: ctx.sessionId, time_created: ms, time_updated: ms, data: JSON.stringify(data) })
  }
  for (const n of nodes) {
    if (n.role === 'user') {
      const ms = at(n.createdAt)
      const data: Json = { role: 'user', time: { created: ms }, agent: ctx.agentName }
      if (ctx.userModel) data.model = ctx.userModel
      const id = addMessage(ms, data)
      parentID = id
      const blocks = n.blocks ?? [{ type: 'text' as const, text: n.content }]
      let k = 0
      for (const b of blocks) {
        if (b.type === 'text' && b.text !== '') addPart(id, ms, { type: 'text', text: b.text })
        else if (b.type === 'image' && b.data) {
          const mime = b.mediaType ?? 'image/png'
          addPart(id, ms, { type: 'file', mime, filename: `image-${++k}.${mime.split('/')[1] ?? 'png'}`, url: `data:${mime};base64,${b.data}` })
        }
      }
    } else if (n.role === 'assistant') {
      const ms = at(n.createdAt)
      const model = n.model ?? ctx.sessionModel ?? 'unknown'
      const calls = n.toolCalls ?? []
      let completed = ms
      const toolParts = new Map<ToolCall, Json>()
      for (const c of calls) {
        const r = results.get(c.id)
        const end = Math.max(ms, Math.min(ctx.now, r?.createdAt ?? ms))
        completed = Math.max(completed, end)
        const input = c.arguments ?? {}
        const time = { start: ms, end }
        const state: Json = r?.isError
          ? { status: 'error', input, error: r.content, time }
          : { status: 'completed', input, output: r?.content ?? '', metadata: c.name === 'bash' ? { output: r?.content ?? '', truncated: false } : { truncated: false }, title: toolTitle(c.name, input), time }
        toolParts.set(c, { type: 'tool', callID: c.id, tool: c.name, state })
      }
      const data: Json = {
        parentID,
        role: 'assistant',
        mode: ctx.agentName,
        agent: ctx.agentName,
        path: { cwd: ctx.cwd, root: ctx.root },
        cost: n.usage?.cost ?? 0,
        tokens: tokensOf(n.usage, ctx.keepInputUsage),
        modelID: model,
        providerID: providerIdOf(model),
        time: { created: ms, completed },
        finish: calls.length ? 'tool-calls' : 'stop',
      }
      const id = addMessage(ms, data)
      // Parts in the node's order (`assistantTextRuns`): the CLI replays a message's parts ordered by
      // id (message-v2.ts `hydrate`: `orderBy(message_id, id)`; `toModelMessages` keeps that order).
      for (const p of assistantTextRuns(n)) {
        if (p.kind === 'thinking') {
          if (n.thinking && n.thinkingSignature !== undefined) {
            addPart(id, ms, { type: 'reasoning', text: n.thinking, metadata: { [providerIdOf(model)]: { signature: n.thinkingSignature } }, time: { start: ms, end: ms } })
          }
        } else if (p.kind === 'text') addPart(id, ms, { type: 'text', text: p.text, time: { start: ms, end: ms } })
        else addPart(id, ms, toolParts.get(p.call)!)
      }
      at(completed)
    }
  }
  return { messages, parts }
}
