/**
 * The timeline of an agent without a store-level row parser: a projection of its IR session, one
 * row per node part (seed 000 "Parser plan" row model): a node's thinking (thinking row), its text
 * (by role), each tool call (tool_use row with the arguments as text), a tool result (tool_result
 * row), a system node or marker (system row). Times are the nodes' `createdAt`; the project is the
 * session's working directory, the branch its git branch, the source file its primary file.
 */
import type { MessageNode, Session } from '../../shared/ir'
import type { TimelineRow, TimelineTurnType } from '../../shared/timeline'

/** Rows of one session. */
export function projectSession(session: Session): TimelineRow[] {
  const rows: TimelineRow[] = []
  const base = {
    sessionId: session.id,
    projectPath: session.workingDirectory ?? '',
    gitBranch: session.git?.branch ?? '',
    sourceFile: session.source.files[0] ?? '',
    agent: session.agent,
  }
  const push = (n: MessageNode, turnType: TimelineTurnType, text: string, extra: Partial<TimelineRow> = {}) => {
    const row: TimelineRow = { ...base, turnType, model: n.model ?? session.model ?? '', toolName: '', toolUseId: '', text, ...extra }
    if (n.createdAt !== undefined) row.timestampUtc = n.createdAt
    if (n.recovered) {
      row.recovered = { source: n.recovered.source }
      row.sourceFile = n.recovered.path
      if (n.recovered.line !== undefined) row.sourceLine = n.recovered.line
    }
    rows.push(row)
  }
  for (const n of session.nodes) {
    if (n.role === 'tool') {
      push(n, 'tool_result', n.isError ? `[error] ${n.content}` : n.content, { toolName: n.toolName ?? '', toolUseId: n.toolCallId ?? '' })
      continue
    }
    if (n.role === 'system' || n.event) {
      push(n, 'system', n.content)
      continue
    }
    if (n.thinking) push(n, 'thinking', n.thinking)
    if (n.content || (!n.thinking && !n.toolCalls?.length)) push(n, n.role === 'user' ? 'user' : 'assistant', n.content)
    for (const c of n.toolCalls ?? []) {
      push(n, 'tool_use', typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? null), { toolName: c.name, toolUseId: c.id })
    }
  }
  return rows
}
