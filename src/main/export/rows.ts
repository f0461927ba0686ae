/**
 * What a human-readable export (Markdown, HTML, PDF) shows of a session, as rows: the same rules
 * as the renderer's transcript (`src/renderer/src/transcript.ts`), so an export reads like the
 * screen. A tool result whose call is in the session is shown with its call, not as a row of its
 * own (seed 002 "What the IR captures today": results are `role: "tool"` nodes paired by
 * `toolCallId`); injected (`isMeta`) nodes are left out unless asked for; event nodes become markers.
 */
import type { MessageNode, Session, ToolCall } from '../../shared/ir'
import { stripAnsi } from '../../shared/ansi'

/** The "include thinking / tool output" choice of an export (issue "Exports"). */
export interface ContentChoice {
  /** Include the assistant's reasoning text. Default true. */
  includeThinking?: boolean
  /**
   * Include what tools were called with and what they returned. Default true. When false, each
   * tool call is one line (name, kind, status): its arguments and its result are left out.
   */
  includeToolOutput?: boolean
}

/** Options shared by the text exports. */
export interface RowOptions extends ContentChoice {
  /** Include injected/meta messages (system reminders, environment details). Default false. */
  includeMeta?: boolean
}

/** A tool call with the result paired to it, when one was found. */
export interface CallWithResult {
  call: ToolCall
  result?: MessageNode
}

/** One row of an export. */
export type ExportRow =
  | { kind: 'message'; node: MessageNode; calls: CallWithResult[] }
  | { kind: 'event'; node: MessageNode }
  | { kind: 'orphan-result'; node: MessageNode }

/** Build the rows of a session for a text export. Pure. */
export function exportRows(session: Session, options: RowOptions = {}): ExportRow[] {
  const callIds = new Set<string>()
  for (const n of session.nodes) for (const c of n.toolCalls ?? []) callIds.add(c.id)
  const results = new Map<string, MessageNode>()
  for (const n of session.nodes) {
    if (n.role === 'tool' && n.toolCallId && callIds.has(n.toolCallId) && !results.has(n.toolCallId)) results.set(n.toolCallId, n)
  }
  const rows: ExportRow[] = []
  for (const node of session.nodes) {
    if (node.isMeta && !options.includeMeta) continue
    if (node.event) {
      rows.push({ kind: 'event', node })
      continue
    }
    if (node.role === 'tool') {
      if (node.toolCallId && results.get(node.toolCallId) === node) continue
      if (options.includeToolOutput !== false) rows.push({ kind: 'orphan-result', node })
      continue
    }
    const hasText = node.content.trim() !== '' || (node.blocks?.length ?? 0) > 0
    const hasThinking = options.includeThinking !== false && (node.thinking?.trim() ?? '') !== ''
    const calls = (node.toolCalls ?? []).map((call) => {
      const result = results.get(call.id)
      return result ? { call, result } : { call }
    })
    if (!hasText && !hasThinking && calls.length === 0) continue
    rows.push({ kind: 'message', node, calls })
  }
  return rows
}

/** Human label of a node's author: `User`, `Assistant (model)`, `System`, `Tool result (name)`. */
export function roleLabel(n: MessageNode): string {
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

/**
 * Tool output cut to `max` characters, with a note of how much was left out. Terminal escape
 * sequences (colours of command output) are removed first: an export shows text, and a raw ESC
 * byte would show as `[38;2;253;122;140m` (issue 14, "no escape codes in Markdown, HTML").
 */
export function clip(raw: string, max: number): string {
  const text = stripAnsi(raw)
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text
}

/** A tool call's arguments as display text: a string as is, anything else as indented JSON. */
export function argumentsText(call: ToolCall): string {
  if (typeof call.arguments === 'string') return call.arguments
  if (call.arguments === undefined) return ''
  return JSON.stringify(call.arguments, null, 2) ?? ''
}

/** The facts shown at the top of an export: label and value, absent values left out. */
export function sessionFacts(session: Session): [string, string][] {
  const facts: [string, string | undefined][] = [
    ['Agent', session.agent],
    ['Session', session.id],
    ['Project', session.workingDirectory],
    ['Model', session.model],
    ['Started', session.createdAt !== undefined ? new Date(session.createdAt).toISOString() : undefined],
    ['Last activity', session.lastActivityAt !== undefined ? new Date(session.lastActivityAt).toISOString() : undefined],
    ['Parent session', session.parentSessionId],
    ['Sub-agent sessions', session.childSessionIds?.join(', ')],
    ['Git branch', session.git?.branch],
  ]
  return facts.filter((f): f is [string, string] => f[1] !== undefined && f[1] !== '')
}
