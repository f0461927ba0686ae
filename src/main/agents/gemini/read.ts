/**
 * Read one Gemini CLI session (its chats file or files, plus the project files discovery listed) into
 * the IR. Store facts: fixtures/real/gemini/README.md (Gemini CLI 0.61.0) and
 * google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts; see log.ts for the
 * replay rules and nodes.ts for the message shapes.
 */
import { basename } from 'node:path'
import { SepiaError } from '../../../shared/api'
import type { Session } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession } from '../../ir/build'
import type { ReadContext, StoreRef } from '../types'
import { type FileProblem, readJsonlFile, readLegacyFile, type UnknownCounts } from './files'
import { ConversationLog } from './log'
import { buildNodes } from './nodes'
import { readProjectFacts, storePaths } from './project'
import type { Json } from './values'
import { isoToMs, plainText, str } from './values'

/** Moved to ./format.ts so discovery and the census load without this reader; kept here for its importers. */
export { FORMAT_JSONL, FORMAT_JSON, FORMAT_SUBAGENT } from './format'

/** True for a file that holds conversation records (not a project file). */
export function isChatFile(path: string): boolean {
  const name = basename(path)
  return /\.jsonl?$/.test(name) && name !== 'projects.json' && name !== 'logs.json' && !name.startsWith('checkpoint-')
}

/** Read every chats file of the ref into one log; rejects only when the primary file cannot be opened. */
async function readChats(files: string[], log: ConversationLog, unknown: UnknownCounts): Promise<FileProblem[]> {
  const problems: FileProblem[] = []
  for (const [i, path] of files.entries()) {
    try {
      const read = path.endsWith('.json') ? readLegacyFile : readJsonlFile
      problems.push(...(await read(path, log, unknown, i)))
    } catch (e) {
      const message = (e as Error).message
      if (i === 0) throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${message}`, path })
      problems.push({ severity: 'error', path, message: `cannot read this part of the session: ${message}` })
    }
  }
  return problems
}

/** Session-level fields from the headers and `$set` patches. */
function applyHeaders(session: Session, log: ConversationLog, ref: StoreRef, primary: string): Json | undefined {
  const header = log.headers[0]?.record
  const p = log.patched
  if (!header) {
    addDiagnostic(session, {
      severity: 'warning',
      path: primary,
      line: 1,
      message: 'no header line (sessionId, projectHash): Gemini CLI neither lists nor resumes this session; read anyway, the id is the file name',
    })
  } else {
    const id = str(header.sessionId)
    if (id !== undefined && id !== ref.sessionId) {
      addDiagnostic(session, { severity: 'info', path: primary, line: log.headers[0]!.line, message: `header sessionId ${id} differs from ${ref.sessionId}` })
    }
  }
  const setId = str(p.sessionId)
  if (setId !== undefined && setId !== ref.sessionId) {
    addDiagnostic(session, { severity: 'info', path: primary, message: `a $set record renames the session to ${setId}; kept ${ref.sessionId}` })
  }
  const created = isoToMs(header?.startTime)
  if (created !== undefined) session.createdAt = created
  const kind = str(p.kind) ?? str(header?.kind)
  const summary = str(p.summary) ?? str(header?.summary)
  if (summary !== undefined && kind !== 'subagent') session.title = summary
  const meta = session.metadata
  for (const [k, v] of [
    ['projectHash', header?.projectHash],
    ['kind', kind],
    ['directories', p.directories ?? header?.directories],
    ['summary', summary],
    ['memoryScratchpad', p.memoryScratchpad],
    // Sepia's own header field on a converted session (write.ts): where it came from.
    ['importedFrom', p.importedFrom ?? header?.importedFrom],
  ] as const) {
    if (v !== undefined) meta[k] = v
  }
  const resumed = log.headers.slice(1).map((h) => str(h.record.startTime)).filter((t): t is string => !!t)
  if (resumed.length) meta.resumedAt = resumed
  const others = Object.keys(p).filter((k) => !['lastUpdated', 'sessionId', 'kind', 'summary', 'directories', 'memoryScratchpad', 'importedFrom'].includes(k))
  if (others.length) meta.setFields = Object.fromEntries(others.map((k) => [k, p[k]]))
  return header ? { ...header, ...(p.directories !== undefined && { directories: p.directories }) } : undefined
}

/**
 * Read one session. Bad lines become diagnostics (one per line, with its number); rejects with
 * `READ_FAILED` only when the primary chats file cannot be opened.
 */
export async function readSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const chats = ref.files.filter(isChatFile)
  const primary = chats[0]
  if (primary === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no chats file' })
  const session = newSession('gemini', ref.sessionId, ref.format, ref.files, ref.home)
  const log = new ConversationLog()
  const unknown: UnknownCounts = {}
  for (const p of await readChats(chats, log, unknown)) addDiagnostic(session, p)
  for (const r of log.unmatchedRewinds) {
    addDiagnostic(session, { severity: 'warning', path: r.path, line: r.line, message: `$rewindTo names no message (${r.id}); the CLI drops the whole history here, Sepia keeps it as a branch` })
  }
  for (const h of log.badHeaders) {
    addDiagnostic(session, { severity: 'warning', path: h.path, line: h.line, message: `the header's ${h.field} is not text (a damaged header?); the session is read without it` })
  }
  const header = applyHeaders(session, log, ref, primary)
  const { nodes, stats } = buildNodes(log)
  session.nodes = nodes
  if (ref.parentSessionId !== undefined) session.parentSessionId = ref.parentSessionId

  const context = log.list().find((m) => m.record.type === 'user' && /^\s*<session_context>/.test(plainText(m.record.content)))
  const facts = await readProjectFacts({
    chatFile: primary,
    sessionId: ref.sessionId,
    header,
    contextText: context ? plainText(context.record.content) : undefined,
    checkpointFiles: ref.files.filter((f) => basename(f).startsWith('checkpoint-')),
  })
  for (const d of facts.diagnostics) addDiagnostic(session, d)
  if (facts.workingDirectory !== undefined) session.workingDirectory = facts.workingDirectory
  if (facts.promptHistory) session.promptHistory = facts.promptHistory
  const meta = session.metadata
  if (facts.cwdSource !== undefined) meta.cwdSource = facts.cwdSource
  const paths = storePaths(primary)
  if (paths) meta.projectFolder = basename(paths.projectDir)
  if (facts.savedChats) meta.projectSavedChats = facts.savedChats
  meta.records = { ...log.counts }
  if (Object.keys(unknown).length) meta.unknownRecords = unknown
  if (Object.keys(stats.unknownTypes).length) meta.unknownMessageTypes = stats.unknownTypes
  if (stats.duplicateToolResults) meta.duplicateToolResults = stats.duplicateToolResults
  const rewound = nodes.filter((n) => n.metadata?.rewound === true).length
  if (rewound) meta.rewoundNodes = rewound

  // Last activity: the final `lastUpdated`, or a later message time.
  let last: number | undefined
  for (const t of [isoToMs(log.patched.lastUpdated), ...log.headers.map((h) => isoToMs(h.record.lastUpdated))]) {
    if (t !== undefined && (last === undefined || t > last)) last = t
  }
  for (const n of nodes) if (n.createdAt !== undefined && (last === undefined || n.createdAt > last)) last = n.createdAt
  if (last !== undefined) session.lastActivityAt = last
  return finishSession(session)
}
