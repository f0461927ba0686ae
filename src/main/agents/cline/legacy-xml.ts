/**
 * Parse the XML tool calls legacy Cline (and Roo Code, Kilo Code, PearAI) wrote inside assistant
 * text, and the user-side wrappers around prompts and tool results.
 *
 * Format facts: seed 000 "Legacy task files" (tool calls are mostly XML inside text blocks, no
 * tool_use); `fixtures/real/cline-legacy/README.md` "Worth knowing" (`<task>` wrapper,
 * `[execute_command for '...'] Result:` user text, `# task_progress` and `<environment_details>`
 * blocks, `[TASK RESUMPTION]`, `<user_message>`); cline/cline src/core/assistant-message/
 * parse-assistant-message.ts (a tool is `<name><param>value</param>...</name>`; `content` and
 * `diff` values run to the LAST closing tag, since file text may contain tags).
 */

/**
 * XML tool tags recognised in assistant text: Cline's tool names (cline/cline
 * src/core/prompts/system.ts) plus Roo Code's additions.
 */
export const LEGACY_XML_TOOLS: readonly string[] = [
  'execute_command', 'read_file', 'write_to_file', 'replace_in_file', 'search_files', 'list_files',
  'list_code_definition_names', 'browser_action', 'use_mcp_tool', 'access_mcp_resource', 'ask_followup_question',
  'attempt_completion', 'plan_mode_respond', 'act_mode_respond', 'new_task', 'load_mcp_documentation', 'web_fetch',
  'web_search', 'condense', 'summarize_task', 'report_bug', 'new_rule', 'apply_diff', 'insert_content',
  'search_and_replace', 'codebase_search', 'switch_mode', 'fetch_instructions', 'update_todo_list', 'list_skills',
  'use_skill',
]

/**
 * Tags that are the assistant talking, not acting: their main parameter becomes assistant text
 * (a final answer, a question, a plan) instead of a tool call that would never get a result.
 */
export const CONVERSATIONAL_TAGS: Readonly<Record<string, string>> = {
  attempt_completion: 'result',
  ask_followup_question: 'question',
  plan_mode_respond: 'response',
  act_mode_respond: 'response',
}

/** One `<tool>...</tool>` found in assistant text. */
export interface XmlToolUse {
  name: string
  /** Parameter values (`content`/`diff` keep inner newlines; others are trimmed). */
  params: Record<string, string>
  /** True when the closing tag is missing (the message was cut mid-call). */
  partial: boolean
}

/** Assistant text split into prose, `<thinking>` text and tool uses. */
export interface ParsedAssistantText {
  /** Text outside tool tags and thinking tags, trimmed, segments joined by blank lines. */
  text: string
  /** Text of `<thinking>` tags, when any. */
  thinking?: string
  tools: XmlToolUse[]
}

const OPEN = new RegExp(`<(${LEGACY_XML_TOOLS.join('|')})>`, 'g')

/** Split assistant text into prose, thinking and XML tool uses (never throws). */
export function parseAssistantText(text: string): ParsedAssistantText {
  const tools: XmlToolUse[] = []
  const prose: string[] = []
  let pos = 0
  OPEN.lastIndex = 0
  for (let m = OPEN.exec(text); m; m = OPEN.exec(text)) {
    const name = m[1]!
    prose.push(text.slice(pos, m.index))
    const bodyStart = m.index + m[0].length
    const close = `</${name}>`
    const end = text.indexOf(close, bodyStart)
    const partial = end < 0
    tools.push({ name, params: parseParams(text.slice(bodyStart, partial ? text.length : end)), partial })
    pos = partial ? text.length : end + close.length
    OPEN.lastIndex = pos
  }
  prose.push(text.slice(pos))
  const thinking: string[] = []
  const cleaned = prose
    .map((p) => p.replace(/<thinking>([\s\S]*?)(<\/thinking>|$)/g, (_all, inner: string) => {
      if (inner.trim()) thinking.push(inner.trim())
      return ''
    }).trim())
    .filter(Boolean)
  const out: ParsedAssistantText = { text: cleaned.join('\n\n'), tools }
  if (thinking.length) out.thinking = thinking.join('\n\n')
  return out
}

/** `<param>value</param>` pairs of one tool body. */
function parseParams(body: string): Record<string, string> {
  const params: Record<string, string> = {}
  const re = /<([a-z_]+)>/g
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const name = m[1]!
    const start = m.index + m[0].length
    const close = `</${name}>`
    const end = name === 'content' || name === 'diff' ? body.lastIndexOf(close) : body.indexOf(close, start)
    if (end < start) {
      params[name] = clean(name, body.slice(start))
      break
    }
    params[name] = clean(name, body.slice(start, end))
    re.lastIndex = end + close.length
  }
  return params
}

function clean(name: string, value: string): string {
  if (name === 'content' || name === 'diff') return value.replace(/^\r?\n/, '').replace(/\r?\n$/, '')
  return value.trim()
}

/** Header of a legacy tool result text block: `[name for 'arg'] Result:` or `[name] Result:`. */
export const RESULT_HEADER = /^\s*\[([\w-]+)(?: for '([\s\S]*?)')?\] Result:[ \t]*\r?\n?/

/** True for text Cline injects into user messages (hidden by default as meta). */
export function isInjectedText(text: string): boolean {
  const t = text.trimStart()
  return t.startsWith('<environment_details>') || t.startsWith('# task_progress') || t.startsWith('[TASK RESUMPTION]')
}

/**
 * Remove injected blocks (`<environment_details>…</environment_details>`, a trailing
 * `# task_progress` section) from a text that also holds real content. Returns the remaining
 * text and what was removed.
 */
export function splitInjected(text: string): { text: string; injected: string[] } {
  const injected: string[] = []
  let t = text.replace(/<environment_details>[\s\S]*?(<\/environment_details>|$)/g, (all) => {
    injected.push(all)
    return ''
  })
  const tp = t.search(/(^|\n)# task_progress/)
  if (tp >= 0) {
    injected.push(t.slice(tp).trim())
    t = t.slice(0, tp)
  }
  return { text: t.trim(), injected }
}

/**
 * The user's own words inside Cline's wrappers: `<task>`, `<feedback>`, `<answer>`,
 * `<user_message>` (e.g. `New instructions for task continuation:\n<user_message>…</user_message>`).
 * Returns the input unchanged when there is no wrapper.
 */
export function unwrapUserText(text: string): { text: string; wrapper?: string } {
  const m = /<(task|feedback|answer|user_message)>\s*([\s\S]*?)\s*<\/\1>/.exec(text)
  return m ? { text: m[2] ?? '', wrapper: m[1]! } : { text }
}
