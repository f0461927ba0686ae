/**
 * Read one Cline SDK session (manifest `<id>.json` + transcript `<id>.messages.json`, or a
 * sessions.db row + transcript when the manifest is gone, or a sub-agent transcript) into the IR.
 *
 * Sources: seed 000 "SDK manifest", "SDK messages file", "sessions.db and teams.db", "Joins and
 * timestamps" (workspace = manifest cwd or workspace_root; `<id>.compaction.json` repeats turns
 * and stays unread); seed 002 "Checkpoints" (manifest `metadata.checkpoint{latest, history}`);
 * `fixtures/real/cline/README.md` and `handwritten/README.md`.
 */
import { SepiaError } from '../../../shared/api'
import type { Checkpoint, Session, SessionStatus } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession, oneLine } from '../../ir/build'
import { isRecord, tryParseJson } from '../../util/json'
import type { ReadContext, StoreRef } from '../types'
import { chainNodes, NodeIds, num, str, usageOf } from './common'
import { SDK_SUBAGENT_FORMAT } from './discover-sdk'
import { sdkMessagesToNodes } from './sdk-nodes'
import { addRecoveredTurns } from './secondary/recover'
import { isoToMs, parseMessagesText, type SdkHints, type SessionRow } from './sdk-store'
import { readRegularFile } from '../../util/regular-file'

const STATUSES: readonly SessionStatus[] = ['running', 'idle', 'pending', 'completed', 'failed', 'cancelled']

/**
 * Read an SDK session. Bad content becomes diagnostics; rejects with `READ_FAILED` only when
 * neither the manifest nor the transcript can be opened and no sessions.db row describes it.
 */
export async function readSdkSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const hints = (ref.hints ?? {}) as unknown as SdkHints
  const session = newSession(ref.agent, ref.sessionId, ref.format, ref.files, ref.home)
  const row = hints.row
  let opened = false

  let manifest: Record<string, unknown> | undefined
  if (hints.manifest) {
    const text = await readText(hints.manifest, session)
    if (text !== undefined) {
      opened = true
      const v = tryParseJson(text)
      if (isRecord(v)) manifest = v
      else addDiagnostic(session, { severity: 'error', path: hints.manifest, message: 'The session manifest is not a JSON object; its fields are ignored.' })
    }
  }

  let transcript: Record<string, unknown> | undefined
  let messages: unknown[] = []
  if (hints.messages) {
    const text = await readText(hints.messages, session)
    if (text !== undefined) {
      opened = true
      ;({ transcript, messages } = parseMessagesFile(text, hints.messages, session))
    }
  } else {
    addDiagnostic(session, {
      severity: 'warning',
      path: ref.files[0] ?? '',
      message: 'The transcript file of this session is missing (its messages_path names no file); only the session record is shown.',
    })
  }
  if (!opened && !row) {
    throw new SepiaError({ code: 'READ_FAILED', message: `Cannot open Cline session ${ref.sessionId}.`, path: ref.files[0] })
  }
  if (hints.unindexed) {
    addDiagnostic(session, {
      severity: 'info',
      path: hints.messages ?? ref.files[0] ?? '',
      message: 'No manifest or sessions.db row names this transcript, so the Cline CLI does not list it; read from the messages file alone.',
    })
  }

  const rowMeta = row?.metadata_json ? tryParseJson(row.metadata_json) : undefined
  const meta = isRecord(manifest?.metadata) ? manifest.metadata : isRecord(rowMeta) ? rowMeta : {}
  const origin = isRecord(transcript?.origin) ? transcript.origin : undefined
  // Manifest first, then the sessions.db row (same column names, seed 000 "sessions.db and teams.db").
  const pick = (key: string): unknown => manifest?.[key] ?? (row as Record<string, unknown> | undefined)?.[key] ?? undefined

  const status = str(pick('status'))
  if (status && (STATUSES as readonly string[]).includes(status)) session.status = status as SessionStatus
  const exitCode = num(pick('exit_code'))
  if (exitCode !== undefined) session.exitCode = exitCode
  const startedAt = isoToMs(pick('started_at'))
  if (startedAt !== undefined) session.createdAt = startedAt
  const cwd = str(pick('cwd')) ?? str(pick('workspace_root'))
  if (cwd) session.workingDirectory = cwd
  const team = str(pick('team_name'))
  if (team) session.teamName = team
  // metadata.title verbatim; the prompt fallback collapsed to one line (it can be a whole page).
  const prompt = str(pick('prompt'))
  const title = str(meta.title) ?? (prompt ? oneLine(prompt, 200) : undefined)
  if (title) session.title = title
  const branch = isRecord(meta.git) ? str(meta.git.branch) : undefined
  if (branch) session.git = { branch }
  session.checkpoints = checkpointsOf(meta.checkpoint)
  const usage = isRecord(meta.usage)
    ? usageOf({
        inputTokens: meta.usage.inputTokens,
        outputTokens: meta.usage.outputTokens,
        cacheReadTokens: meta.usage.cacheReadTokens,
        cacheWriteTokens: meta.usage.cacheWriteTokens,
        cost: meta.usage.totalCost ?? meta.usage.cost,
      })
    : undefined
  if (usage) session.usage = usage
  const parent = str(row?.parent_session_id) ?? str(origin?.parentThreadId) ?? ref.parentSessionId
  if (parent && parent !== session.id) session.parentSessionId = parent
  const agentName = str(row?.agent_id) ?? str(origin?.subagent)
  if (agentName) session.agentName = agentName

  const ids = new NodeIds()
  const lead = ref.format !== SDK_SUBAGENT_FORMAT && !hints.subagentFile
  const starts = sdkMessagesToNodes(messages, session, hints.messages ?? '', ids, lead ? str(pick('model')) : undefined)
  if (hints.secondary) await addRecoveredTurns(session, hints.secondary, messages, starts, ids)
  chainNodes(session.nodes)
  session.metadata = sessionMetadata(manifest, row, meta, transcript, hints)
  const imported = isRecord(meta.importedFrom) ? meta.importedFrom : undefined
  if (imported) {
    // seed 000 "Imported sessions": a copy of another agent's transcript under a new id, not Cline's own work.
    const from = [str(imported.tool) ?? 'another agent', str(imported.sourceSessionId) ? `session ${imported.sourceSessionId as string}` : '', str(imported.sourcePath) ? `(${imported.sourcePath as string})` : '']
    addDiagnostic(session, {
      severity: 'info',
      path: hints.manifest ?? ref.files[0] ?? '',
      message: `Imported from ${from.filter(Boolean).join(' ')}${str(imported.importedAt) ? ` on ${imported.importedAt as string}` : ''}: its turns are a copy of that agent's transcript.`,
    })
  }
  finishSession(session)
  const configured = str(pick('model'))
  if (!session.model && configured) session.model = configured
  const endedAt = isoToMs(pick('ended_at'))
  if (endedAt !== undefined && (session.lastActivityAt === undefined || endedAt > session.lastActivityAt)) session.lastActivityAt = endedAt
  return session
}

/** `metadata.checkpoint.history` (else `latest`) as IR checkpoints: refs only (seed 002 "Checkpoints"). */
export function checkpointsOf(value: unknown): Checkpoint[] {
  if (!isRecord(value)) return []
  const list = Array.isArray(value.history) && value.history.length ? value.history : isRecord(value.latest) ? [value.latest] : []
  const out: Checkpoint[] = []
  for (const c of list) {
    if (!isRecord(c) || !str(c.ref)) continue
    const cp: Checkpoint = { ref: c.ref as string }
    if (str(c.kind)) cp.kind = c.kind as string
    if (num(c.createdAt) !== undefined) cp.createdAt = c.createdAt as number
    if (num(c.runCount) !== undefined) cp.runCount = c.runCount as number
    out.push(cp)
  }
  return out
}

/** Parse `<id>.messages.json` ({@link parseMessagesText}); its problem becomes a diagnostic. */
function parseMessagesFile(text: string, path: string, session: Session): { transcript?: Record<string, unknown>; messages: unknown[] } {
  const parsed = parseMessagesText(text)
  if (parsed.problem) addDiagnostic(session, { ...parsed.problem, path })
  return parsed.transcript ? { transcript: parsed.transcript, messages: parsed.messages } : { messages: parsed.messages }
}

/** Manifest and transcript fields with no IR home (seed 000 "SDK manifest", "Imported sessions"). */
function sessionMetadata(
  manifest: Record<string, unknown> | undefined,
  row: SessionRow | undefined,
  meta: Record<string, unknown>,
  transcript: Record<string, unknown> | undefined,
  hints: SdkHints,
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (manifest) {
    const { metadata: _m, ...fields } = manifest
    out.manifest = fields
  }
  if (row && !manifest) {
    const { metadata_json: _j, ...fields } = row
    out.sessionRow = fields
  } else if (row) {
    // The row's sub-agent links, which the manifest does not carry.
    const links: Record<string, unknown> = {}
    for (const k of ['parent_agent_id', 'agent_id', 'conversation_id', 'is_subagent'] as const) {
      if (row[k]) links[k] = row[k]
    }
    if (Object.keys(links).length) out.sessionRow = links
  }
  const { title: _t, checkpoint, git: _g, usage: _u, ...rest } = meta
  if (Object.keys(rest).length) out.sessionMetadata = rest
  // An imported session names the agent transcript it copies (seed 000 "Imported sessions").
  if (isRecord(meta.importedFrom)) out.importedFrom = meta.importedFrom
  if (isRecord(checkpoint) && isRecord(checkpoint.latest)) out.checkpointLatest = checkpoint.latest
  if (transcript) {
    const { messages: _msgs, system_prompt, ...head } = transcript
    out.transcript = head
    if (typeof system_prompt === 'string') out.systemPrompt = system_prompt
  }
  if (hints.compaction) out.compactionFile = hints.compaction
  return out
}

async function readText(path: string, session: Session): Promise<string | undefined> {
  try {
    return await readRegularFile(path)
  } catch (err) {
    addDiagnostic(session, { severity: 'error', path, message: `Could not read the file: ${(err as Error).message}` })
    return undefined
  }
}
