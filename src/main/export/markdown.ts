/**
 * A session as Markdown (`sepia show` and the Markdown export). Rows follow `rows.ts` (the
 * renderer's transcript rules); tool calls are shown with their results; thinking sits in a
 * collapsible `<details>` (GitHub-flavoured Markdown renders it folded).
 */
import type { MessageNode, Session, ToolCall } from '../../shared/ir'
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
      out.push(`> _${n.event}_${n.content ? `: ${n.content.split('\n')[0]}` : ''}`, '')
      continue
    }
    const when = n.createdAt !== undefined ? ` · ${new Date(n.createdAt).toISOString()}` : ''
    out.push(`## ${roleLabel(n)}${when}`, '')
    if (row.kind === 'orphan-result') {
      out.push(fence(clip(n.content, maxOut), ''))
      continue
    }
    if (n.thinking?.trim() && options.thinking !== false) {
      out.push('<details><summary>Thinking</summary>', '', n.thinking, '', '</details>', '')
    }
    if (n.content.trim()) out.push(n.content.trim(), '')
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
