/**
 * Read one Claude Code transcript (`<project folder>/<session id>.jsonl`, or a sub-agent's
 * `<session id>/subagents/agent-<id>.jsonl`) into the IR.
 *
 * Store facts: seed 002 "Claude Code"; fixtures/real/claude-code/README.md (Claude Code 2.1.332);
 * the resume rules of the hand-written probe (realstores/README.md "Claude Code 2.1.332": the
 * file name is the session id and must be a UUID; a line that is not JSON is skipped).
 */
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { SepiaError } from '../../../shared/api'
import type { Session } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession } from '../../ir/build'
import type { ReadContext, StoreRef } from '../types'
import { readLines } from '../../util/lines'
import { type Json, obj, str } from './content'
import { METADATA_TYPES, SessionFacts } from './facts'
import { parseLine } from './parse'
import { Transcript } from './transcript'

/** Store generation of a top-level session file. */
export const FORMAT_SESSION = 'claude-code-jsonl'
/** Store generation of a sub-agent transcript. */
export const FORMAT_SUBAGENT = 'claude-code-subagent'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Broken parent links reported one by one before the rest are summed up. */
const MAX_LINK_DIAGNOSTICS = 20

/** Text an unknown record type carries (`content`/`text`, or a message's text), if any. */
function recordText(r: Json): string | undefined {
  const direct = str(r.content) ?? str(r.text)
  if (direct?.trim()) return direct
  const c = obj(r.message)?.content
  if (typeof c === 'string' && c.trim()) return c
  if (Array.isArray(c)) {
    const t = c.map((b) => str(obj(b)?.text)).filter((x): x is string => !!x).join('\n\n')
    if (t.trim()) return t
  }
  return undefined
}

/** Feed one record to the transcript and the facts. */
function take(r: Json, line: number, t: Transcript, facts: SessionFacts, expectedSessionId: string | undefined, counters: { noType: number }): void {
  let type = str(r.type)
  if (type === undefined) {
    const role = str(obj(r.message)?.role)
    facts.countType('(no type)')
    if (role !== 'user' && role !== 'assistant') return
    counters.noType++
    type = role
  } else facts.countType(type)
  facts.common(r, expectedSessionId)
  if (!t.firstSighting(str(r.uuid))) return
  switch (type) {
    case 'user':
      return t.user(r, line)
    case 'assistant':
      return t.assistant(r, line)
    case 'system':
      facts.countSystem(str(r.subtype) ?? '(none)')
      return t.system(r, line)
  }
  if (METADATA_TYPES.has(type)) {
    facts.metadataRecord(type, r)
    return t.skip(r)
  }
  const text = recordText(r)
  if (text !== undefined) t.unknown(r, line, type, text)
  else t.skip(r)
}

/** The sub-agent's `.meta.json` (agentType, description, toolUseId...), when listed in the ref. */
async function readMeta(ref: StoreRef, session: Session): Promise<Json | undefined> {
  const path = ref.files.find((f) => f.endsWith('.meta.json'))
  if (!path) return undefined
  try {
    return obj(JSON.parse(await readFile(path, 'utf8')))
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
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no file' })
  const isSub = ref.format === FORMAT_SUBAGENT
  const session = newSession('claude-code', ref.sessionId, ref.format, ref.files, ref.home)
  const t = new Transcript()
  const facts = new SessionFacts()
  const counters = { noType: 0 }
  let lines = 0
  try {
    for await (const { lineNo, text } of readLines(path)) {
      lines = lineNo
      const parsed = parseLine(text)
      if (parsed.problem) addDiagnostic(session, { severity: parsed.problem.severity, path, line: lineNo, message: parsed.problem.message })
      for (const r of parsed.records) take(r, lineNo, t, facts, isSub ? undefined : ref.sessionId, counters)
    }
  } catch (e) {
    const message = (e as Error).message
    if (lines === 0) throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${message}`, path })
    addDiagnostic(session, { severity: 'error', path, line: lines + 1, message: `reading stopped: ${message}` })
  }
  const broken = t.finish()
  session.nodes = t.nodes
  broken.slice(0, MAX_LINK_DIAGNOSTICS).forEach((b) =>
    addDiagnostic(session, { severity: 'warning', path, line: b.line, message: `parentUuid ${b.uuid} names no record in this file; the message starts a new branch` }),
  )
  if (broken.length > MAX_LINK_DIAGNOSTICS) {
    addDiagnostic(session, { severity: 'warning', path, message: `${broken.length - MAX_LINK_DIAGNOSTICS} more parentUuid links name no record` })
  }
  if (counters.noType > 0) {
    addDiagnostic(session, { severity: 'warning', path, message: `${counters.noType} record(s) have no "type"; read by message.role (Claude Code itself does not load them)` })
  }
  if (!isSub && !UUID.test(ref.sessionId)) {
    addDiagnostic(session, { severity: 'info', path, message: `file name "${basename(path)}" is not a UUID; Claude Code cannot resume this session by id` })
  }
  if (facts.otherSessionIds.size > 0) {
    const n = [...facts.otherSessionIds.values()].reduce((a, b) => a + b, 0)
    addDiagnostic(session, { severity: 'info', path, message: `${n} record(s) carry a sessionId other than the file name's (${[...facts.otherSessionIds.keys()].slice(0, 3).join(', ')})` })
  }

  if (facts.cwd !== undefined) session.workingDirectory = facts.cwd
  if (facts.gitBranch !== undefined) session.git = { branch: facts.gitBranch }
  const title = facts.title()
  if (title !== undefined) session.title = title
  if (facts.usage) session.usage = facts.usage
  session.createdAt = facts.firstAt
  session.lastActivityAt = facts.lastAt
  const model = t.nodes.find((n) => n.role === 'assistant' && n.model && n.model !== '<synthetic>')?.model
  if (model !== undefined) session.model = model
  session.checkpoints = facts.listCheckpoints((uuid) => t.nodeOf(uuid))
  session.metadata = facts.metadata()
  if (t.duplicates > 0) session.metadata.replayedRecords = t.duplicates

  if (isSub) await subagentFields(ref, session, facts.sessionId)
  else linkChildren(session, ref)
  return finishSession(session)
}

/**
 * Sub-agent: parent id (the folder it sits in, else the records' `sessionId`, which is the
 * parent's), agent id, the spawning call (`.meta.json` `toolUseId`), title from its description.
 */
async function subagentFields(ref: StoreRef, session: Session, recordSessionId: string | undefined): Promise<void> {
  session.agentName = ref.sessionId
  const parent = ref.parentSessionId ?? recordSessionId
  if (parent !== undefined) session.parentSessionId = parent
  const meta = await readMeta(ref, session)
  if (!meta) return
  session.metadata.subagent = meta
  const toolUseId = str(meta.toolUseId)
  if (toolUseId !== undefined) session.parentToolCallId = toolUseId
  const description = str(meta.description)
  if (description !== undefined && session.title === undefined) session.title = description
}

/**
 * Parent session: its sub-agents (discovery's `hints.subagentIds`) become `childSessionIds`, and
 * the Agent/Task call whose result names an agent id (`toolUseResult.agentId`) points at it.
 */
function linkChildren(session: Session, ref: StoreRef): void {
  const ids = ref.hints?.subagentIds
  if (!Array.isArray(ids) || ids.length === 0) return
  const children = ids.filter((x): x is string => typeof x === 'string')
  session.childSessionIds = [...children]
  const byCall = new Map<string, string>()
  for (const n of session.nodes) {
    const agentId = n.metadata?.agentId
    if (n.role === 'tool' && n.toolCallId && typeof agentId === 'string' && children.includes(agentId)) byCall.set(n.toolCallId, agentId)
  }
  for (const n of session.nodes) for (const c of n.toolCalls ?? []) {
    const child = byCall.get(c.id)
    if (child !== undefined) c.subagentSessionId = child
  }
}
