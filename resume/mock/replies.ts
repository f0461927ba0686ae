/**
 * Sending a scripted reply in each API's wire format (streaming SSE and plain JSON), ported from
 * `realstores/mock-llm.mjs` (sections Anthropic, OpenAI Responses, Chat Completions, Gemini):
 * Anthropic thinking blocks get a `mocksig_...` signature; Responses tool calls on a `custom` tool
 * become `custom_tool_call`, a namespaced tool gets `namespace`, thinking is a `reasoning` item;
 * Chat Completions thinking is `reasoning_content`; Gemini thinking is a `{text, thought:true}` part
 * and the first function call carries a `thoughtSignature`.
 */
import { randomBytes } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { Json, Normalized } from './normalize'
import { type Block, rid } from './select'

const estTokens = (s: unknown): number => Math.max(1, Math.ceil(String(s || '').length / 4))

function chunks(s: unknown, n = 24): string[] {
  const str = String(s ?? '')
  const out: string[] = []
  for (let i = 0; i < str.length; i += n) out.push(str.slice(i, i + n))
  return out.length ? out : ['']
}

/** A JSON response. */
export function sendJson(res: ServerResponse, code: number, obj: unknown, extra: Record<string, string> = {}): void {
  const s = JSON.stringify(obj)
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(s), ...extra })
  res.end(s)
}

function sseHeaders(res: ServerResponse, extra: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...extra })
}

// ---------- Anthropic ----------
function anthropicContent(blocks: Block[]): Json[] {
  return blocks
    .filter((b) => !(b.type === 'text' && b.text === '' && blocks.length > 1))
    .map((b) => {
      if (b.type === 'text') return { type: 'text', text: b.text }
      if (b.type === 'thinking') return { type: 'thinking', thinking: b.thinking, signature: b.signature || 'mocksig_' + randomBytes(24).toString('base64') }
      if (b.type === 'redacted_thinking') return { type: 'redacted_thinking', data: b.data || 'mock-redacted' }
      if (b.type === 'tool_use') return { type: 'tool_use', id: String(b.id).replace(/^call_/, 'toolu_'), name: b.name, input: b.input ?? {} }
      return b as Json
    })
}

/** Anthropic Messages reply. */
export function anthropicHandle(res: ServerResponse, body: Json, blocks: Block[]): void {
  const content = anthropicContent(blocks)
  const stop = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'
  const model = body.model || 'mock-model'
  const inTok = estTokens(JSON.stringify(body.messages || []) + JSON.stringify(body.system || ''))
  const outTok = estTokens(JSON.stringify(content))
  const usage = { input_tokens: inTok, output_tokens: outTok, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
  const id = rid('msg_mock_')
  if (!body.stream) return sendJson(res, 200, { id, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage }, { 'request-id': rid('req_mock_') })
  sseHeaders(res, { 'request-id': rid('req_mock_') })
  const ev = (type: string, data: Json): void => void res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
  ev('message_start', { message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } })
  content.forEach((b, index) => {
    if (b.type === 'text') {
      ev('content_block_start', { index, content_block: { type: 'text', text: '' } })
      for (const c of chunks(b.text)) ev('content_block_delta', { index, delta: { type: 'text_delta', text: c } })
    } else if (b.type === 'thinking') {
      ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } })
      for (const c of chunks(b.thinking)) ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: c } })
      ev('content_block_delta', { index, delta: { type: 'signature_delta', signature: b.signature } })
    } else if (b.type === 'redacted_thinking') {
      ev('content_block_start', { index, content_block: b })
    } else if (b.type === 'tool_use') {
      ev('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } })
      for (const c of chunks(JSON.stringify(b.input), 40)) ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: c } })
    }
    ev('content_block_stop', { index })
  })
  ev('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: outTok } })
  ev('message_stop', {})
  res.end()
}

// ---------- OpenAI Responses ----------
function responsesItems(blocks: Block[], info: Normalized): Json[] {
  const items: Json[] = []
  for (const b of blocks) {
    if (b.type === 'thinking') {
      items.push({ type: 'reasoning', id: rid('rs_mock_'), summary: [{ type: 'summary_text', text: b.thinking }], content: null, encrypted_content: b.encrypted_content ?? null })
    } else if (b.type === 'text') {
      if (b.text === '' && blocks.length > 1) continue
      items.push({ type: 'message', id: rid('msg_mock_'), status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: b.text, annotations: [] }] })
    } else if (b.type === 'tool_use') {
      const tool = info.tools.find((t) => t.name === b.name)
      if ((tool && tool.type === 'custom') || b.custom) {
        items.push({ type: 'custom_tool_call', id: rid('ctc_mock_'), status: 'completed', call_id: b.id, name: b.name, input: typeof b.input === 'string' ? b.input : JSON.stringify(b.input) })
      } else {
        const fc: Json = { type: 'function_call', id: rid('fc_mock_'), status: 'completed', call_id: b.id, name: b.name, arguments: typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? {}) }
        const ns = b.namespace ?? tool?.namespace
        if (ns) fc.namespace = ns
        items.push(fc)
      }
    }
  }
  return items
}

function responsesObject(body: Json, items: Json[], status: string, id?: string): Json {
  const inTok = estTokens(JSON.stringify(body.input || ''))
  const outTok = estTokens(JSON.stringify(items))
  return {
    id: id || rid('resp_mock_'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model: body.model || 'mock-model',
    output: items,
    usage: { input_tokens: inTok, input_tokens_details: { cached_tokens: 0 }, output_tokens: outTok, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inTok + outTok },
  }
}

/** OpenAI Responses reply. */
export function responsesHandle(res: ServerResponse, body: Json, blocks: Block[], info: Normalized): void {
  const items = responsesItems(blocks, info)
  if (!body.stream) return sendJson(res, 200, responsesObject(body, items, 'completed'))
  sseHeaders(res)
  let sn = 0
  const ev = (type: string, data: Json): void => void res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sn++, ...data })}\n\n`)
  const base = responsesObject(body, [], 'in_progress')
  ev('response.created', { response: base })
  ev('response.in_progress', { response: base })
  items.forEach((item, output_index) => {
    if (item.type === 'message') {
      const text = item.content[0].text
      ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } })
      ev('response.content_part.added', { output_index, item_id: item.id, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } })
      for (const c of chunks(text)) ev('response.output_text.delta', { output_index, item_id: item.id, content_index: 0, delta: c })
      ev('response.output_text.done', { output_index, item_id: item.id, content_index: 0, text })
      ev('response.content_part.done', { output_index, item_id: item.id, content_index: 0, part: { type: 'output_text', text, annotations: [] } })
    } else if (item.type === 'reasoning') {
      const text = item.summary[0].text
      ev('response.output_item.added', { output_index, item: { ...item, summary: [] } })
      ev('response.reasoning_summary_part.added', { output_index, item_id: item.id, summary_index: 0, part: { type: 'summary_text', text: '' } })
      for (const c of chunks(text)) ev('response.reasoning_summary_text.delta', { output_index, item_id: item.id, summary_index: 0, delta: c })
      ev('response.reasoning_summary_text.done', { output_index, item_id: item.id, summary_index: 0, text })
      ev('response.reasoning_summary_part.done', { output_index, item_id: item.id, summary_index: 0, part: { type: 'summary_text', text } })
    } else if (item.type === 'function_call') {
      ev('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } })
      for (const c of chunks(item.arguments, 40)) ev('response.function_call_arguments.delta', { output_index, item_id: item.id, delta: c })
      ev('response.function_call_arguments.done', { output_index, item_id: item.id, arguments: item.arguments })
    } else if (item.type === 'custom_tool_call') {
      ev('response.output_item.added', { output_index, item: { ...item, input: '', status: 'in_progress' } })
      for (const c of chunks(item.input, 40)) ev('response.custom_tool_call_input.delta', { output_index, item_id: item.id, delta: c })
      ev('response.custom_tool_call_input.done', { output_index, item_id: item.id, input: item.input })
    }
    ev('response.output_item.done', { output_index, item })
  })
  ev('response.completed', { response: responsesObject(body, items, 'completed', base.id) })
  res.end()
}

// ---------- Chat Completions ----------
/** Chat Completions reply. */
export function chatHandle(res: ServerResponse, body: Json, blocks: Block[]): void {
  const text = blocks.filter((b) => b.type === 'text').map((b) => b.text).join('\n')
  const reasoning = blocks.filter((b) => b.type === 'thinking').map((b) => b.thinking).join('\n')
  const calls = blocks
    .filter((b) => b.type === 'tool_use')
    .map((b) => ({ id: b.id, type: 'function', function: { name: b.name, arguments: typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? {}) } }))
  const finish = calls.length ? 'tool_calls' : 'stop'
  const id = rid('chatcmpl-mock-')
  const created = Math.floor(Date.now() / 1000)
  const model = body.model || 'mock-model'
  const pt = estTokens(JSON.stringify(body.messages || []))
  const ct = estTokens(text + reasoning + JSON.stringify(calls))
  const usage = { prompt_tokens: pt, completion_tokens: ct, total_tokens: pt + ct }
  if (!body.stream) {
    const message: Json = { role: 'assistant', content: text || (calls.length ? null : '') }
    if (reasoning) message.reasoning_content = reasoning
    if (calls.length) message.tool_calls = calls
    return sendJson(res, 200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage })
  }
  sseHeaders(res)
  const chunk = (delta: Json, finish_reason: string | null = null): void =>
    void res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason }] })}\n\n`)
  chunk({ role: 'assistant', content: '' })
  if (reasoning) for (const c of chunks(reasoning)) chunk({ reasoning_content: c })
  if (text) for (const c of chunks(text)) chunk({ content: c })
  calls.forEach((c, index) => {
    chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] })
    for (const a of chunks(c.function.arguments, 40)) chunk({ tool_calls: [{ index, function: { arguments: a } }] })
  })
  chunk({}, finish)
  if (body.stream_options && body.stream_options.include_usage) {
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`)
  }
  res.write('data: [DONE]\n\n')
  res.end()
}

// ---------- Gemini ----------
/** Gemini reply (one SSE event per part; function calls together in the last event). */
export function geminiHandle(res: ServerResponse, body: Json, blocks: Block[], stream: boolean, model: string): void {
  const parts: Json[] = []
  let signed = false
  const sig = (): string => Buffer.from('mocksig_' + randomBytes(18).toString('hex')).toString('base64')
  for (const b of blocks) {
    if (b.type === 'thinking') parts.push({ text: b.thinking, thought: true })
    else if (b.type === 'text' && b.text !== '') parts.push({ text: b.text })
    else if (b.type === 'tool_use') {
      const p: Json = { functionCall: { name: b.name, args: b.input ?? {} } }
      if (!signed) {
        p.thoughtSignature = sig()
        signed = true
      }
      parts.push(p)
    }
  }
  if (!parts.length) parts.push({ text: '' })
  const inTok = estTokens(JSON.stringify(body.contents || []))
  const outTok = estTokens(JSON.stringify(parts))
  const thoughtsTok = parts.filter((p) => p.thought).reduce((n, p) => n + estTokens(p.text), 0)
  const usageMetadata = { promptTokenCount: inTok, candidatesTokenCount: outTok, totalTokenCount: inTok + outTok, ...(thoughtsTok ? { thoughtsTokenCount: thoughtsTok } : {}) }
  const responseId = rid('mockresp')
  const payload = (ps: Json[], last: boolean): Json => ({ candidates: [{ content: { role: 'model', parts: ps }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }], usageMetadata, modelVersion: model || 'mock-model', responseId })
  if (!stream) return sendJson(res, 200, payload(parts, true))
  sseHeaders(res)
  const calls = parts.filter((p) => p.functionCall)
  const events = parts.filter((p) => !p.functionCall).map((p) => [p])
  if (calls.length) events.push(calls)
  events.forEach((ps, i) => res.write(`data: ${JSON.stringify(payload(ps, i === events.length - 1))}\n\n`))
  res.end()
}

// ---------- model lists ----------
const MODELS = ['mock-model', 'claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5', 'gpt-5.5', 'gpt-5-codex', 'gemini-2.5-flash', 'gemini-2.5-pro']

/** GET .../models in OpenAI/Anthropic (`data`) and Gemini (`models`) shape. */
export function modelsList(res: ServerResponse, first: string | undefined): void {
  const ids = [...new Set([first || 'mock-model', ...MODELS])]
  sendJson(res, 200, {
    object: 'list',
    data: ids.map((id) => ({ id, object: 'model', type: 'model', display_name: id, created: 1700000000, created_at: '2025-01-01T00:00:00Z', owned_by: 'mock' })),
    models: ids.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent', 'countTokens'] })),
    has_more: false,
    first_id: ids[0],
    last_id: ids[ids.length - 1],
  })
}
