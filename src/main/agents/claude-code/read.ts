/**
 * Read one Claude Code transcript (`<project folder>/<session id>.jsonl`, a sub-agent's
 * `<session id>/subagents/agent-<id>.jsonl`, or one 1.x inline sub-agent thread of a session file,
 * `sidechain.ts`) into the IR.
 *
 * Store facts: seed 002 "Claude Code"; fixtures/real/claude-code/README.md (Claude Code 2.1.332);
 * the resume rules of the hand-written probe (realstores/README.md "Claude Code 2.1.332": the
 * file name is the session id and must be a UUID; a line that is not JSON is skipped).
 */
import { readFile } from 'node:fs/promises'
import type { MessageNode, Session } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession, nodeTotals } from '../../ir/build'
import type { ReadContext, StoreRef } from '../types'
import { type Json, obj, str } from './content'
import { scanTranscript } from './scan'
import { Transcript } from './transcript'
import { readRegularFile } from '../../util/regular-file'
import { LARGE_SESSION_NODES, nextTurn } from '../../util/turn'
import { FORMAT_INLINE_SIDECHAIN, inlineThreadHint, inlineThreadsHint } from './sidechain'
import { FORMAT_SUBAGENT } from './format'

/** Moved to ./format.ts so discovery and the census load without this reader; kept here for its importers. */
export { FORMAT_SESSION, FORMAT_SUBAGENT } from './format'

/** True for a ref read as a sub-agent: a sub-agent file, or a 1.x inline thread (`sidechain.ts`). */
export function isSubagentRef(ref: StoreRef): boolean {
  return ref.format === FORMAT_SUBAGENT || ref.format === FORMAT_INLINE_SIDECHAIN
}

/** True for an assistant node that names a real model (not the `<synthetic>` placeholder). */
export function isRealModel(n: MessageNode): boolean {
  return n.role === 'assistant' && !!n.model && n.model !== '<synthetic>'
}

/** The sub-agent's `.meta.json` (agentType, description, toolUseId...), when listed in the ref. */
async function readMeta(ref: StoreRef, session: Session): Promise<Json | undefined> {
  const path = ref.files.find((f) => f.endsWith('.meta.json'))
  if (!path) return undefined
  try {
    return obj(JSON.parse(await readRegularFile(path)))
  } catch (e) {
    addDiagnostic(session, { severity: 'warning', path, message: `sub-agent metadata is unreadable (${(e as Error).message}); ignored` })
    return undefined
  }
}

/**
 * Read one session. Bad lines become diagnostics (one per line, with its number); rejects with
 * `READ_FAILED` only when the transcript cannot be opened at all.
 */
export async function readSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const isSub = isSubagentRef(ref)
  const session = newSession('claude-code', ref.sessionId, ref.format, ref.files, ref.home)
  const t = new Transcript()
  const facts = await scanTranscript(ref, session, t, { isSub, diag: (d) => addDiagnostic(session, d), model: () => t.nodes.find(isRealModel)?.model })
  session.nodes = t.nodes
  if (isSub) await subagentFields(ref, session, facts.sessionId)
  else {
    linkChildren(session, ref)
    linkInlineThreads(session, ref)
    linkInlineSidechains(session)
  }
  // Linking, the totals and pairing the calls of a large session are passes of their own (util/turn.ts).
  const large = session.nodes.length >= LARGE_SESSION_NODES
  if (large) await nextTurn()
  const totals = nodeTotals(session.nodes)
  if (large) await nextTurn()
  return finishSession(session, totals)
}

/**
 * Sub-agent: parent id (the folder it sits in, else the records' `sessionId`, which is the
 * parent's), agent id, the spawning call (`.meta.json` `toolUseId`), title from its description.
 */
export async function subagentFields(ref: StoreRef, session: Session, recordSessionId: string | undefined): Promise<void> {
  session.agentName = ref.sessionId
  const parent = ref.parentSessionId ?? recordSessionId
  if (parent !== undefined) session.parentSessionId = parent
  const thread = ref.format === FORMAT_INLINE_SIDECHAIN ? inlineThreadHint(ref.hints) : undefined
  if (thread) {
    // A 1.x inline thread: what a `.meta.json` would say comes from its Task call's input.
    const sub: Json = { inline: true, rootUuid: thread.root }
    if (thread.agentType !== undefined) sub.agentType = thread.agentType
    if (thread.description !== undefined) sub.description = thread.description
    if (thread.toolUseId !== undefined) {
      sub.toolUseId = thread.toolUseId
      session.parentToolCallId = thread.toolUseId
    }
    session.metadata.subagent = sub
    if (thread.description !== undefined && session.title === undefined) session.title = thread.description
    return
  }
  const meta = await readMeta(ref, session)
  if (!meta) return
  session.metadata.subagent = meta
  const toolUseId = str(meta.toolUseId)
  if (toolUseId !== undefined) session.parentToolCallId = toolUseId
  const description = str(meta.description)
  if (description !== undefined && session.title === undefined) session.title = description
}

/** The sub-agent ids discovery listed for a parent session (`hints.subagentIds`), if any. */
export function subagentIdsOf(ref: StoreRef): string[] | undefined {
  const ids = ref.hints?.subagentIds
  if (!Array.isArray(ids) || ids.length === 0) return undefined
  return ids.filter((x): x is string => typeof x === 'string')
}

/**
 * Note a tool result that names one of `children` (`toolUseResult.agentId`, kept as
 * `metadata.agentId`): `byCall` maps its call id to that sub-agent (the last result wins).
 */
export function noteChildCall(byCall: Map<string, string>, n: MessageNode, children: readonly string[]): void {
  const agentId = n.metadata?.agentId
  if (n.role === 'tool' && n.toolCallId && typeof agentId === 'string' && children.includes(agentId)) byCall.set(n.toolCallId, agentId)
}

/**
 * Parent session: its sub-agents (discovery's `hints.subagentIds`) become `childSessionIds`, and
 * the Agent/Task call whose result names an agent id (`toolUseResult.agentId`) points at it.
 */
function linkChildren(session: Session, ref: StoreRef): void {
  const children = subagentIdsOf(ref)
  if (!children) return
  session.childSessionIds = [...children]
  const byCall = new Map<string, string>()
  for (const n of session.nodes) noteChildCall(byCall, n, children)
  for (const n of session.nodes) for (const c of n.toolCalls ?? []) {
    const child = byCall.get(c.id)
    if (child !== undefined) c.subagentSessionId = child
  }
}

/** Task call id → child session id of the inline threads discovery listed (`hints.inlineThreads`). */
export function inlineCallLinks(ref: StoreRef): Map<string, string> {
  const out = new Map<string, string>()
  for (const t of inlineThreadsHint(ref.hints) ?? []) if (t.toolUseId !== undefined) out.set(t.toolUseId, t.id)
  return out
}

/**
 * Parent of 1.x inline threads (`sidechain.ts`): each thread discovery listed is a child session
 * (`childSessionIds`), and its Task call points at it (`subagentSessionId`).
 */
function linkInlineThreads(session: Session, ref: StoreRef): void {
  const threads = inlineThreadsHint(ref.hints)
  if (!threads) return
  session.childSessionIds = [...(session.childSessionIds ?? []), ...threads.map((t) => t.id)]
  const byCall = inlineCallLinks(ref)
  for (const n of session.nodes) for (const c of n.toolCalls ?? []) {
    const child = byCall.get(c.id)
    if (child !== undefined) c.subagentSessionId = child
  }
}

/**
 * Fallback for inline records no listed thread took (a ref without `hints.inlineThreads`).
 * Claude Code 1.x wrote a Task sub-agent's records inline (`isSidechain: true`; the transcript
 * keeps their nodes as meta with `metadata.isSidechain`). Each such thread starts with a user
 * record holding the Task call's `prompt` (fixtures/public-real/claude-code sword-1090-siblings,
 * 1.0.90). Every node of the thread gets `metadata.sidechainToolCallId`: the id of that Task call,
 * so the thread sits under it. A thread whose prompt matches no Task call is left unlinked.
 */
export function linkInlineSidechains(session: Session): void {
  const byPrompt = new Map<string, string>()
  for (const n of session.nodes) {
    for (const c of n.toolCalls ?? []) {
      const prompt = obj(c.arguments)?.prompt
      if ((c.name === 'Task' || c.name === 'Agent') && typeof prompt === 'string' && !byPrompt.has(prompt.trim())) byPrompt.set(prompt.trim(), c.id)
    }
  }
  if (byPrompt.size === 0) return
  const callOf = new Map<string, string>()
  const used = new Set<string>()
  for (const n of session.nodes) {
    if (n.metadata?.isSidechain !== true) continue
    let call = n.parentNodeId !== undefined ? callOf.get(n.parentNodeId) : undefined
    if (n.role === 'user' && !n.event) {
      const match = byPrompt.get(n.content.trim())
      if (match !== undefined && !used.has(match)) {
        call = match
        used.add(match)
      }
    }
    if (call === undefined) continue
    callOf.set(n.nodeId, call)
    n.metadata = { ...n.metadata, sidechainToolCallId: call }
  }
}