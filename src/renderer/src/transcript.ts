/**
 * A session's nodes as rows of the transcript: conversation messages, thin event markers, and
 * tool results that have no call. A tool result whose call is in the session (`role: "tool"`,
 * same `toolCallId`, seed 002 "What the IR captures today") is not a row: the call's card shows it.
 * Pure; the components only render what this returns.
 */
import type { MessageNode, Session } from '../../shared/ir'

/** One row of the transcript. `key` is unique within the transcript. */
export type TranscriptItem =
  | {
      kind: 'message'
      key: string
      node: MessageNode
      /** True when it continues the previous row's assistant turn (the header is kept short). */
      continued: boolean
    }
  | { kind: 'event'; key: string; node: MessageNode }
  /** A user message the agent wrote to report a finished background task (see {@link taskNotification}). */
  | { kind: 'notification'; key: string; node: MessageNode; notice: TaskNotification }
  | { kind: 'orphan-result'; key: string; node: MessageNode }

/** What the session view renders. */
export interface Transcript {
  items: TranscriptItem[]
  /** Tool results by the id of the call they answer. */
  results: Map<string, MessageNode>
  /** Nodes hidden because they are injected text (`isMeta`) or system prompts. */
  metaCount: number
}

/** The fields of a Claude Code `<task-notification>` message. */
export interface TaskNotification {
  taskId?: string
  /** `completed`, `failed`, `killed`... as the agent wrote it. */
  status?: string
  /** One line, e.g. `Agent "Summarize git history" finished`. */
  summary?: string
  /** The task's report (may be long). */
  result?: string
}

/**
 * Claude Code tells the parent session that a background task (a sub-agent started with
 * `run_in_background`, a background shell) finished by adding a user message
 * `<task-notification><task-id>…</task-id><status>…</status><summary>…</summary><result>…</result></task-notification>`
 * (shared/samples/real/claude-code README, session 168ccd27). The user did not type it: the
 * transcript shows it as a marker. Undefined for any other text.
 */
export function taskNotification(text: string): TaskNotification | undefined {
  const t = text.trimStart()
  if (!t.startsWith('<task-notification>')) return undefined
  const field = (name: string): string | undefined => {
    const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(t)
    return m?.[1]?.trim() || undefined
  }
  const out: TaskNotification = {}
  const taskId = field('task-id')
  const status = field('status')
  const summary = field('summary')
  const result = field('result')
  if (taskId) out.taskId = taskId
  if (status) out.status = status
  if (summary) out.summary = summary
  if (result) out.result = result
  return out
}

/** True when a node carries something to show (text, blocks, thinking or tool calls). */
export function hasVisibleContent(n: MessageNode): boolean {
  return (
    n.content.trim() !== '' ||
    (n.blocks?.length ?? 0) > 0 ||
    (n.thinking?.trim() ?? '') !== '' ||
    (n.toolCalls?.length ?? 0) > 0
  )
}

/** True when a node is injected text hidden behind the "Show system/injected messages" toggle. */
export function isHiddenByDefault(n: MessageNode): boolean {
  return n.isMeta === true
}

/**
 * Build the transcript rows. `showMeta` includes `isMeta` nodes (they are counted either way).
 * Nodes with nothing to show are skipped; event nodes become marker rows.
 */
export function buildTranscript(nodes: readonly MessageNode[], showMeta: boolean): Transcript {
  const callIds = new Set<string>()
  for (const n of nodes) for (const c of n.toolCalls ?? []) callIds.add(c.id)
  const results = new Map<string, MessageNode>()
  for (const n of nodes) {
    if (n.role === 'tool' && n.toolCallId && callIds.has(n.toolCallId) && !results.has(n.toolCallId)) {
      results.set(n.toolCallId, n)
    }
  }

  const items: TranscriptItem[] = []
  let metaCount = 0
  nodes.forEach((node, i) => {
    const key = `${i}:${node.nodeId}`
    if (isHiddenByDefault(node)) {
      metaCount++
      if (!showMeta) return
    }
    if (node.event) {
      items.push({ kind: 'event', key, node })
      return
    }
    if (node.role === 'tool') {
      if (node.toolCallId && results.get(node.toolCallId) === node) return
      items.push({ kind: 'orphan-result', key, node })
      return
    }
    if (!hasVisibleContent(node)) return
    const notice = node.role === 'user' ? taskNotification(node.content) : undefined
    if (notice) {
      items.push({ kind: 'notification', key, node, notice })
      return
    }
    const prev = items[items.length - 1]
    const continued = node.role === 'assistant' && prev?.kind === 'message' && prev.node.role === 'assistant'
    items.push({ kind: 'message', key, node, continued })
  })
  return { items, results, metaCount }
}

/** user + assistant messages, events and injected text not counted (as `summarize` in src/main/ir/build.ts). */
export function countMessages(session: Pick<Session, 'nodes'>): number {
  let n = 0
  for (const node of session.nodes) {
    if ((node.role === 'user' || node.role === 'assistant') && !node.event && !node.isMeta) n++
  }
  return n
}
