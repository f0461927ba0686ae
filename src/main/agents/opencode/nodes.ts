/**
 * The message nodes of one OpenCode-family session, in store order, chained one after the other
 * (OpenCode's history is linear: an assistant message's `parentID` names the user message it
 * answers, which every step of a multi-message turn shares, so it is kept as metadata rather than
 * used as the tree link).
 *
 * User messages (message-v2.ts `User`; fixtures/real/opencode/README.md): `text` parts are the
 * prompt (`opencode run` stores it wrapped in literal double quotes, kept as stored); `synthetic`
 * text (file contents OpenCode injects for `@file`, tool-result attachments) and `ignored` text
 * become `isMeta` nodes; `file` parts image/file blocks; `agent` parts (`@agent` mentions)
 * metadata; `subtask` parts an `unknown` block with the prompt; a `compaction` part a
 * `compaction` event node. Parts of unknown type with text become `unknown-event` nodes.
 */
import type { Checkpoint, ContentBlock, MessageNode } from '../../../shared/ir'
import { type AssistantExtras, assistantNodes } from './assistant'
import { fileBlock } from './parts'
import type { Problem, StoredMessage } from './store'
import { type Json, obj, pickStr, str, timeOf } from './values'

/** Everything the nodes of a session yield. */
export interface BuiltNodes {
  nodes: MessageNode[]
  checkpoints: Checkpoint[]
  /** Part counts by `type`, messages by `role` (session metadata). */
  partTypes: Record<string, number>
  messageRoles: Record<string, number>
  /** Part types this reader does not model that carried no text (counted in `partTypes`). */
  unmodeledPartTypes: string[]
  /** Working directory of the first assistant message (`path.cwd`). */
  firstCwd?: string
  problems: Problem[]
}

/** User-message fields kept as metadata. */
function userMeta(d: Json): Json {
  const meta: Json = {}
  const agent = pickStr(d, 'agent', 'mode')
  if (agent) meta.agent = agent
  for (const k of ['model', 'system', 'format', 'variant', 'tools'] as const) if (d[k] !== undefined) meta[k] = d[k]
  const summary = obj(d.summary)
  if (summary) {
    const s: Json = {}
    if (str(summary.title)) s.title = summary.title
    if (str(summary.body)) s.body = summary.body
    const diffs = Array.isArray(summary.diffs) ? summary.diffs.map(obj).filter((x): x is Json => !!x) : []
    if (diffs.length) s.diffs = diffs.map((x) => ({ file: x.file, additions: x.additions, deletions: x.deletions, status: x.status }))
    if (Object.keys(s).length) meta.summary = s
  }
  return meta
}

/** Nodes of one user message: the prompt node, then meta, compaction and unknown-part nodes. */
function userNodes(m: StoredMessage, unknownTypes: string[]): MessageNode[] {
  const blocks: ContentBlock[] = []
  const others: MessageNode[] = []
  const mentions: string[] = []
  const at = timeOf(m.data, 'created') ?? m.rowCreatedAt
  for (const p of m.parts) {
    const d = p.data
    const type = str(d.type) ?? '(none)'
    const text = str(d.text)
    if (type === 'text' && (d.synthetic === true || d.ignored === true)) {
      const meta = d.synthetic === true ? { synthetic: true } : { ignored: true }
      others.push({ nodeId: p.id, role: 'user', content: text ?? '', isMeta: true, metadata: meta })
    } else if (type === 'text') blocks.push({ type: 'text', text: text ?? '' })
    else if (type === 'file') blocks.push(fileBlock(d))
    else if (type === 'agent' && str(d.name)) mentions.push(d.name as string)
    else if (type === 'subtask') {
      const { prompt, type: _t, ...rest } = d
      blocks.push({ type: 'unknown', originalType: 'subtask', text: str(prompt) ?? '', raw: rest })
    } else if (type === 'compaction') {
      const meta: Json = {}
      for (const k of ['auto', 'overflow', 'tail_start_id']) if (d[k] !== undefined) meta[k] = d[k]
      others.push({ nodeId: p.id, role: 'system', content: '', event: 'compaction', metadata: meta })
    } else if (text?.trim()) others.push({ nodeId: p.id, role: 'system', content: text, event: 'unknown-event', metadata: { partType: type } })
    else unknownTypes.push(type)
  }
  for (const n of others) if (at !== undefined) n.createdAt = at
  const content = blocks.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n\n')
  if (blocks.length === 0 && others.length > 0) return others
  const node: MessageNode = { nodeId: m.id, role: 'user', content }
  if (at !== undefined) node.createdAt = at
  if (blocks.some((b) => b.type !== 'text')) node.blocks = blocks
  const meta = userMeta(m.data)
  if (mentions.length) meta.agentMentions = mentions
  if (Object.keys(meta).length) node.metadata = meta
  return [node, ...others]
}

/** Nodes of a message whose role is neither user nor assistant: its texts as unknown events. */
function otherNodes(m: StoredMessage, role: string): MessageNode[] {
  const text = m.parts.map((p) => str(p.data.text)).filter((t): t is string => !!t?.trim()).join('\n\n')
  if (!text) return []
  return [{ nodeId: m.id, role: 'system', content: text, event: 'unknown-event', metadata: { messageRole: role } }]
}

function problemAt(m: StoredMessage, message: string): Problem {
  return { severity: 'warning', path: m.path, message: m.isRow ? `table message, row ${m.id}: ${message}` : `message ${m.id}: ${message}` }
}

/**
 * Build the nodes of `messages` (already in store order). Messages after the session's revert
 * point (`revert.messageID`, OpenCode's undo) are kept with `metadata.reverted = true`.
 */
export function buildNodes(messages: StoredMessage[], revertMessageId?: string): BuiltNodes {
  const out: BuiltNodes = { nodes: [], checkpoints: [], partTypes: {}, messageRoles: {}, unmodeledPartTypes: [], problems: [] }
  const extras: AssistantExtras = { checkpoints: out.checkpoints, unknownTypes: [] }
  const seen = new Set<string>()
  let reverted = false
  for (const m of messages) {
    const role = str(m.data.role) ?? '(none)'
    out.messageRoles[role] = (out.messageRoles[role] ?? 0) + 1
    for (const p of m.parts) {
      const t = str(p.data.type) ?? '(none)'
      out.partTypes[t] = (out.partTypes[t] ?? 0) + 1
    }
    if (m.parts.length === 0 && m.data.error === undefined) {
      out.problems.push(problemAt(m, 'has no parts (OpenCode does not send such a message to the model); shown empty'))
    }
    if (role === 'assistant' && out.firstCwd === undefined) out.firstCwd = pickStr(obj(m.data.path), 'cwd')
    const made = role === 'user' ? userNodes(m, extras.unknownTypes) : role === 'assistant' ? assistantNodes(m, extras) : otherNodes(m, role)
    if (role !== 'user' && role !== 'assistant' && made.length === 0) out.problems.push(problemAt(m, `role "${role}" is unknown and carries no text; skipped`))
    if (m.id === revertMessageId) reverted = true
    const parentID = pickStr(m.data, 'parentID', 'parent_id', 'parentId')
    made.forEach((n, i) => {
      while (seen.has(n.nodeId)) n.nodeId += "'"
      seen.add(n.nodeId)
      if (i === 0 && parentID && role === 'assistant') n.metadata = { ...n.metadata, parentID }
      if (reverted) n.metadata = { ...n.metadata, reverted: true }
      const prev = out.nodes[out.nodes.length - 1]
      if (prev) n.parentNodeId = prev.nodeId
      out.nodes.push(n)
    })
  }
  out.unmodeledPartTypes = [...new Set(extras.unknownTypes)].sort()
  return out
}
