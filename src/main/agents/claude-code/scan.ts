/**
 * One pass over a Claude Code transcript, shared by the reader (`read.ts`, every node kept) and
 * the catalog's streaming index path (`stream.ts`, nodes handed over as they finish): each line
 * is parsed (`parse.ts`), each record fed to the transcript (`transcript.ts`) and the session
 * facts (`facts.ts`), then the session-level fields are set.
 *
 * Store facts: seed 002 "Claude Code"; fixtures/real/claude-code/README.md (Claude Code 2.1.332);
 * the resume rules of the hand-written probe (realstores/README.md "Claude Code 2.1.332": the
 * file name is the session id and must be a UUID; a line that is not JSON is skipped).
 */
import { basename } from 'node:path'
import { SepiaError } from '../../../shared/api'
import type { Diagnostic, Session } from '../../../shared/ir'
import type { StoreRef } from '../types'
import { forEachLine } from '../../util/lines'
import { LARGE_SESSION_NODES, nextTurn } from '../../util/turn'
import { type Json, obj, str } from './content'
import { METADATA_TYPES, SessionFacts } from './facts'
import { parseLine } from './parse'
import type { Transcript } from './transcript'
import { FORMAT_INLINE_SIDECHAIN, inlineThreadHint, inlineThreadsHint, ThreadMembers } from './sidechain'
import { plural } from '../../../shared/plural'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Broken parent links reported one by one before the rest are summed up. */
const MAX_LINK_DIAGNOSTICS = 20

/** Where a pass reports problems (`addDiagnostic` of the session, or a capped list). */
export type DiagnosticSink = (d: Omit<Diagnostic, 'sessionId' | 'agent'>) => void

/** How a pass is run. */
export interface ScanOptions {
  /** A sub-agent transcript (its records carry the parent's `sessionId`). */
  isSub: boolean
  diag: DiagnosticSink
  /** Called before the records of each line (the streaming transcript releases nodes there). */
  beforeLine?: (lineNo: number, offset: number) => void
  /** The first assistant model that is not `<synthetic>`, asked once the transcript is finished. */
  model: () => string | undefined
}

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

/**
 * Which records of the file a pass reads: an inline sub-agent thread's ref reads only that
 * thread's records (`child`), a parent that lists its inline threads reads all but theirs.
 */
interface ThreadFilter {
  members: ThreadMembers
  child: boolean
}

/** The filter `ref`'s hints ask for, if any (see `sidechain.ts`). */
function threadFilter(ref: StoreRef): ThreadFilter | undefined {
  if (ref.format === FORMAT_INLINE_SIDECHAIN) {
    const t = inlineThreadHint(ref.hints)
    return { members: new ThreadMembers(new Set(t ? [t.root] : [])), child: true }
  }
  const threads = inlineThreadsHint(ref.hints)
  return threads ? { members: new ThreadMembers(new Set(threads.map((x) => x.root))), child: false } : undefined
}

/** Feed one record to the transcript and the facts. */
function take(r: Json, line: number, t: Transcript, facts: SessionFacts, expectedSessionId: string | undefined, counters: { noType: number }, filter: ThreadFilter | undefined): void {
  if (filter && filter.members.take(r) !== filter.child) {
    // The parent leaves its inline threads to their own sessions; their chains still resolve.
    if (!filter.child) t.skip(r)
    return
  }
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

/**
 * Why a `user` or `assistant` record's message cannot be read (its `message` not an object, or its
 * `content` neither text nor a list of blocks), or undefined: nothing of such a record is read, so it
 * must not vanish without a word (a damaged line that still parses as JSON).
 */
function unreadableMessage(r: Json): string | undefined {
  const type = str(r.type) ?? str(obj(r.message)?.role)
  if (type !== 'user' && type !== 'assistant') return undefined
  if (r.message === undefined) return undefined
  const m = obj(r.message)
  if (!m) return `the ${type} record's "message" is ${kindOf(r.message)}, not an object; nothing is read from it`
  const c = m.content
  if (c === undefined || typeof c === 'string' || Array.isArray(c)) return undefined
  return `the ${type} record's message content is ${kindOf(c)}, not text or a list of blocks; nothing is read from it`
}

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`
}

/**
 * Read `ref`'s transcript into `t` and `session`: bad lines become diagnostics (one per line,
 * with its number), then the transcript is finished and the session fields set (everything the
 * reader does before it links sub-agents). Rejects with `READ_FAILED` only when the transcript
 * cannot be opened at all. Returns the facts (the records' `sessionId`...).
 */
export async function scanTranscript(ref: StoreRef, session: Session, t: Transcript, o: ScanOptions): Promise<SessionFacts> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no file' })
  const facts = new SessionFacts()
  t.inlineSidechainsAreMeta = !o.isSub
  const counters = { noType: 0 }
  const filter = threadFilter(ref)
  const expected = o.isSub ? undefined : ref.sessionId
  let lines = 0
  // A failure of `beforeLine` (the catalog's writes) is not a read problem: it rejects the pass.
  let failed = false
  try {
    await forEachLine(path, (text, lineNo, offset) => {
      lines = lineNo
      try {
        o.beforeLine?.(lineNo, offset)
      } catch (e) {
        failed = true
        throw e
      }
      const parsed = parseLine(text)
      if (parsed.problem) o.diag({ severity: parsed.problem.severity, path, line: lineNo, message: parsed.problem.message })
      for (const r of parsed.records) {
        const bad = unreadableMessage(r)
        if (bad) o.diag({ severity: 'error', path, line: lineNo, message: bad })
        take(r, lineNo, t, facts, expected, counters, filter)
      }
    }, { size: ref.files.length === 1 ? ref.size : undefined })
  } catch (e) {
    if (failed) throw e
    const message = (e as Error).message
    if (lines === 0) throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${message}`, path })
    o.diag({ severity: 'error', path, line: lines + 1, message: `reading stopped: ${message}` })
  }
  // The lines took many turns; finishing a large transcript is a pass of its own (in slices).
  if (t.nodes.length >= LARGE_SESSION_NODES) await nextTurn()
  const broken = await t.finish()
  broken.slice(0, MAX_LINK_DIAGNOSTICS).forEach((b) =>
    o.diag({ severity: 'warning', path, line: b.line, message: `parentUuid ${b.uuid} names no record in this file; the message starts a new branch` }),
  )
  if (broken.length > MAX_LINK_DIAGNOSTICS) {
    o.diag({ severity: 'warning', path, message: `${broken.length - MAX_LINK_DIAGNOSTICS} more parentUuid links name no record` })
  }
  if (counters.noType > 0) {
    o.diag({ severity: 'warning', path, message: `${plural(counters.noType, 'record has', 'records have')} no "type"; read by message.role (Claude Code itself does not load ${counters.noType === 1 ? 'it' : 'them'})` })
  }
  if (!o.isSub && !UUID.test(ref.sessionId)) {
    o.diag({ severity: 'info', path, message: `file name "${basename(path)}" is not a UUID; Claude Code cannot resume this session by id` })
  }
  if (facts.otherSessionIds.size > 0) {
    const n = [...facts.otherSessionIds.values()].reduce((a, b) => a + b, 0)
    o.diag({ severity: 'info', path, message: `${plural(n, 'record carries', 'records carry')} a sessionId other than the file name's (${[...facts.otherSessionIds.keys()].slice(0, 3).join(', ')})` })
  }

  if (facts.cwd !== undefined) session.workingDirectory = facts.cwd
  if (facts.gitBranch !== undefined) session.git = { branch: facts.gitBranch }
  const title = facts.title(t.apiErrors)
  if (title !== undefined) session.title = title
  if (facts.usage) session.usage = facts.usage
  session.createdAt = facts.firstAt
  session.lastActivityAt = facts.lastAt
  // A file of `summary` lines only (Claude Code 1.x leaves them: fixtures/public-real/claude-code
  // sword-1090-siblings ccd2d482, pai-project-folder d0608523), or with no record at all (a 0-byte
  // file: pai-project-folder 98098c74, listed as an empty session with its diagnostic, issue 16),
  // has no dated record: it is dated by the file's last change, so it lists with a date rather than none.
  if (facts.firstAt === undefined && ref.mtimeMs > 0 && onlySummaries(facts.recordTypes)) {
    session.createdAt = ref.mtimeMs
    session.lastActivityAt = ref.mtimeMs
  }
  const model = o.model()
  if (model !== undefined) session.model = model
  session.checkpoints = facts.listCheckpoints((uuid) => t.nodeOf(uuid))
  session.metadata = facts.metadata()
  if (t.duplicates > 0) session.metadata.replayedRecords = t.duplicates
  if (facts.firstAt === undefined && session.createdAt !== undefined) session.metadata.datedBy = 'file-mtime'
  return facts
}

/** True when every record read was a `summary` line, or none was read. */
function onlySummaries(types: Record<string, number>): boolean {
  return Object.keys(types).every((k) => k === 'summary')
}
