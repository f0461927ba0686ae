/**
 * A session as Markdown (`sepia show` and the Markdown export). Rows follow `rows.ts` (the
 * renderer's transcript rules); tool calls are shown with their results; thinking sits in a
 * collapsible `<details>` (GitHub-flavoured Markdown renders it folded).
 */
import type { MessageNode, Session, ToolCall } from '../../shared/ir'
import { eventText } from '../../shared/events'
import { argumentsText, clip, exportRows, roleLabel, sessionFacts } from './rows'

/** Options for {@link sessionToMarkdown}. */
export interface MarkdownOptions {
  /** Include thinking text. Default true. */
  thinking?: boolean
  /**
   * Include tool arguments and results. Default true. When false each call is one line
   * (`**Tool call: Bash** (execute) — completed`).
   */
  toolOutput?: boolean
  /** Include injected/meta messages. Default false. */
  meta?: boolean
  /** Cut each tool output after this many characters. Default 4000 (`sepia show`). */
  maxToolOutput?: number
}

/** Render a session as Markdown text (ends with one newline). Pure. */
export function sessionToMarkdown(session: Session, options: MarkdownOptions = {}): string {
  const maxOut = options.maxToolOutput ?? 4000
  const toolOutput = options.toolOutput !== false
  const rows = exportRows(session, { includeThinking: options.thinking !== false, includeToolOutput: toolOutput, includeMeta: options.meta === true })
  const out: string[] = [`# ${oneLineText(session.title ?? session.id)}`, '']
  for (const [k, v] of sessionFacts(session)) out.push(`- **${k}:** ${v}`)
  out.push('')
  for (const row of rows) {
    const n = row.node
    if (row.kind === 'event') {
      out.push(`> _${escapeInline(eventText(n))}_`, '')
      continue
    }
    const when = n.createdAt !== undefined ? ` · ${new Date(n.createdAt).toISOString()}` : ''
    out.push(`## ${roleLabel(n)}${when}`, '')
    if (row.kind === 'orphan-result') {
      out.push(fence(clip(n.content, maxOut), ''))
      continue
    }
    if (n.thinking?.trim() && options.thinking !== false) {
      out.push('<details><summary>Thinking</summary>', '', closeFences(n.thinking), '', '</details>', '')
    }
    if (n.content.trim()) out.push(closeFences(n.content.trim()), '')
    for (const b of n.blocks ?? []) {
      if (b.type === 'image') out.push(`_[image${b.mediaType ? ` ${b.mediaType}` : ''}${b.uri ? `: ${b.uri}` : ''}]_`, '')
      else if (b.type === 'file') out.push(`_[file${b.path ? `: ${b.path}` : ''}]_`, '')
    }
    for (const { call, result } of row.calls) out.push(...toolCallMarkdown(call, result, maxOut, toolOutput))
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n'
}

function toolCallMarkdown(call: ToolCall, result: MessageNode | undefined, maxOut: number, toolOutput: boolean): string[] {
  const status = call.status ? ` — ${call.status}` : ''
  const head = `**Tool call: ${call.name}** (${call.kind})${status}`
  if (!toolOutput) return [head, '']
  const lines = [head, '', fence(argumentsText(call), typeof call.arguments === 'string' ? '' : 'json')]
  if (result) lines.push(result.isError ? '**Result (error):**' : '**Result:**', '', fence(clip(result.content, maxOut), ''))
  return lines
}

function oneLineText(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** A fenced code block whose fence is longer than any backtick run inside `text`. */
export function fence(text: string, lang: string): string {
  let ticks = '```'
  while (text.includes(ticks)) ticks += '`'
  return `${ticks}${lang}\n${text}\n${ticks}\n`
}

/** Text of an event marker made safe inside `_..._` (no emphasis or HTML characters that would open). */
function escapeInline(text: string): string {
  return text.replace(/[\\`*_<>[\]]/g, (c) => `\\${c}`)
}

/**
 * `text` with every code fence it opens closed (issue 14, point 10): a thinking block or a message
 * that opens a ``` fence and never closes it would turn every later line of the export into code.
 * Fences follow CommonMark: a line of 3+ backticks or tildes (indented at most 3 spaces) opens one,
 * a line of the same character at least as long closes it.
 */
export function closeFences(text: string): string {
  let open: { ch: string; len: number } | undefined
  for (const line of text.split('\n')) {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line)
    if (!m) continue
    const run = m[1]!
    if (!open) {
      if (run[0] === '`' && m[2]!.includes('`')) continue // not a fence: an info string may not hold a backtick
      open = { ch: run[0]!, len: run.length }
    } else if (run[0] === open.ch && run.length >= open.len && m[2]!.trim() === '') open = undefined
  }
  return open ? `${text}\n${open.ch.repeat(open.len)}` : text
}
