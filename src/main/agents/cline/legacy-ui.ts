/**
 * Nodes from a legacy task's `ui_messages.json` (ClineMessage[]), the preferred source because
 * every record has a time (seed 000 "Parser plan": one row per ui_messages entry).
 *
 * ClineMessage (seed 000 "Legacy task files", apps/vscode/src/shared/ExtensionMessage.ts:178-294):
 * {ts (ms, also the identity), type: ask|say, ask?, say?, text?, reasoning?, images?, files?,
 * partial?, modelInfo?{modelId, providerId, mode}, conversationHistoryIndex?, lastCheckpointHash?}.
 * `text` is JSON for say/ask `tool` (ClineSayTool {tool, path, diff, content, ...}),
 * `api_req_started` (ClineApiReqInfo {request, tokensIn, tokensOut, cacheWrites, cacheReads, cost})
 * and `use_mcp_server` ({serverName, type, toolName, arguments, uri}).
 *
 * Mapping (seed 000 "Parser plan" turn_type column):
 * - say task / user_feedback → user node; so is a first record `say: text`, the task as Roo
 *   Code, Kilo Code, PearAI and Cline before `say: task` record it (Task.startTask:
 *   `await this.say("text", task, images)`).
 * - say text / completion_result, ask followup / plan_mode_respond → assistant text; say
 *   reasoning → assistant thinking. Consecutive says of one API request merge into one assistant
 *   node; `api_req_started` opens a new request and its token counts go on the next assistant node.
 * - say/ask command, tool, use_mcp_server, browser_action → tool calls with ids `ui-<ts>`.
 * - ask/say command_output, say mcp_server_response, browser_action_result → the result node of
 *   the preceding call. File tools have no UI result: the next `api_req_started` request text
 *   (`[write_to_file for 'x'] Result: …`) is their result, and gives commands their exit code.
 * - say error / diff_error, ask api_req_failed / mistake_limit_reached → system nodes.
 * - ask resume_task, api_req_finished/retried, empty completion_result... → skipped; other
 *   records with text → `unknown-event` system nodes.
 * - `lastCheckpointHash` → checkpoints {ref, kind: 'shadow-git', createdAt: ts}.
 * - A say text still `partial: true` (the stream never finished in the UI) holds a fragment; the
 *   full text is the API history's assistant text that starts with it (`fullTexts`).
 * - A call of a request with no result when `resume_task` follows was interrupted: `status: failed`,
 *   `metadata.interrupted`.
 * - `completion_result` loses the `HAS_CHANGES` marker Cline appends (AttemptCompletionHandler).
 * - A file tool's result (`[name for 'path'] Result:`) pairs with the waiting call of that name
 *   and path, not the oldest call of that name.
 */
import type { ContentBlock, MessageNode, Session, ToolCall, Usage } from '../../../shared/ir'
import { addDiagnostic } from '../../ir/build'
import { toolKind } from '../../ir/toolkind'
import { isRecord, tryParseJson } from '../../util/json'
import { exitCodeFromText, makeToolCall, type NodeIds, num, str, usageOf } from './common'
import { stripChangesFlag } from './legacy-api'
import { parseAssistantText, RESULT_HEADER, splitInjected } from './legacy-xml'

/** ClineSayTool.tool → the XML tool name the model used (cline src/core/task/tools/handlers, Roo Code). */
const SAY_TOOL_NAMES: Record<string, string> = {
  editedExistingFile: 'replace_in_file', newFileCreated: 'write_to_file', fileDeleted: 'delete_file',
  readFile: 'read_file', listFilesTopLevel: 'list_files', listFilesRecursive: 'list_files',
  listCodeDefinitionNames: 'list_code_definition_names', searchFiles: 'search_files', webFetch: 'web_fetch',
  webSearch: 'web_search', appliedDiff: 'apply_diff', insertContent: 'insert_content',
  searchAndReplace: 'search_and_replace', codebaseSearch: 'codebase_search', newTask: 'new_task',
  switchMode: 'switch_mode', summarizeTask: 'summarize_task', updateTodoList: 'update_todo_list',
  fetchInstructions: 'fetch_instructions',
}

/** Tools the UI records as `editedExistingFile` when the file existed. */
const EDIT_TOOLS = new Set(['write_to_file', 'replace_in_file', 'apply_diff', 'insert_content', 'search_and_replace'])

const SKIPPED = new Set([
  'api_req_finished', 'api_req_retried', 'api_req_retry_delayed', 'mcp_server_request_started', 'checkpoint_created',
  'resume_task', 'resume_completed_task', 'deleted_api_reqs', 'task_progress',
])
const ERRORS = new Set(['error', 'api_req_failed', 'diff_error', 'clineignore_error', 'mistake_limit_reached', 'error_retry'])

/** Append nodes (and checkpoints) for the UI messages `items` to the session. */
export function uiMessagesToNodes(items: unknown[], session: Session, file: string, ids: NodeIds, fullTexts: string[] = []): void {
  let cur: MessageNode | undefined
  let usage: Usage | undefined
  let lastCall: ToolCall | undefined
  let lastResult: MessageNode | undefined
  let awaiting: ToolCall[] = []
  /** Calls made since the last `api_req_started`: unanswered ones at a `resume_task` were interrupted. */
  let sinceRequest: ToolCall[] = []
  const results = new Set<string>()
  const checkpoints = new Set(session.checkpoints.map((c) => c.ref))
  /** The UI text each call was made from, to drop an ask/say pair recording the same call twice. */
  const rawOf = new WeakMap<ToolCall, string>()

  const assistant = (m: Record<string, unknown>, ts: number | undefined): MessageNode => {
    if (!cur) {
      cur = { nodeId: ids.take(`ui-${ts ?? session.nodes.length}`), role: 'assistant', content: '' }
      if (ts !== undefined) cur.createdAt = ts
      if (usage) cur.usage = usage
      usage = undefined
      session.nodes.push(cur)
    }
    const model = isRecord(m.modelInfo) ? str(m.modelInfo.modelId) : undefined
    if (model && !cur.model) cur.model = model
    return cur
  }
  const say = (m: Record<string, unknown>, ts: number | undefined, text: string, meta?: Record<string, unknown>) => {
    const node = assistant(m, ts)
    node.content = node.content ? `${node.content}\n\n${text}` : text
    if (meta) node.metadata = { ...node.metadata, ...meta }
  }
  const call = (m: Record<string, unknown>, ts: number | undefined, name: string, args: unknown, raw: string) => {
    if (lastCall && !results.has(lastCall.id) && cur?.toolCalls?.includes(lastCall) && rawOf.get(lastCall) === raw) return
    const c = makeToolCall(ids.take(`ui-${ts ?? session.nodes.length}`), name, args)
    rawOf.set(c, raw)
    sinceRequest.push(c)
    const node = assistant(m, ts)
    ;(node.toolCalls ??= []).push(c)
    lastCall = c
    return c
  }
  const result = (ts: number | undefined, target: ToolCall | undefined, text: string, kind: string) => {
    if (target && lastResult?.toolCallId === target.id && session.nodes[session.nodes.length - 1] === lastResult) {
      lastResult.content = lastResult.content ? `${lastResult.content}\n${text}` : text
      return
    }
    const node: MessageNode = { nodeId: ids.take(`ui-${ts ?? session.nodes.length}`), role: 'tool', content: text, toolCallId: target?.id ?? `ui-${ts}:orphan` }
    if (target) node.toolName = target.name
    if (ts !== undefined) node.createdAt = ts
    node.metadata = { ui: kind }
    if (/^(The tool execution failed|The user denied this operation)/.test(text)) node.isError = true
    session.nodes.push(node)
    if (target) results.add(target.id)
    lastResult = node
    cur = undefined
  }

  items.forEach((raw, i) => {
    if (!isRecord(raw)) {
      addDiagnostic(session, { severity: 'warning', path: file, message: `UI message ${i + 1} is not an object; skipped.` })
      return
    }
    const m = raw
    const ts = num(m.ts)
    const kind = firstTaskText(m, i) ? 'task' : (str(m.say) ?? str(m.ask) ?? '')
    const text = typeof m.text === 'string' ? m.text : ''
    const hash = str(m.lastCheckpointHash)
    if (hash && !checkpoints.has(hash)) {
      checkpoints.add(hash)
      session.checkpoints.push({ ref: hash, kind: 'shadow-git', ...(ts !== undefined ? { createdAt: ts } : {}) })
    }
    if (typeof m.reasoning === 'string' && m.reasoning && kind !== 'reasoning') addThinking(assistant(m, ts), m.reasoning)
    if (kind === 'resume_task' || kind === 'resume_completed_task') {
      // The task was stopped and reopened: a call of the stopped request with no result never ran.
      for (const c of sinceRequest) {
        if (results.has(c.id)) continue
        c.status = 'failed'
        c.metadata = { ...c.metadata, interrupted: true }
      }
      sinceRequest = []
    }

    switch (kind) {
      case 'task':
      case 'user_feedback': {
        cur = undefined
        awaiting = []
        const node: MessageNode = { nodeId: ids.take(`ui-${ts ?? i}`), role: 'user', content: text }
        const blocks = attachments(m)
        if (blocks.length) node.blocks = [...(text ? [{ type: 'text', text } as ContentBlock] : []), ...blocks]
        if (ts !== undefined) node.createdAt = ts
        if (kind === 'user_feedback') node.metadata = { ui: kind }
        session.nodes.push(node)
        return
      }
      case 'api_req_started': {
        cur = undefined
        const info = tryParseJson(text)
        if (!isRecord(info)) return
        sinceRequest = []
        usage = usageOf({ inputTokens: info.tokensIn, outputTokens: info.tokensOut, cacheWriteTokens: info.cacheWrites, cacheReadTokens: info.cacheReads, cost: info.cost })
        if (typeof info.request === 'string') requestResult(info.request, ts)
        return
      }
      case 'reasoning':
        if (text) addThinking(assistant(m, ts), text)
        return
      case 'text': {
        const full = m.partial === true && text ? fullTexts.find((t) => t.trimStart().startsWith(text.trim()) && t.length > text.length) : undefined
        if (full) say(m, ts, parseAssistantText(full).text || full, { partialInUi: true })
        else if (text) say(m, ts, text)
        return
      }
      case 'followup':
      case 'plan_mode_respond':
      case 'act_mode_respond': {
        const j = tryParseJson(text)
        const body = isRecord(j) ? (str(j.question) ?? str(j.response) ?? text) : text
        if (body) say(m, ts, body, { ui: kind, ...(isRecord(j) && Array.isArray(j.options) ? { options: j.options } : {}) })
        return
      }
      case 'command':
        if (text) call(m, ts, 'execute_command', { command: text }, text)
        return
      case 'command_output':
        result(ts, lastCall?.name === 'execute_command' ? lastCall : undefined, text, kind)
        return
      case 'tool': {
        const j = tryParseJson(text)
        const toolName = isRecord(j) ? str(j.tool) : undefined
        const c = call(m, ts, toolName ? (SAY_TOOL_NAMES[toolName] ?? toolName) : 'tool', j ?? text, text)
        if (c) awaiting.push(c)
        return
      }
      case 'use_mcp_server': {
        const j = tryParseJson(text)
        const args = isRecord(j) && typeof j.arguments === 'string' ? { ...j, arguments: tryParseJson(j.arguments) ?? j.arguments } : (j ?? text)
        call(m, ts, isRecord(j) && j.type === 'access_mcp_resource' ? 'access_mcp_resource' : 'use_mcp_tool', args, text)
        return
      }
      case 'mcp_server_response':
        result(ts, lastCall && /mcp/.test(lastCall.name) ? lastCall : undefined, text, kind)
        return
      case 'browser_action_launch':
        call(m, ts, 'browser_action', { action: 'launch', url: text }, text)
        return
      case 'browser_action':
        call(m, ts, 'browser_action', tryParseJson(text) ?? text, text)
        return
      case 'browser_action_result': {
        const j = tryParseJson(text)
        const body = isRecord(j) ? [str(j.currentUrl) && `URL: ${j.currentUrl}`, str(j.logs)].filter(Boolean).join('\n') : text
        result(ts, lastCall?.name === 'browser_action' ? lastCall : undefined, body, kind)
        return
      }
    }
    if (ERRORS.has(kind)) {
      cur = undefined
      if (!text) return
      const node: MessageNode = { nodeId: ids.take(`ui-${ts ?? i}`), role: 'system', content: text, metadata: { ui: kind } }
      if (ts !== undefined) node.createdAt = ts
      session.nodes.push(node)
      return
    }
    if (kind === 'completion_result') {
      // say completion_result is the final answer; the ask that follows repeats it or is empty.
      const answer = stripChangesFlag(text)
      if (answer && m.type === 'say') say(m, ts, answer, { ui: kind })
      else if (answer && cur?.content.endsWith(answer) !== true) say(m, ts, answer, { ui: kind })
      return
    }
    if (SKIPPED.has(kind) || !text) return
    const node: MessageNode = { nodeId: ids.take(`ui-${ts ?? i}`), role: 'system', content: text, event: 'unknown-event', metadata: { ui: kind, type: m.type } }
    if (ts !== undefined) node.createdAt = ts
    session.nodes.push(node)
  })

  /** A new API request whose text starts with a tool result: the result of a file tool, or a command's exit code. */
  function requestResult(request: string, ts: number | undefined): void {
    const header = RESULT_HEADER.exec(request)
    if (!header) return
    const name = header[1]!
    const body = splitInjected(request.slice(header[0].length)).text
    if (name === 'execute_command') {
      const target = lastCall?.name === 'execute_command' ? lastCall : undefined
      const code = exitCodeFromText(body)
      if (target && code !== undefined) target.exitCode = code
      if (target && !results.has(target.id)) result(ts, target, body, 'api_req_started')
      return
    }
    const path = header[2]
    const pathOf = (c: ToolCall) => (isRecord(c.arguments) ? str(c.arguments.path) : undefined)
    // `editedExistingFile` is any write to an existing file (write_to_file or replace_in_file): the
    // request's header names the tool the model called.
    const same = (c: ToolCall) => c.name === name || (EDIT_TOOLS.has(name) && isRecord(c.arguments) && c.arguments.tool === 'editedExistingFile')
    let idx = awaiting.findIndex((c) => same(c) && path !== undefined && pathOf(c) === path)
    if (idx < 0) idx = awaiting.findIndex((c) => same(c) && (path === undefined || pathOf(c) === undefined))
    if (idx < 0) return
    const target = awaiting.splice(idx, 1)[0]!
    if (target.name !== name) {
      target.name = name
      target.kind = toolKind(name)
    }
    if (!results.has(target.id)) result(ts, target, body, 'api_req_started')
  }
}

/** True for the first record when it is `say: text`: the task, as Roo Code and older Cline write it (Task.startTask). */
export function firstTaskText(m: Record<string, unknown>, index: number): boolean {
  return index === 0 && m.type === 'say' && m.say === 'text'
}

function addThinking(node: MessageNode, text: string): void {
  node.thinking = node.thinking ? `${node.thinking}\n\n${text}` : text
}

/** `images` (data URLs) and `files` (paths) of a ClineMessage as content blocks. */
function attachments(m: Record<string, unknown>): ContentBlock[] {
  const out: ContentBlock[] = []
  for (const img of Array.isArray(m.images) ? m.images : []) {
    if (typeof img !== 'string') continue
    const d = /^data:([^;,]+);base64,(.*)$/s.exec(img)
    out.push(d ? { type: 'image', mediaType: d[1]!, data: d[2]! } : { type: 'image', uri: img })
  }
  for (const f of Array.isArray(m.files) ? m.files : []) if (typeof f === 'string') out.push({ type: 'file', path: f })
  return out
}
