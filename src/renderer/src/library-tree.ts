/**
 * The library as the left pane shows it: agents → projects (by working directory) → sessions,
 * with sub-agent sessions nested under their parent instead of listed as siblings. Pure; the
 * components only render what this returns.
 */
import type { AgentInfo, Library } from '../../shared/api'
import type { AgentId, SessionSummary } from '../../shared/ir'
import { projectKey } from '../../shared/project-key'
import { firstLine, lastFolderName, sessionKey } from './format'
import { strings } from './strings'

/** One session row and the sub-agent sessions it spawned. */
export interface SessionTreeNode {
  key: string
  summary: SessionSummary
  /** The title to show ({@link displayTitle}: title, else first prompt, else "Empty session" or "Untitled session"). */
  title: string
  /** Sub-agent sessions, oldest first. */
  children: SessionTreeNode[]
}

/** Sessions of one working directory. */
export interface ProjectGroup {
  /** Stable key: `${agent}::${workingDirectory}` (empty path for "No project"). */
  key: string
  /** The path as recorded (any OS syntax), absent for "No project". */
  path?: string
  /** The last folder name, or "No project". */
  name: string
  /** Top-level sessions, newest first. */
  sessions: SessionTreeNode[]
  /** Number of sessions in the group, sub-agents included. */
  count: number
}

/** One agent and its projects. */
export interface AgentGroup {
  agent: AgentInfo
  /** Projects, the one with the newest session first; "No project" last. */
  projects: ProjectGroup[]
  /** Sessions shown (after filtering), sub-agents included. */
  count: number
}

/** The time a session sorts by: start time, else last activity; unknown sorts last. */
function sortTime(s: SessionSummary): number {
  return s.createdAt ?? s.lastActivityAt ?? Number.NEGATIVE_INFINITY
}

const newestFirst = (a: SessionTreeNode, b: SessionTreeNode): number => sortTime(b.summary) - sortTime(a.summary)
const oldestFirst = (a: SessionTreeNode, b: SessionTreeNode): number => sortTime(a.summary) - sortTime(b.summary)

/**
 * The title to show for a session: its title, else its first prompt's first line, else "Empty
 * session" when it has no messages (`messageCount` 0: nothing but events, such as a Gemini CLI
 * chat holding only a hook warning), else "Untitled session".
 */
export function displayTitle(s: Pick<SessionSummary, 'title' | 'firstPrompt'> & { messageCount?: number | undefined }): string {
  const t = s.title?.trim() || (s.firstPrompt ? firstLine(s.firstPrompt, 120) : '')
  return t || (s.messageCount === 0 ? strings.library.emptySession : strings.library.untitled)
}

function countTree(nodes: SessionTreeNode[]): number {
  return nodes.reduce((n, s) => n + 1 + countTree(s.children), 0)
}

/**
 * Build the tree. `filter` keeps sessions whose title contains it (case-insensitive); a session
 * that does not match stays when one of its sub-agents matches, so the match keeps its context.
 * Agents with no (matching) session are left out.
 */
export function buildLibraryTree(library: Library, filter = '', showHidden = false): AgentGroup[] {
  const q = filter.trim().toLocaleLowerCase()
  const nodes = new Map<string, SessionTreeNode>()
  for (const s of library.sessions) {
    if (s.hidden && !showHidden) continue
    const key = sessionKey(s.agent, s.id)
    if (!nodes.has(key)) nodes.set(key, { key, summary: s, title: displayTitle(s), children: [] })
  }
  // Nest sub-agents under their parent (same agent); a parent missing from the library leaves the child top-level.
  const roots: SessionTreeNode[] = []
  for (const node of nodes.values()) {
    const parentId = node.summary.parentSessionId
    const parent = parentId ? nodes.get(sessionKey(node.summary.agent, parentId)) : undefined
    if (parent && parent !== node && !isAncestor(node, parent, nodes)) parent.children.push(node)
    else roots.push(node)
  }
  const keep = (n: SessionTreeNode): SessionTreeNode | undefined => {
    const children = n.children.map(keep).filter((c): c is SessionTreeNode => c !== undefined).sort(oldestFirst)
    if (!q || n.title.toLocaleLowerCase().includes(q) || children.length > 0) return { ...n, children }
    return undefined
  }
  const kept = roots.map(keep).filter((n): n is SessionTreeNode => n !== undefined)

  const agents = new Map<AgentId, AgentInfo>()
  for (const a of library.agents) agents.set(a.id, a)
  const byAgent = new Map<AgentId, Map<string, ProjectGroup>>()
  for (const node of kept) {
    const agent = node.summary.agent
    if (!agents.has(agent)) agents.set(agent, { id: agent, displayName: agent, sessionCount: 0, capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: false } })
    let projects = byAgent.get(agent)
    if (!projects) byAgent.set(agent, (projects = new Map()))
    const path = node.summary.workingDirectory?.trim() ? node.summary.workingDirectory : undefined
    const pkey = `${agent}::${projectKey(path)}`
    let group = projects.get(pkey)
    if (!group) {
      group = { key: pkey, name: path ? lastFolderName(path) : strings.library.noProject, sessions: [], count: 0 }
      if (path) group.path = path
      projects.set(pkey, group)
    }
    group.sessions.push(node)
  }

  const out: AgentGroup[] = []
  for (const agent of agents.values()) {
    const projects = [...(byAgent.get(agent.id)?.values() ?? [])]
    if (projects.length === 0) continue
    for (const p of projects) {
      p.sessions.sort(newestFirst)
      p.count = countTree(p.sessions)
    }
    projects.sort((a, b) => {
      if (!a.path !== !b.path) return a.path ? -1 : 1
      return sortTime(b.sessions[0]!.summary) - sortTime(a.sessions[0]!.summary)
    })
    out.push({ agent, projects, count: projects.reduce((n, p) => n + p.count, 0) })
  }
  return out
}

/** True when nesting `node` under `candidate` would make a cycle (`node` is `candidate` or one of its ancestors). */
function isAncestor(node: SessionTreeNode, candidate: SessionTreeNode, nodes: Map<string, SessionTreeNode>): boolean {
  // Walk up from the candidate parent; if we reach `node`, nesting would make a cycle.
  const seen = new Set<string>()
  let cur: SessionTreeNode | undefined = candidate
  while (cur && !seen.has(cur.key)) {
    if (cur === node) return true
    seen.add(cur.key)
    const pid: string | undefined = cur.summary.parentSessionId
    cur = pid ? nodes.get(sessionKey(cur.summary.agent, pid)) : undefined
  }
  return false
}

/** Sessions the agent hides from its own list ({@link SessionSummary.hidden}), listed only on request. */
export function hiddenCount(library: Library): number {
  let n = 0
  for (const s of library.sessions) if (s.hidden) n++
  return n
}
