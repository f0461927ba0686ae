/**
 * Prepared IR nodes → Cline SDK messages (`<id>.messages.json` `messages[]`).
 *
 * Shapes (seed 000 "SDK messages file": sdk/packages/shared/src/llms/messages.ts:19-165; seed 002
 * "messages[] entry shape"; fixtures/real/cline): `{id, role, content[], ts, modelInfo?{id,
 * provider}, metrics?{inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cost}}`; blocks
 * `text{text}`, `thinking{thinking, signature?}`, `redacted_thinking{data}`, `tool_use{id, name,
 * input}`, `tool_result{tool_use_id, name, content:[{query, result, success}], is_error?}` (results
 * are user messages; one user message holds the results of one assistant turn), `image{data,
 * mediaType}`, `file{path, content}`. The first user text is written as is: the CLI wraps prompts it
 * receives in `<user_input mode="act">`, but an unwrapped text resumes the same
 * (fixtures/real/cline/handwritten/06). An assistant message's blocks follow its parts' order
 * (`partOrder`, issue 14): [text, tool_use, text] stays so.
 */
import { randomBytes } from 'node:crypto'
import type { ContentBlock, MessageNode } from '../../../shared/ir'
import { familyOfModel } from '../../convert-shared/model-family'
import { assistantParts } from '../../convert-shared/part-order'

type Json = Record<string, unknown>

/** The Cline provider id for a model's family (`anthropic`, `openai`, `gemini`, else `openai-compatible`). */
export function providerForModel(model: string | undefined): string {
  switch (familyOfModel(model)) {
    case 'anthropic':
      return 'anthropic'
    case 'openai':
      return 'openai'
    case 'google':
      return 'gemini'
    default:
      return 'openai-compatible'
  }
}

function block(b: ContentBlock): Json | undefined {
  switch (b.type) {
    case 'text':
      return b.text === '' ? undefined : { type: 'text', text: b.text }
    case 'image':
      return b.data ? { type: 'image', data: b.data, mediaType: b.mediaType ?? 'image/png' } : undefined
    case 'file':
      return b.text === undefined ? undefined : { type: 'file', path: b.path ?? 'attachment', content: b.text }
    case 'unknown':
      return b.text ? { type: 'text', text: b.text } : undefined
  }
}

function contentBlocks(n: MessageNode): Json[] {
  if (n.blocks) return n.blocks.map(block).filter((x): x is Json => x !== undefined)
  return n.content === '' ? [] : [{ type: 'text', text: n.content }]
}

/**
 * The `query` Cline records with a result: the command, path, query or URL the call ran on
 * (`edit:<path>` for `editor`, as fixtures/real/cline); the tool name for other tools.
 */
export function queryOf(name: string, input: unknown): string {
  const a = (typeof input === 'object' && input !== null ? input : {}) as Json
  const firstOf = (v: unknown): unknown => (Array.isArray(v) ? v[0] : undefined)
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
  switch (name) {
    case 'run_commands':
      return str(firstOf(a.commands)) ?? name
    case 'read_files': {
      const f = firstOf(a.files)
      return (typeof f === 'object' && f !== null ? str((f as Json).path) : str(f)) ?? name
    }
    case 'search_codebase':
      return str(firstOf(a.queries)) ?? name
    case 'fetch_web_content': {
      const r = firstOf(a.requests)
      return (typeof r === 'object' && r !== null ? str((r as Json).url) : undefined) ?? name
    }
    case 'editor':
      return str(a.path) ? `edit:${a.path as string}` : name
    case 'spawn_agent':
      return str(a.task) ?? name
    default:
      return name
  }
}

/** Options of {@link toClineMessages}. */
export interface ClineMessageOptions {
  /** `modelInfo.provider` of assistant messages whose model is known. */
  providerOf(model: string): string
  /** ms since epoch for nodes without a time. */
  now: number
  /** Keep input and cache token counts (the session comes from Cline itself). */
  keepInputUsage: boolean
}

/** Convert the prepared nodes; consecutive tool results become one user message. */
export function* toClineMessages(nodes: readonly MessageNode[], options: ClineMessageOptions): Generator<Json> {
  const calls = new Map<string, { name: string; input: unknown }>()
  let results: Json[] = []
  let resultsAt = options.now
  let lastAt = options.now
  const id = () => `msg_${randomBytes(6).toString('hex')}`
  const flush = function* (): Generator<Json> {
    if (results.length === 0) return
    yield { id: id(), role: 'user', content: results, ts: resultsAt }
    results = []
  }
  for (const n of nodes) {
    const ts = n.createdAt ?? lastAt
    lastAt = ts
    if (n.role === 'tool') {
      const call = calls.get(n.toolCallId ?? '')
      const name = call?.name ?? n.toolName ?? 'tool'
      const r: Json = { type: 'tool_result', tool_use_id: n.toolCallId ?? '', name, content: [{ query: queryOf(name, call?.input), result: n.content, success: !n.isError }] }
      if (n.isError) r.is_error = true
      if (results.length === 0) resultsAt = ts
      results.push(r)
      continue
    }
    yield* flush()
    if (n.role === 'assistant') {
      // One block per part, in the parts' order (`assistantParts`): Cline keeps an assistant turn's
      // parts in the order the model streamed them (@cline/agents agent-runtime.ts `sequence`) and maps
      // stored blocks to parts one for one (@cline/core runtime/config/agent-message-codec.ts
      // `contentBlockToAgentPart`; cline/cline 21cb8d2525).
      const content: Json[] = []
      for (const p of assistantParts(n)) {
        if (p.kind === 'thinking') {
          if (n.thinkingSignature === undefined) continue
          content.push(n.metadata?.redactedThinking === true ? { type: 'redacted_thinking', data: n.thinkingSignature } : { type: 'thinking', thinking: n.thinking ?? '', signature: n.thinkingSignature })
        } else if (p.kind === 'block') {
          const b = block(p.block)
          if (b) content.push(b)
        } else {
          const c = p.call
          calls.set(c.id, { name: c.name, input: c.arguments })
          content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments ?? {} })
        }
      }
      const m: Json = { id: id(), role: 'assistant', content, ts }
      if (n.model) m.modelInfo = { id: n.model, provider: options.providerOf(n.model) }
      if (n.usage) {
        // Input counts only from Cline itself: Cline sizes a resumed session's context from the last
        // message's `metrics.inputTokens` (@cline/core "previousRequestInputTokens"), and another
        // agent's count (its own system prompt and tools) makes it compact the session at once.
        const u = options.keepInputUsage ? n.usage : { outputTokens: n.usage.outputTokens, cost: n.usage.cost }
        const metrics: Json = {}
        for (const [k, v] of Object.entries({ inputTokens: u.inputTokens, outputTokens: u.outputTokens, cacheReadTokens: u.cacheReadTokens, cacheWriteTokens: u.cacheWriteTokens, cost: u.cost })) {
          if (v !== undefined) metrics[k] = v
        }
        if (Object.keys(metrics).length) m.metrics = metrics
      }
      yield m
    } else {
      yield { id: id(), role: 'user', content: contentBlocks(n), ts }
    }
  }
  yield* flush()
}
