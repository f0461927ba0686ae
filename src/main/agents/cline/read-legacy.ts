/**
 * Read one legacy Cline-family task folder (`tasks/<taskId>/`) into the IR. Nodes come from
 * `api_conversation_history.json` ({@link apiHistoryToNodes}) when it has native `tool_use` blocks
 * and the UI log carries `conversationHistoryIndex` (Cline 3.x: the API history is what the model
 * saw, with call ids; the UI gives times, checkpoints and request usage); else from
 * `ui_messages.json` when present ({@link uiMessagesToNodes}, with the API history's full texts
 * for UI texts stuck at `partial: true`), else from the API history alone. The working directory
 * comes from the HistoryItem, else from `environment_details` (exported task folders);
 * `lastActivityAt` is the last UI record's time. Session fields from the `state/taskHistory.json` entry
 * (HistoryItem {id, ts, task, tokensIn, tokensOut, cacheWrites, cacheReads, totalCost,
 * cwdOnTaskInitialization, modelId}, seed 000 "Legacy task files", HistoryItem.ts:1-26) or Roo
 * Code's `history_item.json`, and `task_metadata.json` (model_usage, environment_history).
 *
 * A truncated or damaged JSON file keeps its longest valid prefix ({@link salvageJsonArray}) with
 * one diagnostic naming the file and the line of the cut.
 */
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
  const uiItems = hints.ui ? await readArray(hints.ui, session) : undefined
  // The API history text, read once (regular files only); `apiError` when it cannot be read.
  let apiText = ''
  let apiError: string | undefined
  if (hints.api) apiText = await readRegularFile(hints.api).catch((err: Error) => ((apiError = err.message), ''))
  /** True once readArray reported on the API history (so the check at the end does not repeat it). */
  let apiReported = false
  const apiItems = hints.api && (!uiItems?.length || hasNativeToolUse(apiText))
    ? ((apiReported = true), await readArray(hints.api, session))
    : undefined
  if (uiItems?.length && apiItems?.length && apiItems.some(isNativeAssistant) && uiItems.some(hasHistoryIndex)) {
    // Native tool-call era (3.x): the API history holds what the model saw — call ids, tool names,
    // arguments, full texts (the UI keeps `partial: true` fragments) — so it gives the nodes; the
    // UI gives times (by `conversationHistoryIndex`) and checkpoints.
    opened = true
    apiHistoryToNodes(apiItems, session, hints.api!, ids, uiTimes(uiItems, apiItems))
    uiCheckpoints(uiItems, session)
    uiRequestUsage(uiItems, session)
    session.metadata = { readFrom: 'api_conversation_history.json' }
  } else if (uiItems && (uiItems.length || !hints.api)) {
    // An empty (or wholly damaged) UI log falls back to the API history when there is one.
    opened = true
    const stuck = uiItems.some((m) => isRecord(m) && m.partial === true)
    const fullTexts = hints.api && stuck ? assistantTexts(salvageJsonArray(apiText || '[]').items) : []
    uiMessagesToNodes(uiItems, session, hints.ui!, ids, fullTexts)
  }
  if (!opened && hints.api) {
    const items = apiItems ?? ((apiReported = true), await readArray(hints.api, session))
    if (items) {
      opened = true
      apiHistoryToNodes(items, session, hints.api, ids)
    }
  }
  if (!opened) {
    throw new SepiaError({ code: 'READ_FAILED', message: `Cannot open the files of task ${ref.sessionId}.`, path: ref.files[0] })
  }
  // Read from ui_messages.json alone: a damaged or unreadable API history is still reported
  // (issue 16: it used to be ignored silently).
  if (hints.api && !apiReported) {
    if (apiError !== undefined) {
      addDiagnostic(session, { severity: 'warning', path: hints.api, message: `Could not read the file: ${apiError}; the task was read from ui_messages.json.` })
    } else {
      const s = salvageJsonArray(apiText)
      if (!s.complete && apiText.trim() !== '') {
        const line = lineAt(apiText, s.errorOffset ?? 0)
        addDiagnostic(session, {
          severity: 'warning',
          path: hints.api,
          line,
          message: `${basename(hints.api)} is cut or damaged at line ${line} (${s.error}); the task was read from ui_messages.json, which does not need it.`,
        })
      }
    }
  }
  const lastEvent = uiItems ? lastTs(uiItems) : undefined
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
  session.workingDirectory ??= await cwdFromEnvironmentDetails(hints)
  session.metadata = { ...legacyMetadata(item, taskMetadata, hints), ...session.metadata }
  finishSession(session)
  // The last event (a completion, a command's output), not the first record of the last node.
  if (lastEvent !== undefined && (session.lastActivityAt === undefined || lastEvent > session.lastActivityAt)) session.lastActivityAt = lastEvent
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

/** True when the raw API history text has a native `tool_use` block (cheap test before parsing). */
function hasNativeToolUse(text: string): boolean {
  return /"type"\s*:\s*"tool_use"/.test(text)
}

function isNativeAssistant(m: unknown): boolean {
  return isRecord(m) && m.role === 'assistant' && Array.isArray(m.content) && m.content.some((b) => isRecord(b) && b.type === 'tool_use')
}

/**
 * Times of API history messages from the UI log. A ClineMessage records
 * `conversationHistoryIndex` = the API history length minus one when it was written
 * (cline src/core/task/message-state.ts `addToClineMessages`), and `api_req_started` is said just
 * before the request's user message is added (src/core/task/index.ts
 * `recursivelyMakeClineRequests`). So user message `i` was sent at the `api_req_started` with
 * index `i - 1`, and assistant message `i` began streaming at the first other UI message with
 * index `i - 1`. Undefined when the UI has no such record.
 */
function uiTimes(ui: unknown[], api: unknown[]): (index: number) => number | undefined {
  const marks: { index: number; ts: number; req: boolean }[] = []
  for (const m of ui) {
    if (!isRecord(m)) continue
    const index = num(m.conversationHistoryIndex)
    const ts = num(m.ts)
    if (index !== undefined && ts !== undefined) marks.push({ index, ts, req: m.say === 'api_req_started' })
  }
  return (i) => {
    const user = isRecord(api[i]) && api[i].role === 'user'
    const at = marks.filter((x) => x.index === i - 1)
    return (at.find((x) => x.req === user) ?? at[0] ?? marks.find((x) => x.index >= i))?.ts
  }
}

/** `lastCheckpointHash` of UI messages as shadow-git checkpoints (as {@link uiMessagesToNodes} records them). */
function uiCheckpoints(ui: unknown[], session: Session): void {
  const seen = new Set(session.checkpoints.map((c) => c.ref))
  for (const m of ui) {
    if (!isRecord(m)) continue
    const hash = str(m.lastCheckpointHash)
    if (!hash || seen.has(hash)) continue
    seen.add(hash)
    const ts = num(m.ts)
    session.checkpoints.push({ ref: hash, kind: 'shadow-git', ...(ts !== undefined ? { createdAt: ts } : {}) })
  }
}

function hasHistoryIndex(m: unknown): boolean {
  return isRecord(m) && num(m.conversationHistoryIndex) !== undefined
}

/**
 * Token counts of `api_req_started` records (ClineApiReqInfo) on the API assistant message they
 * started, for API histories without `metrics`: the record's `conversationHistoryIndex` is k, so
 * its response is API message k + 1.
 */
function uiRequestUsage(ui: unknown[], session: Session): void {
  const byNode = new Map(session.nodes.map((n) => [n.nodeId, n]))
  for (const m of ui) {
    if (!isRecord(m) || m.say !== 'api_req_started' || typeof m.text !== 'string') continue
    const k = num(m.conversationHistoryIndex)
    const info = tryParseJson(m.text)
    const node = k !== undefined ? byNode.get(`api-${k + 1}`) : undefined
    if (!node || node.role !== 'assistant' || node.usage || !isRecord(info)) continue
    const usage = usageOf({ inputTokens: info.tokensIn, outputTokens: info.tokensOut, cacheWriteTokens: info.cacheWrites, cacheReadTokens: info.cacheReads, cost: info.cost })
    if (usage) node.usage = usage
  }
}

function lastTs(ui: unknown[]): number | undefined {
  let last: number | undefined
  for (const m of ui) {
    const ts = isRecord(m) ? num(m.ts) : undefined
    if (ts !== undefined && (last === undefined || ts > last)) last = ts
  }
  return last
}

/** Every assistant text block of the API history, in order (the full texts UI fragments are cut from). */
function assistantTexts(api: unknown[]): string[] {
  const out: string[] = []
  for (const m of api) {
    if (!isRecord(m) || m.role !== 'assistant') continue
    if (typeof m.content === 'string') out.push(m.content)
    else if (Array.isArray(m.content)) for (const b of m.content) if (isRecord(b) && b.type === 'text' && typeof b.text === 'string') out.push(b.text)
  }
  return out
}

/**
 * The working directory named by the task's `environment_details`, for a task no HistoryItem
 * names (an exported task folder): "# Current Working Directory (/path) Files" (cline
 * src/core/task/index.ts `getEnvironmentDetails`), or the "current working directory is now
 * '/path'" of a resumption. The first one found in the API history, else in the UI requests.
 */
async function cwdFromEnvironmentDetails(hints: LegacyHints): Promise<string | undefined> {
  for (const file of [hints.api, hints.ui]) {
    if (!file) continue
    const text = await readRegularFile(file).catch(() => '')
    const m = /# Current Working Directory \(((?:[^()\\"]|\\.)+?)\) Files/.exec(text) ?? /current working directory is now '((?:[^'\\]|\\.)+)'/.exec(text)
    if (m) return tryParseJson(`"${m[1]}"`) as string | undefined ?? m[1]
  }
  return undefined
}
