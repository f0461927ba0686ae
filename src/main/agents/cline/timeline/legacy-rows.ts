/**
 * Timeline rows of one legacy Cline-family task folder (seed 000 "Parser plan", Legacy column;
 * "Permission rows"; "Model rows").
 *
 * - One row per `ui_messages.json` entry (preferred: every entry has a time). turn_type: say
 *   task/user_feedback → user (and a first `say: text`, the task as Roo Code and older Cline
 *   record it); text/completion_result → assistant (also the asks followup,
 *   plan_mode_respond, act_mode_respond, completion_result); reasoning → thinking;
 *   tool/command/use_mcp_server (say or ask) → tool_use; command_output/mcp_server_response →
 *   tool_result; everything else (error, api_req_*, checkpoints...) → system. tool_name is
 *   ClineSayTool.tool or use_mcp_server.toolName (else the record's own type for a command);
 *   tool_use_id is the record's ts; text is its text, with ` | [1 image]` / ` | [N images]` when it has images.
 * - Without `ui_messages.json`, one row per content block of `api_conversation_history.json`,
 *   with the XML tool calls inside assistant text as tool_use rows (`attempt_completion`,
 *   `ask_followup_question`, `plan_mode_respond`: assistant rows with their text), `<thinking>`
 *   as thinking rows, and `[tool for '…'] Result:` user text (with the text blocks after it) as
 *   tool_result rows (seed 000 "Legacy task files"; legacy-xml.ts). No time unless the message has
 *   `ts` (newer CLI builds).
 * - `task_metadata.json` model_usage: the first entry gives `permission mode: <mode>` and
 *   `model: <id> model_provider_id=<p> mode=<m>`; a later entry whose mode or model differs gives
 *   `permission mode: <old> -> <new>` / `model: <old> -> <new> …`, at the entry's ts.
 * - A task that `state/taskHistory.json` lists but whose folder is gone gives one
 *   `task history:` row (Sepia's own: the index is a primary source, seed 000 "Past-use rows").
 * A file that is cut or not a JSON array gives one `parser:` row naming it.
 */
import type { AgentId } from '../../../../shared/ir'
import type { TimelineRow, TimelineTurnType } from '../../../../shared/timeline'
import { isRecord, lineAt, salvageJsonArray, tryParseJson } from '../../../util/json'
import { num, str } from '../common'
import type { LegacyHints } from '../discover'
import { CONVERSATIONAL_TAGS, isInjectedText, parseAssistantText, RESULT_HEADER } from '../legacy-xml'
import { firstTaskText } from '../legacy-ui'
import { contentText, inputText, makeRow, pairs } from './rows'
import { readRegularFile } from '../../../util/regular-file'
import { plural } from '../../../../shared/plural'

const USER = new Set(['task', 'user_feedback'])
const ASSISTANT = new Set(['text', 'completion_result', 'followup', 'plan_mode_respond', 'act_mode_respond'])
const TOOL_USE = new Set(['tool', 'command', 'use_mcp_server', 'browser_action', 'browser_action_launch'])
const TOOL_RESULT = new Set(['command_output', 'mcp_server_response', 'browser_action_result'])

/** The turn type of a ClineMessage (`say` or `ask` value). */
export function uiTurnType(kind: string): TimelineTurnType {
  if (USER.has(kind)) return 'user'
  if (ASSISTANT.has(kind)) return 'assistant'
  if (kind === 'reasoning') return 'thinking'
  if (TOOL_USE.has(kind)) return 'tool_use'
  if (TOOL_RESULT.has(kind)) return 'tool_result'
  return 'system'
}

/** Rows of one task (see the module comment). `sessionId` is the task folder's name. */
export async function legacyTaskRows(agent: AgentId, sessionId: string, hints: LegacyHints): Promise<TimelineRow[]> {
  // The state/taskHistory.json entry, else Roo Code's per-task history_item.json (its `workspace` names the folder).
  let item = hints.historyItem
  if (!item && hints.historyItemFile) {
    const v = tryParseJson(await readRegularFile(hints.historyItemFile).catch(() => ''))
    if (isRecord(v)) item = v
  }
  const projectPath = str(item?.cwdOnTaskInitialization) ?? str(item?.workspace) ?? ''
  const base = { agent, sessionId, projectPath }
  const rows: TimelineRow[] = []
  const usage = hints.taskMetadata ? await modelUsage(hints.taskMetadata, base, rows) : []
  const modelAt = (ts: number | undefined): string => {
    let pick: Record<string, unknown> | undefined = usage[0]
    for (const u of usage) if (ts !== undefined && (num(u.ts) ?? Infinity) <= ts) pick = u
    return str(pick?.model_id) ?? str(item?.modelId) ?? ''
  }
  if (hints.ui) {
    const items = await readArray(hints.ui, base, rows)
    if (items && (items.length || !hints.api)) {
      items.forEach((m, i) => rows.push(uiRow(m, i, base, hints.ui!, modelAt)))
      return rows
    }
  }
  if (hints.api) {
    const items = await readArray(hints.api, base, rows)
    items?.forEach((m, i) => rows.push(...apiRows(m, i, base, hints.api!, modelAt)))
  }
  return rows
}

type Base = { agent: AgentId; sessionId: string; projectPath: string }

function uiRow(m: unknown, i: number, base: Base, file: string, modelAt: (ts?: number) => string): TimelineRow {
  const line = i + 1
  if (!isRecord(m)) return makeRow({ ...base, turnType: 'system', text: `parser: entry ${line} of ${file} is not an object`, sourceFile: file, sourceLine: line })
  const ts = num(m.ts)
  const kind = str(m.say) ?? str(m.ask) ?? ''
  const turnType = firstTaskText(m, i) ? 'user' : uiTurnType(kind)
  const info = isRecord(m.modelInfo) ? m.modelInfo : undefined
  let text = typeof m.text === 'string' ? m.text : ''
  const images = Array.isArray(m.images) ? m.images.length : 0
  if (images) text = `${text} | [${plural(images, 'image')}]`
  let toolName = ''
  if (turnType === 'tool_use' || turnType === 'tool_result') {
    const j = typeof m.text === 'string' ? tryParseJson(m.text) : undefined
    toolName = (isRecord(j) ? (str(j.tool) ?? str(j.toolName)) : undefined) ?? kind
  }
  return makeRow({
    ...base,
    turnType,
    timestampUtc: ts,
    model: str(info?.modelId) ?? modelAt(ts),
    toolName,
    toolUseId: turnType === 'tool_use' || turnType === 'tool_result' ? (ts !== undefined ? String(ts) : '') : '',
    text,
    sourceFile: file,
    sourceLine: line,
  })
}

function apiRows(m: unknown, i: number, base: Base, file: string, modelAt: (ts?: number) => string): TimelineRow[] {
  const line = i + 1
  if (!isRecord(m)) return [makeRow({ ...base, turnType: 'system', text: `parser: message ${line} of ${file} is not an object`, sourceFile: file, sourceLine: line })]
  const ts = num(m.ts)
  const model = (isRecord(m.modelInfo) ? str(m.modelInfo.modelId) : undefined) ?? modelAt(ts)
  const role: TimelineTurnType = m.role === 'assistant' ? 'assistant' : m.role === 'user' ? 'user' : 'system'
  const at = { ...base, timestampUtc: ts, model, sourceFile: file, sourceLine: line }
  const blocks = Array.isArray(m.content) ? m.content : typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : []
  const out: TimelineRow[] = []
  let result: TimelineRow | undefined
  for (const b of blocks) {
    if (!isRecord(b)) continue
    if (b.type === 'text' && typeof b.text === 'string') {
      if (role === 'assistant') {
        const p = parseAssistantText(b.text)
        if (p.thinking) out.push(makeRow({ ...at, turnType: 'thinking', text: p.thinking }))
        if (p.text) out.push(makeRow({ ...at, turnType: 'assistant', text: p.text }))
        for (const t of p.tools) {
          // attempt_completion, ask_followup_question…: the assistant talking, not a call (legacy-xml.ts).
          const said = CONVERSATIONAL_TAGS[t.name]
          if (said !== undefined) out.push(makeRow({ ...at, turnType: 'assistant', text: t.params[said] ?? '' }))
          else out.push(makeRow({ ...at, turnType: 'tool_use', toolName: t.name, text: inputText(t.params) }))
        }
        continue
      }
      const header = RESULT_HEADER.exec(b.text)
      if (header && CONVERSATIONAL_TAGS[header[1]!] === undefined) {
        result = makeRow({ ...at, turnType: 'tool_result', toolName: header[1]!, text: b.text.slice(header[0].length) })
        out.push(result)
      } else if (result && !isInjectedText(b.text)) {
        // The result's text continues in the next text block ([tool for '…'] Result: + output).
        result.text = result.text ? `${result.text}\n\n${b.text}` : b.text
      } else {
        result = undefined
        out.push(makeRow({ ...at, turnType: role, text: b.text }))
      }
    } else if (b.type === 'tool_use') {
      out.push(makeRow({ ...at, turnType: 'tool_use', toolName: str(b.name) ?? '', toolUseId: str(b.id) ?? '', text: inputText(b.input) }))
    } else if (b.type === 'tool_result') {
      const text = contentText(b.content)
      out.push(makeRow({ ...at, turnType: 'tool_result', toolUseId: str(b.tool_use_id) ?? '', text: b.is_error === true ? `[error] ${text}` : text }))
    } else if (b.type === 'thinking') {
      out.push(makeRow({ ...at, turnType: 'thinking', text: str(b.thinking) ?? '' }))
    } else {
      out.push(makeRow({ ...at, turnType: role, text: `[${String(b.type ?? 'unknown')}]` }))
    }
  }
  return out
}

/** model_usage entries (in file order) and their permission-mode and model rows. */
async function modelUsage(path: string, base: Base, rows: TimelineRow[]): Promise<Record<string, unknown>[]> {
  let v: unknown
  try {
    v = tryParseJson(await readRegularFile(path))
  } catch {
    return []
  }
  if (!isRecord(v)) {
    rows.push(makeRow({ ...base, turnType: 'system', text: `parser: ${path} is not a JSON object`, sourceFile: path }))
    return []
  }
  const list = (Array.isArray(v.model_usage) ? v.model_usage : []).filter(isRecord)
  let prev: Record<string, unknown> | undefined
  for (const u of list) {
    const ts = num(u.ts)
    const mode = str(u.mode)
    const model = str(u.model_id)
    const tail = pairs([['model_provider_id', u.model_provider_id], ['mode', u.mode]])
    const at = { ...base, turnType: 'system' as const, timestampUtc: ts, model: model ?? '', sourceFile: path }
    if (!prev) {
      if (mode) rows.push(makeRow({ ...at, text: `permission mode: ${mode}` }))
      if (model) rows.push(makeRow({ ...at, text: `model: ${model}${tail ? ` ${tail}` : ''}` }))
    } else {
      const pm = str(prev.mode)
      const pmodel = str(prev.model_id)
      if (mode && pm && mode !== pm) rows.push(makeRow({ ...at, text: `permission mode: ${pm} -> ${mode}` }))
      if (model && pmodel && model !== pmodel) rows.push(makeRow({ ...at, text: `model: ${pmodel} -> ${model}${tail ? ` ${tail}` : ''}` }))
    }
    prev = u
  }
  return list
}

async function readArray(path: string, base: Base, rows: TimelineRow[]): Promise<unknown[] | undefined> {
  let text: string
  try {
    text = await readRegularFile(path)
  } catch (err) {
    rows.push(makeRow({ ...base, turnType: 'system', text: `parser: could not read ${path}: ${(err as Error).message}`, sourceFile: path }))
    return undefined
  }
  const s = salvageJsonArray(text)
  if (!s.complete) {
    const line = lineAt(text, s.errorOffset ?? 0)
    rows.push(makeRow({ ...base, turnType: 'system', text: `parser: ${path} is cut or damaged at line ${line} (${s.error}); kept the ${s.items.length} records before it`, sourceFile: path, sourceLine: line }))
  }
  return s.items
}

/** The `task history:` row of a task the index lists but whose folder is gone. */
export function orphanHistoryRow(agent: AgentId, item: Record<string, unknown>, file: string): TimelineRow {
  const text = `task history: ${str(item.task) ?? ''} (task folder is gone) ${pairs([
    ['tokens_in', item.tokensIn],
    ['tokens_out', item.tokensOut],
    ['cost', item.totalCost],
  ])}`.trim()
  return makeRow({
    agent,
    sessionId: String(item.id),
    projectPath: str(item.cwdOnTaskInitialization) ?? str(item.workspace) ?? '',
    turnType: 'system',
    timestampUtc: num(item.ts),
    model: str(item.modelId) ?? '',
    text,
    sourceFile: file,
  })
}
