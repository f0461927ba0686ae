/**
 * Read one VS Code Copilot Chat session into the IR. Shapes from microsoft/vscode
 * src/vs/workbench/contrib/chat/common/chatModel.ts @007a74ad (`ISerializableChatData` v3 and its
 * v1/v2 predecessors), chatService.ts (`IChatToolInvocationSerialized`) and, for `.jsonl` files,
 * common/model/objectMutationLog.ts @047238f9:
 * - session: `{version, sessionId, creationDate, lastMessageDate (ms since epoch), customTitle
 *   (v3; `computedTitle` in v2), requesterUsername, responderUsername, initialLocation, requests}`;
 * - request: `{requestId, message: string (old) | {text, parts}, variableData: {variables: [{id,
 *   name, value, kind?}]}, response: [part...], result?: {errorDetails?: {message}, timings?:
 *   {firstProgress, totalElapsed} (ms), metadata?}, followups, isCanceled, agent?: {id, ...},
 *   modelId?, timestamp? (ms since epoch), responseId?}`;
 * - response parts: an `IMarkdownString` `{value}` with no `kind` (how `toJSON` stores markdown),
 *   or `{kind: "markdownContent"|"markdownVuln", content: {value}}`, `{kind: "thinking", value:
 *   string | string[]}`, `{kind: "inlineReference", inlineReference: URI | Location, name?}`,
 *   `{kind: "toolInvocationSerialized", toolId, toolCallId, invocationMessage, pastTenseMessage,
 *   isComplete, isConfirmed, resultDetails?: URI[] | {input, output: [{type, value, isText?}],
 *   isError?}, toolSpecificData?}`, `{kind: "textEditGroup", uri, edits: TextEdit[][]}`,
 *   `{kind: "codeblockUri", uri}`, and UI-only kinds (`progressMessage`, `undoStop`,
 *   `prepareToolInvocation`, `confirmation`, `warning`, `command`, `treeData`, ...), not shown;
 * - `.jsonl`: one entry a line, `{kind: 0, v: <whole session>}` first, then `{kind: 1, k: path,
 *   v}` (set), `{kind: 2, k: path, v?: items, i?: cut index}` (push/splice), `{kind: 3, k: path}`
 *   (delete), replayed in order as `ObjectMutationLog.read` does.
 * A request becomes a user node (its `requestId`), its response one assistant node per run of text
 * between tool invocations; each completed invocation is a tool call followed by its result node
 * (the result is `resultDetails.output` text, else the files it lists, else the past-tense message).
 * `errorDetails` becomes an `api-error` marker and `isCanceled` an `interrupted` marker. Bad input
 * (not JSON, wrong types, a log entry whose path does not exist) becomes a diagnostic naming the
 * file (and line for `.jsonl`); the rest loads.
 */
import { readFile } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import type { MessageNode, Session, ToolCall, ToolKind } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession, pushChained, skipRecord } from '../../ir/build'
import { toolKind } from '../../ir/toolkind'
import type { ReadContext, StoreRef } from '../types'
import { FORMAT_JSONL } from './discover'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** Response part kinds that are UI state only (chatModel.ts `partsToRepr` ignores or summarises them). */
const UI_KINDS = new Set(['progressMessage', 'progressTask', 'progressTaskSerialized', 'undoStop', 'prepareToolInvocation', 'codeblockUri', 'treeData', 'command', 'confirmation', 'warning', 'mcpServersStarting', 'elicitation', 'elicitationSerialized', 'extensions', 'pullRequest', 'questionCarousel', 'notebookEditGroup', 'multiDiffData', 'references'])

/** Copilot Chat tool ids (microsoft/vscode-copilot-chat src/extension/tools/common/toolNames.ts) → ACP kind. */
const KINDS: Record<string, ToolKind> = {
  copilot_readFile: 'read', read_file: 'read', copilot_listDirectory: 'read', list_dir: 'read',
  copilot_findFiles: 'search', file_search: 'search', copilot_findTextInFiles: 'search', grep_search: 'search', copilot_searchCodebase: 'search', semantic_search: 'search',
  copilot_insertEdit: 'edit', insert_edit_into_file: 'edit', copilot_replaceString: 'edit', replace_string_in_file: 'edit', copilot_multiReplaceString: 'edit', copilot_createFile: 'edit', create_file: 'edit', copilot_applyPatch: 'edit', apply_patch: 'edit', vscode_editFile_internal: 'edit',
  run_in_terminal: 'execute', copilot_runInTerminal: 'execute', runInTerminal: 'execute', copilot_runTests: 'execute',
  copilot_fetchWebPage: 'fetch', fetch_webpage: 'fetch',
  copilot_think: 'think',
}

/** The text of a `string | IMarkdownString`. */
function mdText(v: unknown): string | undefined {
  return str(v) ?? str(obj(v)?.value)
}

/** A path from a serialized `URI` (`{scheme, path, fsPath?}`) or `Location` (`{uri, range}`). */
function uriPath(v: unknown): string | undefined {
  const o = obj(v)
  if (!o) return str(v)
  if (obj(o.uri)) return uriPath(o.uri)
  return str(o.fsPath) ?? str(o.path) ?? str(o.external)
}

function basename(p: string): string {
  return p.split(/[\\/]/).filter(Boolean).pop() ?? p
}

/** Replay an `ObjectMutationLog` file; bad lines are diagnostics. Undefined when no initial entry. */
function replayLog(session: Session, path: string, text: string): unknown {
  let state: unknown
  text.split('\n').forEach((raw, i) => {
    const line = i + 1
    if (raw.trim() === '') return
    let e: Json | undefined
    try {
      e = obj(JSON.parse(raw))
    } catch {
      skipRecord(session, { severity: 'warning', path, line, message: 'log entry is not JSON (cut short?); skipped' })
      return
    }
    if (!e) {
      skipRecord(session, { severity: 'warning', path, line, message: 'log entry is not a JSON object; skipped' })
      return
    }
    const kind = e.kind
    if (kind === 0) {
      state = e.v
      return
    }
    if (state === undefined) {
      skipRecord(session, { severity: 'warning', path, line, message: 'log entry before the initial state; skipped' })
      return
    }
    const k = Array.isArray(e.k) && e.k.every((x) => typeof x === 'string' || typeof x === 'number') ? (e.k as (string | number)[]) : undefined
    if (!k || (kind !== 1 && kind !== 2 && kind !== 3)) {
      skipRecord(session, { severity: 'warning', path, line, message: `log entry of kind ${JSON.stringify(kind)} without a valid path; skipped` })
      return
    }
    if (k.length === 0) {
      if (kind === 1) state = e.v
      return
    }
    let cur = state as Record<string | number, unknown>
    for (const seg of k.slice(0, -1)) {
      const next = cur?.[seg]
      if (typeof next !== 'object' || next === null) {
        skipRecord(session, { severity: 'warning', path, line, message: `log entry path ${JSON.stringify(k)} does not exist; skipped` })
        return
      }
      cur = next as Record<string | number, unknown>
    }
    const last = k[k.length - 1]!
    if (kind === 1) cur[last] = e.v
    else if (kind === 3) delete cur[last]
    else {
      const arr = Array.isArray(cur[last]) ? (cur[last] as unknown[]) : []
      if (typeof e.i === 'number') arr.length = Math.max(0, Math.min(arr.length, e.i))
      if (Array.isArray(e.v)) arr.push(...e.v)
      cur[last] = arr
    }
  })
  return state
}

/** The result text of a serialized tool invocation, and whether it reports an error. */
function resultOf(t: Json): { text: string; isError: boolean } {
  const d = t.resultDetails
  const io = obj(d)
  if (io && Array.isArray(io.output)) {
    const text = io.output.map((o) => str(obj(o)?.value) ?? '').filter((s) => s !== '').join('\n')
    return { text: text || (mdText(t.pastTenseMessage) ?? ''), isError: io.isError === true }
  }
  if (Array.isArray(d)) {
    const paths = d.map(uriPath).filter((x): x is string => !!x)
    if (paths.length) return { text: paths.join('\n'), isError: false }
  }
  return { text: mdText(t.pastTenseMessage) ?? mdText(t.invocationMessage) ?? '', isError: false }
}

/** Arguments of a serialized invocation: `resultDetails.input` (JSON text) or the terminal command. */
function argumentsOf(t: Json): unknown {
  const input = obj(t.resultDetails)?.input
  if (typeof input === 'string') {
    try {
      return JSON.parse(input)
    } catch {
      return input
    }
  }
  const tsd = obj(t.toolSpecificData)
  if (tsd?.kind === 'terminal') {
    const cmd = str(obj(tsd.commandLine)?.original) ?? str(tsd.command)
    if (cmd !== undefined) return { command: cmd }
  }
  if (tsd?.kind === 'input' && tsd.rawInput !== undefined) return tsd.rawInput
  return {}
}

/** Read the session `ref` names. Rejects with `READ_FAILED` only when the file cannot be opened. */
export async function readVscodeCopilotChatSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no session file' })
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${(e as Error).message}`, path })
  }
  const session = newSession('vscode-copilot-chat', ref.sessionId, ref.format, ref.files, ref.home)
  const hints = ref.hints ?? {}
  if (typeof hints.workspaceFolder === 'string') session.workingDirectory = hints.workspaceFolder
  if (typeof hints.workspaceFile === 'string') session.metadata.workspaceFile = hints.workspaceFile
  if (typeof hints.editor === 'string') session.metadata.editor = hints.editor
  if (hints.emptyWindow === true) session.metadata.emptyWindow = true

  let raw: unknown
  if (ref.format === FORMAT_JSONL) raw = replayLog(session, path, text)
  else {
    try {
      raw = JSON.parse(text)
    } catch (e) {
      addDiagnostic(session, { severity: 'error', path, message: `session file is not JSON (cut short?): ${(e as Error).message}` })
      return finishSession(session)
    }
  }
  const data = obj(raw)
  if (!data) {
    addDiagnostic(session, { severity: 'error', path, message: 'session file holds no chat session object' })
    return finishSession(session)
  }
  if (str(data.sessionId) && data.sessionId !== ref.sessionId) session.metadata.storedSessionId = data.sessionId
  if (num(data.version) !== undefined) session.metadata.chatDataVersion = data.version
  for (const k of ['requesterUsername', 'responderUsername', 'initialLocation'] as const) if (data[k] !== undefined) session.metadata[k] = data[k]
  const title = str(data.customTitle) ?? str(data.computedTitle)
  if (title) session.title = title
  if (num(data.creationDate) !== undefined) session.createdAt = num(data.creationDate)
  if (num(data.lastMessageDate) !== undefined) session.lastActivityAt = num(data.lastMessageDate)
  if (!Array.isArray(data.requests)) {
    addDiagnostic(session, { severity: 'warning', path, message: '`requests` is not a list; the session has no messages' })
    return finishSession(session)
  }

  const push = (n: MessageNode): MessageNode => pushChained(session, n)
  const unknownKinds = new Set<string>()
  data.requests.forEach((r0, i) => {
    const r = obj(r0)
    if (!r) {
      skipRecord(session, { severity: 'warning', path, message: `requests[${i}] is not an object; skipped` })
      return
    }
    const requestId = str(r.requestId) ?? `request-${i}`
    const at = num(r.timestamp) !== undefined && num(r.timestamp)! > 0 ? num(r.timestamp) : undefined
    const message = str(r.message) ?? str(obj(r.message)?.text)
    if (message === undefined) addDiagnostic(session, { severity: 'warning', path, message: `requests[${i}] (${requestId}) has no message text` })
    const variables = Array.isArray(obj(r.variableData)?.variables) ? (obj(r.variableData)!.variables as unknown[]) : []
    const attachments = variables.map((v) => str(obj(v)?.name)).filter((x): x is string => !!x)
    push({ nodeId: requestId, role: 'user', content: message ?? '', ...(at !== undefined && { createdAt: at }), ...(attachments.length && { metadata: { attachments } }) })

    const model = str(r.modelId)
    const agentId = str(obj(r.agent)?.id)
    const result = obj(r.result)
    const totalElapsed = num(obj(result?.timings)?.totalElapsed)
    let cur: MessageNode | undefined
    let seg = 0
    const assistant = (): MessageNode => {
      if (cur) return cur
      cur = push({
        nodeId: `${str(r.responseId) ?? requestId}#${seg++}`,
        role: 'assistant',
        content: '',
        ...(at !== undefined && { createdAt: at }),
        ...(model && { model }),
        ...(agentId && { metadata: { agent: agentId } }),
      })
      return cur
    }
    const appendText = (t: string): void => {
      const n = assistant()
      n.content += t
    }
    const response = r.response
    if (response !== undefined && response !== null && !Array.isArray(response)) {
      addDiagnostic(session, { severity: 'warning', path, message: `requests[${i}].response is not a list; the response is not read` })
    }
    const calls: ToolCall[] = []
    for (const p0 of Array.isArray(response) ? response : []) {
      const p = obj(p0)
      if (!p) continue
      const kind = str(p.kind)
      if (kind === undefined || kind === 'markdownContent' || kind === 'markdownVuln') {
        const t = kind === undefined ? str(p.value) : mdText(p.content)
        if (t !== undefined) appendText(t)
        continue
      }
      if (kind === 'thinking') {
        const v = Array.isArray(p.value) ? p.value.filter((x) => typeof x === 'string').join('') : str(p.value) ?? ''
        if (v !== '') {
          const n = assistant()
          n.thinking = n.thinking ? `${n.thinking}\n\n${v}` : v
        }
        continue
      }
      if (kind === 'inlineReference') {
        const ref2 = p.inlineReference
        const name = str(p.name) ?? str(obj(ref2)?.name)
        const pth = uriPath(ref2)
        appendText(`\`${name ?? (pth ? basename(pth) : '')}\``)
        continue
      }
      if (kind === 'toolInvocationSerialized' || kind === 'toolInvocation') {
        const id = str(p.toolCallId) ?? `${requestId}#tool${calls.length}`
        const name = str(p.toolId) ?? '(unnamed)'
        const call: ToolCall = { id, name, kind: KINDS[name] ?? toolKind(name), arguments: argumentsOf(p) }
        const msg = mdText(p.invocationMessage)
        call.metadata = { ...(msg && { invocationMessage: msg }), ...(str(obj(p.source)?.label) && { source: str(obj(p.source)?.label) }) }
        const exit = num(obj(obj(p.toolSpecificData)?.terminalCommandState)?.exitCode)
        if (exit !== undefined) call.exitCode = exit
        if (p.isConfirmed === false) call.metadata.refused = true
        const n = assistant()
        n.toolCalls = [...(n.toolCalls ?? []), call]
        calls.push(call)
        if (p.isComplete === true) {
          const res = resultOf(p)
          push({ nodeId: `${id}#result`, role: 'tool', toolCallId: id, toolName: name, content: res.text, ...(res.isError && { isError: true }), ...(at !== undefined && { createdAt: at }) })
        } else if (!call.metadata.refused) {
          call.metadata.interrupted = true
        }
        if (Object.keys(call.metadata).length === 0) delete call.metadata
        cur = undefined
        continue
      }
      if (kind === 'textEditGroup') {
        const target = uriPath(p.uri)
        if (target) {
          const edits = Array.isArray(p.edits) ? p.edits.flat() : []
          const newText = edits.map((e) => str(obj(e)?.text) ?? '').join('')
          const edit = { path: target, edits: edits.length, ...(newText && { text: newText }) }
          // The edit belongs to the tool call before it (an edit tool); else to the text.
          const last = cur === undefined ? calls[calls.length - 1] : undefined
          if (last) {
            last.locations = [...(last.locations ?? []), { path: target }]
            last.metadata = { ...last.metadata, edits: [...((last.metadata?.edits as unknown[] | undefined) ?? []), edit] }
          } else {
            const n = assistant()
            n.metadata = { ...n.metadata, edits: [...((n.metadata?.edits as unknown[] | undefined) ?? []), edit] }
          }
        }
        continue
      }
      if (!UI_KINDS.has(kind) && !unknownKinds.has(kind)) {
        unknownKinds.add(kind)
        addDiagnostic(session, { severity: 'info', path, message: `response part kind ${JSON.stringify(kind)} is not read; skipped` })
      }
    }
    if (totalElapsed !== undefined && session.nodes.length > 0) {
      const lastAssistant = [...session.nodes].reverse().find((n) => n.role === 'assistant')
      if (lastAssistant && lastAssistant.nodeId.startsWith(`${str(r.responseId) ?? requestId}#`)) lastAssistant.metadata = { ...lastAssistant.metadata, totalElapsedMs: totalElapsed }
    }
    const err = str(obj(result?.errorDetails)?.message)
    if (err) push({ nodeId: `${requestId}#error`, role: 'system', event: 'api-error', content: err, ...(at !== undefined && { createdAt: at }) })
    if (r.isCanceled === true) push({ nodeId: `${requestId}#canceled`, role: 'system', event: 'interrupted', content: 'Request cancelled', ...(at !== undefined && { createdAt: at }) })
  })
  return finishSession(session)
}
