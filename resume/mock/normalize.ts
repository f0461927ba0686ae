/**
 * Model requests of the four APIs the agents speak → one normalized conversation, for picking a
 * scripted reply. Ported from the project's shared kit `realstores/mock-llm.mjs` ("request ->
 * normalized conversation"); the behaviour is kept as it was checked there against the real CLIs.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Json = Record<string, any>

/** A tool the request offers. */
export interface ToolInfo {
  name: string
  type: string
  namespace?: string
}

/** The request reduced to roles, tools, system text and model. Tool results are role `tool`. */
export interface Normalized {
  msgs: { role: 'user' | 'assistant' | 'tool'; text: string }[]
  tools: ToolInfo[]
  system: string
  model: string
  /** Text of the newest tool output (for `${OUT_RE:...}`). */
  lastToolOutput: string
}

/** Text of a string, a list of blocks/parts, or an object with `text`. */
export function textOf(content: unknown): string {
  if (content == null) return ''
  if (typeof content === 'string') return content
  if (Array.isArray(content)) {
    return content
      .map((b) => {
        if (typeof b === 'string') return b
        if (!b || typeof b !== 'object') return ''
        if (typeof b.text === 'string') return b.text
        if (typeof b.content === 'string') return b.content
        if (Array.isArray(b.content)) return textOf(b.content)
        return ''
      })
      .join('\n')
  }
  if (typeof content === 'object' && typeof (content as Json).text === 'string') return (content as Json).text
  return ''
}

/** Anthropic Messages. */
export function normAnthropic(body: Json): Normalized {
  const msgs: Normalized['msgs'] = []
  let lastToolOutput = ''
  for (const m of body.messages || []) {
    if (m.role === 'assistant') {
      msgs.push({ role: 'assistant', text: textOf(m.content) })
      continue
    }
    const blocks: Json[] = Array.isArray(m.content) ? m.content : [{ type: 'text', text: String(m.content ?? '') }]
    const results = blocks.filter((b) => b && b.type === 'tool_result')
    for (const r of results) lastToolOutput = typeof r.content === 'string' ? r.content : textOf(r.content)
    const text = blocks.filter((b) => b && b.type === 'text').map((b) => b.text).join('\n')
    msgs.push({ role: results.length ? 'tool' : 'user', text })
  }
  const system = typeof body.system === 'string' ? body.system : textOf(body.system || [])
  return { msgs, system, lastToolOutput, model: body.model || '', tools: (body.tools || []).map((t: Json) => ({ name: t.name, type: t.type || 'function' })) }
}

function flattenResponsesTools(tools: Json[], input: Json[]): ToolInfo[] {
  const out: ToolInfo[] = []
  const walk = (list: Json[] | undefined, ns: string | undefined): void => {
    for (const t of list || []) {
      if (t && t.type === 'namespace') walk(t.tools, t.name)
      else if (t) out.push({ name: t.name || t.function?.name || t.type, type: t.type || 'function', ...(ns ? { namespace: ns } : {}) })
    }
  }
  walk(tools, undefined)
  for (const it of input || []) if (it && it.type === 'additional_tools') walk(it.tools, undefined)
  return out
}

const RESPONSES_MODEL_ITEMS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'reasoning', 'web_search_call', 'tool_search_call', 'image_generation_call'])

/** OpenAI Responses (a run of model items counts as one assistant message). */
export function normResponses(body: Json): Normalized {
  const input: Json[] = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input || []
  const msgs: Normalized['msgs'] = []
  let inRun = false
  let lastToolOutput = ''
  for (const it of input) {
    if (!it || typeof it !== 'object') continue
    const isMsg = it.type === 'message' || it.type === undefined
    if (RESPONSES_MODEL_ITEMS.has(it.type) || (isMsg && it.role === 'assistant')) {
      if (!inRun) msgs.push({ role: 'assistant', text: isMsg ? textOf(it.content) : '' })
      inRun = true
      continue
    }
    inRun = false
    if (/_output$/.test(it.type || '')) {
      lastToolOutput = typeof it.output === 'string' ? it.output : JSON.stringify(it.output)
      msgs.push({ role: 'tool', text: lastToolOutput })
    } else if (isMsg && it.role === 'user') {
      msgs.push({ role: 'user', text: textOf(it.content) })
    }
  }
  return { msgs, lastToolOutput, system: body.instructions || '', model: body.model || '', tools: flattenResponsesTools(body.tools || [], input) }
}

/** OpenAI Chat Completions. */
export function normChat(body: Json): Normalized {
  const msgs: Normalized['msgs'] = []
  let lastToolOutput = ''
  const sys: string[] = []
  for (const m of body.messages || []) {
    if (m.role === 'system' || m.role === 'developer') sys.push(textOf(m.content))
    else if (m.role === 'user') msgs.push({ role: 'user', text: textOf(m.content) })
    else if (m.role === 'assistant') msgs.push({ role: 'assistant', text: textOf(m.content) })
    else if (m.role === 'tool' || m.role === 'function') {
      lastToolOutput = textOf(m.content)
      msgs.push({ role: 'tool', text: lastToolOutput })
    }
  }
  return { msgs, lastToolOutput, system: sys.join('\n'), model: body.model || '', tools: (body.tools || []).map((t: Json) => ({ name: t.function?.name || t.name, type: t.type || 'function' })) }
}

/** Gemini generateContent / streamGenerateContent. */
export function normGemini(body: Json, model: string): Normalized {
  const msgs: Normalized['msgs'] = []
  let lastToolOutput = ''
  for (const c of body.contents || []) {
    const parts: Json[] = c.parts || []
    const text = parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text).join('\n')
    const responses = parts.filter((p) => p.functionResponse)
    if (c.role === 'model') msgs.push({ role: 'assistant', text })
    else if (responses.length) {
      lastToolOutput = JSON.stringify(responses[responses.length - 1]!.functionResponse.response ?? '')
      msgs.push({ role: 'tool', text })
    } else msgs.push({ role: 'user', text })
  }
  const tools: ToolInfo[] = []
  for (const t of body.tools || []) for (const f of t.functionDeclarations || []) tools.push({ name: f.name, type: 'function' })
  return { msgs, tools, lastToolOutput, model, system: textOf(body.systemInstruction?.parts || []) }
}
