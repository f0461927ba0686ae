/**
 * A session as Markdown (used by `sepia show` and, later, the Markdown export).
 * Tool calls are shown with their results; thinking in a collapsible <details>.
 */
import type { MessageNode, Session, ToolCall } from '../../shared/ir'

/** Options for {@link sessionToMarkdown}. */
export interface MarkdownOptions {
  /** Include thinking text. Default true. */
  thinking?: boolean
  /** Include injected/meta messages. Default false. */
  meta?: boolean
  /** Cut tool output after this many characters. Default 4000. */
  maxToolOutput?: number
}

/** Render a session as Markdown text. */
export function sessionToMarkdown(session: Session, options: MarkdownOptions = {}): string {
  const maxOut = options.maxToolOutput ?? 4000
  const results = new Map<string, MessageNode>()
  for (const n of session.nodes) if (n.role === 'tool' && n.toolCallId) results.set(n.toolCallId, n)
  const out: string[] = []
  out.push(`# ${session.title ?? session.id}`, '')
  const facts: [string, string | undefined][] = [
    ['Agent', session.agent],
    ['Session', session.id],
    ['Project', session.workingDirectory],
    ['Model', session.model],
    ['Started', session.createdAt !== undefined ? new Date(session.createdAt).toISOString() : undefined],
    ['Parent session', session.parentSessionId],
  ]
  for (const [k, v] of facts) if (v !== undefined) out.push(`- **${k}:** ${v}`)
  out.push('')
  for (const n of session.nodes) {
    if (n.isMeta && !options.meta) continue
    if (n.role === 'tool' && n.toolCallId && !n.metadata?.orphan) continue // shown with its call
    if (n.event) {
      out.push(`> _${n.event}_${n.content ? `: ${n.content.split('\n')[0]}` : ''}`, '')
      continue
    }
    const when = n.createdAt !== undefined ? ` · ${new Date(n.createdAt).toISOString()}` : ''
    out.push(`## ${label(n)}${when}`, '')
    if (n.thinking && options.thinking !== false) {
      out.push('<details><summary>Thinking</summary>', '', n.thinking, '', '</details>', '')
    }
    if (n.content.trim()) out.push(n.content.trim(), '')
    for (const call of n.toolCalls ?? []) out.push(...toolCallMarkdown(call, results.get(call.id), maxOut))
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n'
}

function label(n: MessageNode): string {
  switch (n.role) {
    case 'user':
      return 'User'
    case 'assistant':
      return n.model ? `Assistant (${n.model})` : 'Assistant'
    case 'system':
      return 'System'
    case 'tool':
      return `Tool result${n.toolName ? ` (${n.toolName})` : ''}`
  }
}

function toolCallMarkdown(call: ToolCall, result: MessageNode | undefined, maxOut: number): string[] {
  const status = call.status ? ` — ${call.status}` : ''
  const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments, null, 2)
  const lines = [`**Tool call: ${call.name}** (${call.kind})${status}`, '', fence(args ?? '', typeof call.arguments === 'string' ? '' : 'json')]
  if (result) {
    const text = result.content.length > maxOut ? result.content.slice(0, maxOut) + `\n… (${result.content.length - maxOut} more characters)` : result.content
    lines.push(result.isError ? '**Result (error):**' : '**Result:**', '', fence(text, ''))
  }
  return lines
}

function fence(text: string, lang: string): string {
  let ticks = '```'
  while (text.includes(ticks)) ticks += '`'
  return `${ticks}${lang}\n${text}\n${ticks}\n`
}
