/**
 * Turn one read {@link Session} into the rows the catalog keeps: the list summary, one message
 * row per node with text (searchable text, capped), one usage row per node with token usage, and
 * the link skeleton (what the agents' `link()` functions look at). Pure: no I/O.
 */
import { maskText } from '../secrets/mask'
import type { MessageNode, Session, SessionSummary, ToolCall, Usage } from '../../shared/ir'
import { isPrompt, summarize } from '../ir/build'
import type { StoreRef } from '../agents/types'
import type { CredentialFile } from '../../shared/api'
import { encryptionKeyFiles } from '../secrets'

/** Characters of a user/assistant/system message indexed for search. */
export const MAX_MESSAGE_CHARS = 16_000
/** Characters of a tool result (and of thinking) indexed for search: the head of the output. */
export const MAX_TOOL_CHARS = 4_000
/** Characters of one tool call's arguments indexed for search. */
export const MAX_ARGS_CHARS = 1_000
/** Diagnostics kept per session for the library's problem list. */
export const MAX_DIAGNOSTICS = 20
/** Largest arguments JSON of a tool call kept whole in the link skeleton. */
const MAX_SKELETON_ARGS = 16_000

/** One message row. */
export interface MessageRow {
  seq: number
  nodeId: string
  role: MessageNode['role']
  createdAt?: number
  model?: string
  /** Space-delimited tool names (` Bash Read `) for the tool filter; empty when none. */
  toolNames: string
  /** Signature of the node's content (length, usage): unchanged rows are kept on re-index. */
  sig: string
  text: string
  usage?: Usage
}

/** Everything the catalog stores for one session. */
export interface SessionRecord {
  ref: StoreRef
  summary: SessionSummary
  models: string[]
  nodeCount: number
  messages: MessageRow[]
  skeleton: Session
  /**
   * Further skeleton nodes already serialized, as JSON arrays of nodes (the streaming path keeps
   * its nodes as JSON text and leaves `skeleton.nodes` empty): the stored skeleton is `skeleton`
   * with these nodes appended, in order (`CatalogStore.skeletons`).
   */
  skeletonParts?: string[]
  diagnostics: Session['diagnostics']
  /** Encryption-key files the session's store names (flagged in `Library.credentialFiles`). */
  credentialFiles: CredentialFile[]
}

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text
}

function argsText(call: ToolCall): string {
  const a = call.arguments
  if (a === undefined || a === null) return ''
  if (typeof a === 'string') return cut(a, MAX_ARGS_CHARS)
  let s: string
  try {
    s = JSON.stringify(a)
  } catch {
    return ''
  }
  return cut(s, MAX_ARGS_CHARS)
}

/** The searchable text of a node (see the MAX_* limits), masked. */
export function searchText(n: MessageNode): string {
  // Indexed masked (issue 16): a prefix query must not confirm a masked secret character by character.
  return maskText(unmaskedSearchText(n)).text
}

/** {@link searchText} before masking. */
function unmaskedSearchText(n: MessageNode): string {
  const parts: string[] = []
  const max = n.role === 'tool' ? MAX_TOOL_CHARS : MAX_MESSAGE_CHARS
  if (n.content) parts.push(cut(n.content, max))
  for (const b of n.blocks ?? []) {
    if (b.type === 'file' && b.path) parts.push(b.path)
    else if (b.type === 'unknown' && b.text && !n.content.includes(b.text)) parts.push(cut(b.text, MAX_TOOL_CHARS))
  }
  if (n.thinking) parts.push(cut(n.thinking, MAX_TOOL_CHARS))
  for (const c of n.toolCalls ?? []) {
    parts.push(c.name)
    const a = argsText(c)
    if (a) parts.push(a)
  }
  return parts.join('\n')
}

function usageSig(u: Usage | undefined): string {
  if (!u) return ''
  return [u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens, u.thinkingTokens, u.cost].map((x) => x ?? '').join(',')
}

function hasUsage(u: Usage | undefined): u is Usage {
  return !!u && (u.inputTokens !== undefined || u.outputTokens !== undefined || u.cacheReadTokens !== undefined || u.cacheWriteTokens !== undefined || u.cost !== undefined)
}

/**
 * A copy of the session small enough to keep for linking: every node keeps its id, role, tool
 * call ids/names/arguments (arguments over 16 kB are dropped), tool-result ids and
 * `metadata.agentId`; only the first user prompt keeps its text. The link functions of every
 * agent (`src/main/agents/<agent>/link.ts`) read only these fields, the session's own ids,
 * title, times and `metadata.sessionRow`.
 */
export function skeletonOf(session: Session): Session {
  let promptKept = false
  const nodes: MessageNode[] = []
  for (const n of session.nodes) {
    const keepText = !promptKept && isPrompt(n)
    if (keepText) promptKept = true
    const s = skeletonNode(n, keepText)
    if (s) nodes.push(s)
  }
  return skeletonShell(session, nodes)
}

/**
 * The skeleton copy of one node (see {@link skeletonOf}), or undefined when the link pass does
 * not need it. `keepText`: this is the session's first prompt ({@link isPrompt}).
 */
export function skeletonNode(n: MessageNode, keepText: boolean): MessageNode | undefined {
  const agentId = n.metadata?.agentId
  if (!keepText && !n.toolCalls?.length && !(n.role === 'tool' && n.toolCallId)) return undefined
  const s: MessageNode = { nodeId: n.nodeId, role: n.role, content: keepText ? n.content : '' }
  if (n.toolCallId !== undefined) s.toolCallId = n.toolCallId
  if (agentId !== undefined) s.metadata = { agentId }
  if (n.toolCalls?.length) {
    s.toolCalls = n.toolCalls.map((c) => {
      const copy: ToolCall = { id: c.id, name: c.name, kind: c.kind, arguments: {} }
      try {
        if (JSON.stringify(c.arguments ?? null).length <= MAX_SKELETON_ARGS) copy.arguments = c.arguments
      } catch {
        // unserialisable arguments: keep none
      }
      if (c.subagentSessionId !== undefined) copy.subagentSessionId = c.subagentSessionId
      return copy
    })
  }
  return s
}

/** Characters of one stored skeleton part (about; `stream.ts`, `schema.ts` `skeletons`). */
export const SKELETON_PART_CHARS = 1 << 20

/** The skeleton session around skeleton `nodes` (session fields, no diagnostics or checkpoints). */
export function skeletonShell(session: Session, nodes: MessageNode[]): Session {
  const metadata: Record<string, unknown> = {}
  if (session.metadata.sessionRow !== undefined) metadata.sessionRow = session.metadata.sessionRow
  const { nodes: _n, diagnostics: _d, checkpoints: _c, metadata: _m, promptHistory: _p, ...rest } = session
  return { ...rest, nodes, diagnostics: [], checkpoints: [], metadata }
}

/**
 * A message row before masking (the lighter first pass of a cold index keeps these and masks them
 * in its second pass, `rows.ts`): `text` is the unmasked search text, and there is no `sig` yet
 * (it counts the masked text's length). `contentLength` is the node's `content.length`.
 */
export interface RawMessageRow extends Omit<MessageRow, 'sig'> {
  contentLength: number
}

/**
 * The unmasked row of node `n` (index `seq` in the session's nodes), or undefined when it has
 * neither searchable text nor usage (masking never empties a text, nor fills an empty one).
 * Tool nodes must have been paired (`toolName`) first.
 */
export function rawMessageRow(n: MessageNode, seq: number): RawMessageRow | undefined {
  const text = unmaskedSearchText(n)
  const usage = hasUsage(n.usage) ? n.usage : undefined
  if (text === '' && !usage) return undefined
  const row: RawMessageRow = {
    seq,
    nodeId: n.nodeId,
    // Search role "user" is what the person typed: text the agent injected as a user message
    // (isMeta: caveats, skills, compact summaries) is searched as "system" (issue 14, point 1).
    role: n.role === 'user' && n.isMeta ? 'system' : n.role,
    toolNames: toolNamesOf(n),
    contentLength: n.content.length,
    text,
  }
  if (n.createdAt !== undefined) row.createdAt = n.createdAt
  if (n.model !== undefined) row.model = n.model
  if (usage) row.usage = usage
  return row
}

/** The stored row of a raw row: its text masked, its signature made (see {@link messageRow}). */
export function finishRow(r: RawMessageRow): MessageRow {
  const text = maskText(r.text).text
  const row: MessageRow = {
    seq: r.seq,
    nodeId: r.nodeId,
    role: r.role,
    toolNames: r.toolNames,
    sig: `${r.nodeId}|${r.contentLength}|${text.length}|${usageSig(r.usage)}|${r.model ?? ''}|${r.createdAt ?? ''}`,
    text,
  }
  if (r.createdAt !== undefined) row.createdAt = r.createdAt
  if (r.model !== undefined) row.model = r.model
  if (r.usage) row.usage = r.usage
  return row
}

/**
 * The message row of node `n` (index `seq` in the session's nodes), or undefined when it has
 * neither searchable text nor usage. Tool nodes must have been paired (`toolName`) first.
 */
export function messageRow(n: MessageNode, seq: number): MessageRow | undefined {
  const raw = rawMessageRow(n, seq)
  return raw && finishRow(raw)
}

/** The `tool_names` value of a node: its calls' names, or a tool result's tool, space-delimited. */
export function toolNamesOf(n: MessageNode): string {
  const names = n.toolCalls?.length ? n.toolCalls.map((c) => c.name) : n.role === 'tool' && n.toolName ? [n.toolName] : []
  return names.length ? ` ${names.join(' ')} ` : ''
}

/** Models counted in the catalog's `models` column (the `<synthetic>` placeholder is not one). */
export function countedModel(n: MessageNode): string | undefined {
  return n.model && n.model !== '<synthetic>' ? n.model : undefined
}

/** Non-info diagnostics kept for the library's problem list. */
export function keptDiagnostics(diagnostics: Session['diagnostics']): Session['diagnostics'] {
  return diagnostics.filter((d) => d.severity !== 'info').slice(0, MAX_DIAGNOSTICS)
}

/** Build the catalog record of a session read from `ref` (before any link pass). */
export function extractSession(session: Session, ref: StoreRef): SessionRecord {
  const messages: MessageRow[] = []
  const head = extractHead(session, ref, (r) => messages.push(finishRow(r)))
  return { ...head, messages }
}

/**
 * {@link extractSession} without the message rows: each node's raw row goes to `onRow` (in seq
 * order), unmasked (the lighter first pass, `rows.ts`).
 */
export function extractHead(session: Session, ref: StoreRef, onRow: (r: RawMessageRow) => void): Omit<SessionRecord, 'messages'> {
  const summary = summarize(session, ref.home)
  const models = new Set<string>()
  session.nodes.forEach((n, seq) => {
    const model = countedModel(n)
    if (model) models.add(model)
    const row = rawMessageRow(n, seq)
    if (row) onRow(row)
  })
  return { ref, summary, models: [...models], nodeCount: session.nodes.length, skeleton: skeletonOf(session), diagnostics: keptDiagnostics(session.diagnostics), credentialFiles: encryptionKeyFiles([session]) }
}
