/**
 * Read one Codex rollout (`rollout-<time>-<thread id>.jsonl`) into the IR.
 *
 * Store facts: codex-rs `protocol/src/protocol.rs` (`RolloutLine`, `RolloutItem`, `SessionMeta`,
 * `EventMsg`), `core/src/rollout/`; fixtures/real/codex/README.md (Codex 0.171.0) and its
 * hand-written variants (what Codex itself resumes: a rollout must start with a `session_meta`
 * holding id, timestamp, cwd, originator and cli_version; lines without a top-level timestamp are
 * not loaded; a line that is not JSON is skipped). Session id: `session_meta.payload.id`, else the
 * UUID at the end of the file name, else `payload.session_id`. Title: a thread name the rollout
 * records, else the thread database's name or title, else the first prompt.
 *
 * Usage per assistant message is that model response's usage; `inputTokens` excludes cache reads
 * and writes, `outputTokens` includes reasoning (see `usage.ts`). The session total is the sum of
 * the non-repeated `token_count` events (else of `token_usage_record`s), copied history excluded.
 */
import { basename } from 'node:path'
import { SepiaError } from '../../../shared/api'
import type { Session } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession, skipRecord } from '../../ir/build'
import { forEachLine } from '../../util/lines'
import type { ReadContext, StoreRef } from '../types'
import { SessionFacts } from './facts'
import { RolloutBuilder } from './items'
import { FILE_UUID, type Json, isoToMs, num, obj, parseRolloutLine, str } from './records'
import { plural } from '../../../shared/plural'
import { FORMAT } from './format'

/** Moved to ./format.ts so discovery and the census load without this reader; kept here for its importers. */
export { FORMAT } from './format'

/** `hints[key]` when it is a string. */
function hint(ref: StoreRef, key: string): string | undefined {
  return str(ref.hints?.[key])
}

/** Drop undefined members. */
function defined(o: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k]
  return o
}

/**
 * Read one rollout. Bad lines become diagnostics (one per line, with its number); rejects with
 * `READ_FAILED` only when the file cannot be opened at all.
 */
export async function readSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no file' })
  const session = newSession('codex', ref.sessionId, FORMAT, ref.files, ref.home)
  const facts = new SessionFacts()
  const b = new RolloutBuilder(facts)
  let lines = 0
  try {
    await forEachLine(path, (text, lineNo) => {
      lines = lineNo
      const parsed = parseRolloutLine(text, lineNo)
      if ('blank' in parsed) return
      if ('problem' in parsed) {
        const { severity, message, skipped } = parsed.problem
        if (skipped) skipRecord(session, { severity, path, line: lineNo, message }, skipped)
        else addDiagnostic(session, { severity, path, line: lineNo, message })
        return
      }
      const rec = parsed.record
      facts.observe(rec.kind, rec.payload, rec.at, rec.line)
      b.t.replay = facts.inReplay
      b.take(rec)
    })
  } catch (e) {
    const message = (e as Error).message
    if (lines === 0) throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${message}`, path })
    addDiagnostic(session, { severity: 'error', path, line: lines + 1, message: `reading stopped: ${message}` })
  }

  const outcome = facts.replayOutcome()
  const { usage, replayedNodes } = b.t.finish(outcome === 'confirmed')
  session.nodes = b.t.nodes
  session.checkpoints = b.checkpoints
  if (usage) session.usage = usage
  applyFacts(session, ref, facts)
  if (outcome === 'confirmed') {
    session.metadata.replayedLines = facts.replayLines
    session.metadata.replayedNodes = replayedNodes
  }
  reportShape(session, path, facts, outcome)
  return finishSession(session)
}

/** Session fields from `session_meta`, turn contexts and the discovery hints. */
function applyFacts(session: Session, ref: StoreRef, facts: SessionFacts): void {
  const meta: Json = facts.meta ?? {}
  const fileId = FILE_UUID.exec(basename(ref.files[0]!))?.[1]
  session.id = str(meta.id) ?? fileId ?? str(meta.session_id) ?? ref.sessionId
  if (facts.cwd !== undefined) session.workingDirectory = facts.cwd
  const git = obj(meta.git)
  if (git) {
    const g: { branch?: string; sha?: string } = {}
    if (str(git.branch)) g.branch = str(git.branch)
    if (str(git.commit_hash)) g.sha = str(git.commit_hash)
    if (g.branch !== undefined || g.sha !== undefined) session.git = g
  }
  session.createdAt = isoToMs(meta.timestamp) ?? facts.firstAt
  session.lastActivityAt = facts.lastAt
  // The first model of the session's own turns (copied ancestor turns only when there are no others).
  const answered = session.nodes.filter((n) => n.role === 'assistant' && n.model)
  const model = (answered.find((n) => !n.metadata?.replayed) ?? answered[0])?.model ?? hint(ref, 'model')
  if (model !== undefined) session.model = model
  const title = facts.threadName ?? hint(ref, 'threadName') ?? hint(ref, 'stateTitle')
  if (title !== undefined) session.title = title
  const spawn = facts.threadSpawn()
  const parent = facts.parentThreadId() ?? ref.parentSessionId ?? hint(ref, 'parentSessionId')
  if (parent !== undefined) session.parentSessionId = parent
  const nickname = str(meta.agent_nickname) ?? str(spawn?.agent_nickname)
  if (nickname !== undefined) session.agentName = nickname
  const rootId = str(meta.session_id)
  session.metadata = defined({
    originator: str(meta.originator),
    cliVersion: str(meta.cli_version),
    modelProvider: str(meta.model_provider),
    source: meta.source,
    threadSource: str(meta.thread_source),
    historyMode: str(meta.history_mode),
    forkedFromId: str(meta.forked_from_id),
    rootSessionId: rootId !== undefined && rootId !== session.id ? rootId : undefined,
    agentRole: str(meta.agent_role) ?? str(spawn?.agent_role),
    spawnDepth: num(spawn?.depth),
    archived: ref.hints?.archived === true ? true : undefined,
    ancestorIds: facts.ancestorIds.length > 0 ? [...facts.ancestorIds] : undefined,
    recordTypes: facts.recordTypes,
    eventTypes: Object.keys(facts.eventTypes).length > 0 ? facts.eventTypes : undefined,
    itemTypes: Object.keys(facts.itemTypes).length > 0 ? facts.itemTypes : undefined,
  })
}

/** Info diagnostics for shapes Codex itself would not resume or find (see the module comment). */
function reportShape(session: Session, path: string, facts: SessionFacts, outcome: string): void {
  const info = (message: string) => addDiagnostic(session, { severity: 'info', path, message })
  const name = basename(path)
  if (!facts.meta) info('the rollout has no session_meta line; Codex cannot resume it (the id comes from the file name)')
  else {
    const missing = facts.missingResumeFields()
    if (missing.length > 0) info(`session_meta lacks ${missing.join(', ')}; Codex cannot resume this rollout`)
    const fileId = FILE_UUID.exec(name)?.[1]
    const metaId = str(facts.meta.id)
    if (fileId !== undefined && metaId !== undefined && fileId.toLowerCase() !== metaId.toLowerCase()) {
      info(`the file name's UUID ${fileId} differs from session_meta id ${metaId}; the session_meta id is used`)
    }
  }
  if (facts.untimedLines > 0) info(`${plural(facts.untimedLines, 'line has', 'lines have')} no timestamp; Codex does not load ${facts.untimedLines === 1 ? 'it' : 'them'}`)
  if (!name.startsWith('rollout-')) info(`file name "${name}" does not start with "rollout-"; Codex cannot find it by id`)
  if (outcome === 'unresolved') {
    info(`the rollout copies history of ${facts.ancestorIds.join(', ')} without turn markers; copied turns are shown as this session's own`)
  }
}
