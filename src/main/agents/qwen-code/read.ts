/**
 * Read one Qwen Code chats file into the IR. Each line is a `ChatRecord` (QwenLM/qwen-code
 * packages/core/src/services/chatRecordingService.ts @015346f1): `{uuid, parentUuid, sessionId,
 * timestamp (ISO 8601), type: "user"|"assistant"|"tool_result"|"system", subtype?, cwd, version,
 * gitBranch?, message?: Content {role, parts}, usageMetadata?, model?, toolCallResult?: {callId,
 * status, resultDisplay, error?, errorType?}, systemPayload?, isSidechain?, agentId?}`; records form
 * a tree by `uuid`/`parentUuid` (checked with the real CLI 0.15.10, fixtures/real/qwen-code).
 *
 * Reused from the Gemini reader (src/main/agents/gemini): the Gemini API `Part` handling
 * (`sortParts`, `resultNode`: text, `thought` parts, `thoughtSignature`, `functionCall`,
 * `functionResponse`, inline data), `makeCall` (tool kinds and locations; Qwen keeps Gemini's tool
 * names `run_shell_command`, `write_file`, `read_file`, ... and renames `replace` to `edit`) and
 * the shell `Exit Code: N` line. Where it differs from Gemini CLI's chats file:
 * - a record is a tree node (`parentUuid`), not a `$set`/`$rewindTo` log of whole messages;
 * - tool results are their own `tool_result` records (a `functionResponse` per call, paired by
 *   `functionCall.id`) instead of `toolCalls[].result` inside the model message;
 * - usage is the API's `usageMetadata` (`promptTokenCount` includes `cachedContentTokenCount`)
 *   on each `assistant` record, not a `tokens` object;
 * - `system` records carry a `subtype`: `chat_compression` becomes a compaction marker,
 *   `slash_command` a command marker, `custom_title` the session title; bookkeeping subtypes
 *   (`ui_telemetry`, `attribution_snapshot`, `file_history_snapshot`, ...) are not shown.
 * A shell command that exits non-zero is still `status: "success"` in the store; its exit code is
 * kept on the call (`exitCode`). Bad lines become warning diagnostics naming file and line.
 */
import { readFile } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import type { MessageNode, Session, ToolCall, ToolCallDiff, Usage } from '../../../shared/ir'
import { addDiagnostic, finishSession, jsonLineObject, newSession, skipRecord } from '../../ir/build'
import { sortParts } from '../gemini/parts'
import { exitCodeOf, makeCall, resultNode } from '../gemini/tools'
import { isoToMs, num, obj, str, type Json } from '../gemini/values'
import type { ReadContext, StoreRef } from '../types'

/** Moved to ./format.ts so discovery and the census load without this reader; kept here for its importers. */
export { KNOWN_RECORD_TYPES } from './format'

/** `system` subtypes that are bookkeeping, read for facts but not shown as nodes. */
const QUIET_SUBTYPES = new Set([
  'ui_telemetry', 'attribution_snapshot', 'file_history_snapshot', 'session_notes', 'session_source', 'session_model',
  'session_approval_mode', 'session_execution_engine', 'session_artifact_event', 'session_artifact_snapshot',
  'session_sources_snapshot', 'branch_checkpoint', 'goal_state', 'goal_runtime', 'goal_turn_end', 'turn_result',
  'user_text_elements', 'agent_session_ready', 'parent_session', 'custom_title', 'omni_recall',
  'managed_session_header_v1', 'managed_session_event_v1', 'managed_session_commit_v1',
])

/** `usageMetadata` → IR usage (input excludes the cached part). */
function usageOf(u: Json | undefined): Usage | undefined {
  if (!u) return undefined
  const prompt = num(u.promptTokenCount)
  const cached = num(u.cachedContentTokenCount)
  const out: Usage = {}
  if (prompt !== undefined) out.inputTokens = Math.max(0, prompt - (cached ?? 0))
  if (num(u.candidatesTokenCount) !== undefined) out.outputTokens = num(u.candidatesTokenCount)!
  if (cached !== undefined) out.cacheReadTokens = cached
  if (num(u.thoughtsTokenCount) !== undefined) out.thinkingTokens = num(u.thoughtsTokenCount)!
  return Object.keys(out).length ? out : undefined
}

/** The file change a `fileDiff` result display records (whole file before/after). */
function diffOf(display: unknown, call: ToolCall): ToolCallDiff | undefined {
  const d = obj(display)
  if (!d || typeof d.newContent !== 'string') return undefined
  const path = str(obj(call.arguments)?.file_path) ?? str(d.fileName)
  if (!path) return undefined
  const old = d.originalContent
  return { path, ...(typeof old === 'string' && old !== '' && { oldText: old }), newText: d.newContent }
}

/** Read the session `ref` names. Rejects with `READ_FAILED` only when the chats file cannot be opened. */
export async function readQwenCodeSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no chats file' })
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${(e as Error).message}`, path })
  }
  const session = newSession('qwen-code', ref.sessionId, ref.format, ref.files, ref.home)
  /** Record uuid → id of the nearest node at or above it. */
  const nodeAbove = new Map<string, string | undefined>()
  const calls = new Map<string, ToolCall>()
  const seen = new Set<string>()
  let lastNodeId: string | undefined
  text.split('\n').forEach((raw, i) => {
    const line = i + 1
    const r = jsonLineObject(session, path, raw, line)
    if (!r) return
    const uuid = str(r.uuid) ?? `line-${line}`
    if (seen.has(uuid)) {
      addDiagnostic(session, { severity: 'info', path, line, message: `record ${uuid} appears again; the first one is kept` })
      return
    }
    seen.add(uuid)
    const parentUuid = str(r.parentUuid)
    const above = parentUuid !== undefined && nodeAbove.has(parentUuid) ? nodeAbove.get(parentUuid) : parentUuid === undefined ? undefined : lastNodeId
    nodeAbove.set(uuid, above)
    const at = isoToMs(r.timestamp)
    if (session.workingDirectory === undefined && str(r.cwd)) session.workingDirectory = str(r.cwd)
    if (session.git === undefined && str(r.gitBranch)) session.git = { branch: str(r.gitBranch)! }
    if (session.metadata.qwenVersion === undefined && str(r.version)) session.metadata.qwenVersion = str(r.version)
    const push = (n: MessageNode): MessageNode => {
      if (above !== undefined) n.parentNodeId = above
      if (at !== undefined && n.createdAt === undefined) n.createdAt = at
      if (r!.isSidechain === true) n.metadata = { ...n.metadata, isSidechain: true, ...(str(r!.agentId) && { agentId: str(r!.agentId) }) }
      session.nodes.push(n)
      nodeAbove.set(uuid, n.nodeId)
      lastNodeId = n.nodeId
      return n
    }
    const type = str(r.type)
    const message = obj(r.message)
    switch (type) {
      case 'user': {
        const sorted = sortParts(message?.parts)
        push({ nodeId: uuid, role: 'user', content: sorted.text, ...(sorted.blocks && { blocks: sorted.blocks }) })
        return
      }
      case 'assistant': {
        const sorted = sortParts(message?.parts)
        const toolCalls = sorted.calls.map((fc, k) => {
          const call = makeCall(str(fc.id) ?? `${uuid}#call${k}`, str(fc.name) ?? '(unnamed)', fc.args)
          calls.set(call.id, call)
          return call
        })
        const n = push({ nodeId: uuid, role: 'assistant', content: sorted.text, ...(sorted.blocks && { blocks: sorted.blocks }), ...(toolCalls.length && { toolCalls }) })
        if (sorted.thoughts.length) n.thinking = sorted.thoughts.join('\n\n')
        if (sorted.signatures.length) n.thinkingSignature = sorted.signatures.join('\n')
        if (str(r.model)) n.model = str(r.model)
        const u = usageOf(obj(r.usageMetadata))
        if (u) n.usage = u
        return
      }
      case 'tool_result': {
        const tcr = obj(r.toolCallResult)
        const sorted = sortParts(message?.parts)
        const failed = str(tcr?.status) === 'error'
        if (sorted.responses.length === 0) {
          skipRecord(session, { severity: 'warning', path, line, message: 'tool_result record without a functionResponse part; skipped' })
          return
        }
        sorted.responses.forEach((fr, k) => {
          const id = str(fr.id) ?? str(tcr?.callId) ?? `${uuid}#${k}`
          const call = calls.get(id)
          const node = resultNode(id, str(fr.name) ?? call?.name ?? '(unnamed)', [{ functionResponse: fr }], at, failed)
          node.nodeId = k === 0 ? uuid : `${uuid}#${k}`
          if (tcr?.resultDisplay !== undefined && typeof tcr.resultDisplay === 'string' && tcr.resultDisplay !== node.content) node.metadata = { resultDisplay: tcr.resultDisplay }
          if (str(tcr?.errorType)) node.metadata = { ...node.metadata, errorType: str(tcr?.errorType) }
          push(node)
          if (!call) return
          if (failed) call.status = 'failed'
          if (call.kind === 'execute') {
            const code = exitCodeOf(node.content)
            if (code !== undefined) call.exitCode = code
          }
          const diff = diffOf(tcr?.resultDisplay, call)
          if (diff) call.diffs = [diff]
        })
        return
      }
      case 'system': {
        const subtype = str(r.subtype) ?? ''
        const payload = obj(r.systemPayload)
        if (subtype === 'custom_title' && str(payload?.customTitle)) session.title = str(payload?.customTitle)
        if (subtype === 'parent_session' && str(payload?.parentSessionId)) session.parentSessionId = str(payload?.parentSessionId)
        if (QUIET_SUBTYPES.has(subtype)) return
        if (subtype === 'chat_compression') {
          const summary = sortParts(obj(payload)?.compressedHistory).text
          push({ nodeId: uuid, role: 'system', event: 'compaction', content: summary || 'Conversation compressed', metadata: { qwenSubtype: subtype, info: payload?.info } })
          return
        }
        if (subtype === 'slash_command') {
          push({ nodeId: uuid, role: 'system', event: 'command', content: str(payload?.rawCommand) ?? '', metadata: { qwenSubtype: subtype, phase: payload?.phase } })
          return
        }
        const shown = str(payload?.displayText) ?? sortParts(message?.parts).text
        push({ nodeId: uuid, role: 'system', event: 'notice', content: shown, ...(shown === '' && { isMeta: true }), metadata: { qwenSubtype: subtype } })
        return
      }
      default:
        addDiagnostic(session, { severity: 'info', path, line, message: `record type ${JSON.stringify(r.type)} is not read; skipped` })
    }
  })
  return finishSession(session)
}
