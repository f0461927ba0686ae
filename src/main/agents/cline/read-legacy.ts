/**
 * Read one legacy Cline-family task folder (`tasks/<taskId>/`) into the IR: `ui_messages.json`
 * when present ({@link uiMessagesToNodes}), else `api_conversation_history.json`
 * ({@link apiHistoryToNodes}); session fields from the `state/taskHistory.json` entry
 * (HistoryItem {id, ts, task, tokensIn, tokensOut, cacheWrites, cacheReads, totalCost,
 * cwdOnTaskInitialization, modelId}, seed 000 "Legacy task files", HistoryItem.ts:1-26) or Roo
 * Code's `history_item.json`, and `task_metadata.json` (model_usage, environment_history).
 *
 * A truncated or damaged JSON file keeps its longest valid prefix ({@link salvageJsonArray}) with
 * one diagnostic naming the file and the line of the cut.
 */
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { SepiaError } from '../../../shared/api'
import type { Session } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession, oneLine } from '../../ir/build'
import { isRecord, lineAt, salvageJsonArray, tryParseJson } from '../../util/json'
import type { ReadContext, StoreRef } from '../types'
import { chainNodes, NodeIds, num, str, usageOf } from './common'
import type { LegacyHints } from './discover'
import { apiHistoryToNodes } from './legacy-api'
import { uiMessagesToNodes } from './legacy-ui'
import { readRegularFile } from '../../util/regular-file'

/**
 * Read a legacy task. Bad content becomes diagnostics; rejects with `READ_FAILED` only when
 * neither `ui_messages.json` nor `api_conversation_history.json` can be opened.
 */
export async function readLegacyTask(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const hints = (ref.hints ?? {}) as unknown as LegacyHints
  const session = newSession(ref.agent, ref.sessionId, ref.format, ref.files, ref.home)
  const ids = new NodeIds()
  let opened = false
  if (hints.ui) {
    const items = await readArray(hints.ui, session)
    // An empty (or wholly damaged) UI log falls back to the API history when there is one.
    if (items && (items.length || !hints.api)) {
      opened = true
      uiMessagesToNodes(items, session, hints.ui, ids)
    }
  }
  if (!opened && hints.api) {
    const items = await readArray(hints.api, session)
    if (items) {
      opened = true
      apiHistoryToNodes(items, session, hints.api, ids)
    }
  }
  if (!opened) {
    throw new SepiaError({ code: 'READ_FAILED', message: `Cannot open the files of task ${ref.sessionId}.`, path: ref.files[0] })
  }
  chainNodes(session.nodes)

  let item = hints.historyItem
  if (!item && hints.historyItemFile) {
    const v = await readObject(hints.historyItemFile, session)
    if (v) item = v
  }
  if (!item) {
    addDiagnostic(session, {
      severity: 'info',
      path: hints.taskDir ?? ref.files[0] ?? '',
      message: `No task history entry (state/taskHistory.json) names task ${ref.sessionId}, so the agent does not list it; read from its folder alone.`,
    })
  }
  const taskMetadata = hints.taskMetadata ? await readObject(hints.taskMetadata, session) : undefined

  if (item) {
    const task = str(item.task)
    if (task) session.title = oneLine(task, 200)
    const cwd = str(item.cwdOnTaskInitialization) ?? str(item.workspace)
    if (cwd) session.workingDirectory = cwd
    const usage = usageOf({
      inputTokens: item.tokensIn,
      outputTokens: item.tokensOut,
      cacheWriteTokens: item.cacheWrites,
      cacheReadTokens: item.cacheReads,
      cost: item.totalCost,
    })
    if (usage) session.usage = usage
  }
  session.metadata = legacyMetadata(item, taskMetadata, hints)
  finishSession(session)
  const usageList = Array.isArray(taskMetadata?.model_usage) ? taskMetadata.model_usage : []
  const firstUsage = usageList.find(isRecord)
  const configured = str(item?.modelId) ?? (firstUsage ? str(firstUsage.model_id) : undefined)
  if (!session.model && configured) session.model = configured
  const itemTs = num(item?.ts)
  if (itemTs !== undefined && (session.lastActivityAt === undefined || itemTs > session.lastActivityAt)) session.lastActivityAt = itemTs
  session.createdAt ??= itemTs
  if (session.createdAt === undefined) delete session.createdAt
  return session
}

/** HistoryItem extras and task_metadata.json lists with no IR field. */
function legacyMetadata(
  item: Record<string, unknown> | undefined,
  taskMetadata: Record<string, unknown> | undefined,
  hints: LegacyHints,
): Record<string, unknown> {
  const out: Record<string, unknown> = { root: hints.root }
  if (hints.root && /globalStorage/.test(hints.root)) out.extensionId = basename(hints.root)
  if (item) {
    const { id: _i, task: _t, tokensIn: _a, tokensOut: _b, cacheWrites: _c, cacheReads: _d, totalCost: _e, cwdOnTaskInitialization: _f, ...rest } = item
    if (Object.keys(rest).length) out.historyItem = rest
  }
  if (taskMetadata) {
    for (const k of ['model_usage', 'environment_history'] as const) {
      if (Array.isArray(taskMetadata[k])) out[k === 'model_usage' ? 'modelUsage' : 'environmentHistory'] = taskMetadata[k]
    }
    if (Array.isArray(taskMetadata.files_in_context)) out.filesInContextCount = taskMetadata.files_in_context.length
  }
  if (hints.ui && hints.api) out.apiConversationHistory = hints.api
  return out
}

/** A JSON array file, salvaging a damaged one; undefined (with a diagnostic) when unreadable. */
async function readArray(path: string, session: Session): Promise<unknown[] | undefined> {
  let text: string
  try {
    text = await readRegularFile(path)
  } catch (err) {
    addDiagnostic(session, { severity: 'error', path, message: `Could not read the file: ${(err as Error).message}` })
    return undefined
  }
  const s = salvageJsonArray(text)
  if (!s.complete) {
    const line = lineAt(text, s.errorOffset ?? 0)
    addDiagnostic(session, {
      severity: 'error',
      path,
      line,
      message: `${basename(path)} is cut or damaged at line ${line} (${s.error}); kept the ${s.items.length} records before it.`,
    })
  }
  return s.items
}

async function readObject(path: string, session: Session): Promise<Record<string, unknown> | undefined> {
  try {
    const v = tryParseJson(await readRegularFile(path))
    if (isRecord(v)) return v
    addDiagnostic(session, { severity: 'warning', path, message: `${basename(path)} is not a JSON object; ignored.` })
  } catch (err) {
    addDiagnostic(session, { severity: 'warning', path, message: `Could not read the file: ${(err as Error).message}` })
  }
  return undefined
}
