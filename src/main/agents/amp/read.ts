/**
 * Read one Amp thread (`T-<uuid>.json`) into the IR.
 *
 * Amp's CLI is a compiled binary whose JavaScript is not stored as readable text (checked on
 * `@ampcode/cli-linux-x64` 0.0.1790142911-g7618fb), and it needs an ampcode.com login for every
 * model call, so the shapes come from two public readers of the store: plyght/amp-acp
 * `src/amp_agent.rs` (commit 09f2897c: content blocks `text`, `thinking`, `tool_use { id, name,
 * input }`, `tool_result { toolUseID, run }`, `run.result.diff` of `edit_file`; tool names `Bash`
 * (`cmd`, `cwd?`), `Read` (`path`, `read_range?`), `create_file` (`path`, `content`), `edit_file`
 * (`path`, `old_str`, `new_str`), `Grep`, `glob`, `finder`, `todo_write`, `Task`, `oracle`, …) and
 * jonathan-kellerai/cross_agent_session_resumer `src/providers/amp.rs` (commit ec0eab96: thread
 * `{ v, id, created (ms), title?, env.initial { cwd?, trees[{ uri: "file://…", displayName }] },
 * messages }`; message `{ role: "user" | "assistant" | "info", content, meta.sentAt (ms) }`;
 * `run.status` "done" | "error" | "cancelled" | "rejected-by-user", with `progress` or `result`;
 * `info` messages carrying `summary` blocks). Also from the public description in noamsto/houston
 * `docs/AMP_AGENT_SUPPORT.md`: `messageId`, `state { type, stopReason }`, `usage { model,
 * inputTokens, outputTokens, … }` on assistant messages.
 *
 * Per message: `usage.inputTokens` / `outputTokens` / `cacheReadInputTokens` /
 * `cacheCreationInputTokens` become the node's usage and `usage.model` its model; `state.type`
 * "cancelled" marks an interrupted turn. A Bash result `{ output, exitCode }` gives the call's exit
 * code. A file that is not JSON is one diagnostic naming the line of the error; a message that is
 * not an object, or a role or block type not in {@link KNOWN_ROLES} / {@link KNOWN_BLOCK_TYPES}, is a
 * diagnostic naming the line where that message starts (the line of its `messageId` key).
 */
import { readFile } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import type { ContentBlock, MessageNode, Session, ToolCall, Usage } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession, skipRecord } from '../../ir/build'
import { toolKind } from '../../ir/toolkind'
import { lineAt } from '../../util/json'
import type { ReadContext, StoreRef } from '../types'
import { KNOWN_ROLES, KNOWN_BLOCK_TYPES } from './format'

/** Moved to ./format.ts so discovery and the census load without this reader; kept here for its importers. */
export { KNOWN_ROLES, KNOWN_BLOCK_TYPES } from './format'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

const AMP_KINDS: Record<string, ToolCall['kind']> = { Bash: 'execute', Read: 'read', create_file: 'edit', edit_file: 'edit', undo_edit: 'edit', Grep: 'search', glob: 'search', finder: 'search', web_search: 'fetch', read_web_page: 'fetch', read_mcp_resource: 'fetch', todo_write: 'other', todo_read: 'other', Task: 'other', oracle: 'think', mermaid: 'other' }
const kindOf = (name: string): ToolCall['kind'] => AMP_KINDS[name] ?? toolKind(name)
const FAILED = new Set(['error', 'cancelled', 'rejected-by-user'])

/** A project path from `env.initial`: `cwd`, else the first `file://` tree. */
function workspaceOf(thread: Json): string | undefined {
  const init = obj(obj(thread.env)?.initial)
  if (str(init?.cwd)) return str(init?.cwd)
  for (const t of Array.isArray(init?.trees) ? init!.trees : []) {
    const uri = str(obj(t)?.uri)
    if (uri?.startsWith('file://')) {
      try {
        return decodeURIComponent(uri.slice('file://'.length).replace(/^localhost\//, '/'))
      } catch {
        return uri.slice('file://'.length)
      }
    }
  }
  return undefined
}

/** Text of a tool run: `progress` / `result` (string, `{ output }`, or other JSON) / `error`. */
function runText(run: Json | undefined): string {
  if (!run) return ''
  const r = run.result
  if (typeof r === 'string') return r
  if (str(obj(r)?.output) !== undefined) return str(obj(r)?.output)!
  if (Array.isArray(run.progress) || typeof run.progress === 'string') return ([] as unknown[]).concat(run.progress).filter((x) => typeof x === 'string').join('\n')
  const err = obj(run.error)
  if (str(err?.message)) return str(err?.message)!
  if (typeof run.error === 'string') return run.error
  if (r !== undefined) return JSON.stringify(r)
  return str(run.status) ? `[tool_result status: ${str(run.status)}]` : ''
}

/** IR usage of an assistant message `usage`. */
function usageOf(u: Json | undefined): Usage | undefined {
  if (!u) return undefined
  const out: Usage = {}
  if (num(u.inputTokens) !== undefined) out.inputTokens = num(u.inputTokens)!
  if (num(u.outputTokens) !== undefined) out.outputTokens = num(u.outputTokens)!
  if (num(u.cacheReadInputTokens) !== undefined) out.cacheReadTokens = num(u.cacheReadInputTokens)!
  if (num(u.cacheCreationInputTokens) !== undefined) out.cacheWriteTokens = num(u.cacheCreationInputTokens)!
  return Object.keys(out).length ? out : undefined
}

/**
 * Read the thread `ref` names. Rejects with `READ_FAILED` only when the file cannot be opened;
 * bad JSON and bad messages become diagnostics naming file and line.
 */
export async function readAmpThread(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no thread file' })
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${(e as Error).message}`, path })
  }
  const session = newSession('amp', ref.sessionId, ref.format, ref.files, ref.home)
  let thread: Json | undefined
  try {
    thread = obj(JSON.parse(text))
  } catch (e) {
    const at = /position (\d+)/.exec((e as Error).message)
    addDiagnostic(session, { severity: 'error', path, line: at ? lineAt(text, Number(at[1])) : 1, message: `the thread is not JSON (cut short?): ${(e as Error).message}` })
    return finishSession(session)
  }
  if (!thread) {
    addDiagnostic(session, { severity: 'error', path, line: 1, message: 'the thread is not a JSON object' })
    return finishSession(session)
  }
  if (str(thread.id) && thread.id !== ref.sessionId) addDiagnostic(session, { severity: 'info', path, line: 1, message: `the thread names id ${str(thread.id)}, the file name ${ref.sessionId}; the file name is used` })
  if (str(thread.title)?.trim()) session.title = str(thread.title)!.trim()
  const cwd = workspaceOf(thread)
  if (cwd) session.workingDirectory = cwd
  if (num(thread.created) !== undefined) session.createdAt = num(thread.created)
  if (str(thread.agentMode)) session.metadata.agentMode = thread.agentMode
  if (num(thread.v) !== undefined) session.metadata.ampVersion = thread.v
  // Where each message starts: the nth `"messageId"` key, else the `"messages"` key.
  const starts: number[] = []
  for (let i = text.indexOf('"messageId"'); i >= 0; i = text.indexOf('"messageId"', i + 1)) starts.push(i)
  const messagesLine = lineAt(text, Math.max(0, text.indexOf('"messages"')))
  const messages = Array.isArray(thread.messages) ? thread.messages : []
  if (!Array.isArray(thread.messages)) addDiagnostic(session, { severity: 'warning', path, line: messagesLine, message: 'the thread has no messages array' })
  const calls = new Map<string, ToolCall>()

  messages.forEach((raw, index) => {
    const line = starts[index] !== undefined && messages.every((m) => obj(m)?.messageId !== undefined) ? lineAt(text, starts[index]!) : messagesLine
    const m = obj(raw)
    if (!m) {
      skipRecord(session, { severity: 'warning', path, line, message: `message ${index} is not a JSON object; skipped` })
      return
    }
    const role = str(m.role) ?? '(no role)'
    const nodeId = `m${num(m.messageId) ?? index}`
    const at = num(obj(m.meta)?.sentAt)
    const base = { ...(at !== undefined ? { createdAt: at } : {}) }
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content } as Json] : (Array.isArray(m.content) ? m.content : []).map(obj).filter((b): b is Json => !!b)
    const unknownBlock = (b: Json): ContentBlock => {
      addDiagnostic(session, { severity: 'info', path, line, message: `content block type "${str(b.type) ?? '(no type)'}" is not read; kept as an unknown block` })
      return { type: 'unknown', originalType: str(b.type) ?? '(no type)', raw: b }
    }
    if (role === 'user' || role === 'info') {
      const texts: string[] = []
      const other: ContentBlock[] = []
      let results = 0
      for (const b of blocks) {
        if (b.type === 'text') texts.push(str(b.text) ?? '')
        else if (b.type === 'tool_result') {
          const callId = str(b.toolUseID) ?? str(b.tool_use_id)
          if (!callId) addDiagnostic(session, { severity: 'warning', path, line, message: 'tool_result without toolUseID; kept unpaired' })
          const run = obj(b.run)
          const status = str(run?.status)
          session.nodes.push({ nodeId: results++ ? `${nodeId}#${results}` : nodeId, role: 'tool', content: runText(run), ...(callId ? { toolCallId: callId } : {}), ...(status && FAILED.has(status) ? { isError: true } : {}), ...(status ? { metadata: { runStatus: status } } : {}), ...base })
          const call = callId ? calls.get(callId) : undefined
          const exit = num(obj(run?.result)?.exitCode)
          if (call && exit !== undefined) call.exitCode = exit
        } else if (b.type === 'summary') {
          const s = obj(b.summary)
          texts.push(str(s?.summary) ?? (str(s?.thread) ? `[summary thread: ${str(s?.thread)}]` : ''))
        } else if (b.type === 'image') other.push({ type: 'image', ...(str(obj(b.source)?.media_type) ? { mediaType: str(obj(b.source)?.media_type)! } : {}) })
        else other.push(unknownBlock(b))
      }
      if (texts.length || other.length) {
        const content = texts.join('\n\n')
        const extra = other.length ? { blocks: [...texts.map((t): ContentBlock => ({ type: 'text', text: t })), ...other] } : {}
        if (role === 'info') session.nodes.push({ nodeId: results ? `${nodeId}#text` : nodeId, role: 'system', event: blocks.some((b) => b.type === 'summary') ? 'compaction' : 'notice', content, ...extra, metadata: { ampRole: 'info' }, ...base })
        else session.nodes.push({ nodeId: results ? `${nodeId}#text` : nodeId, role: 'user', content, ...extra, ...base })
      }
      return
    }
    if (role === 'assistant') {
      const texts: string[] = []
      const thinking: string[] = []
      const toolCalls: ToolCall[] = []
      const unknown: ContentBlock[] = []
      for (const b of blocks) {
        if (b.type === 'text') texts.push(str(b.text) ?? '')
        else if (b.type === 'thinking') {
          if (str(b.thinking)) thinking.push(str(b.thinking)!)
        } else if (b.type === 'redacted_thinking') continue
        else if (b.type === 'tool_use') {
          const id = str(b.id)
          if (!id) {
            skipRecord(session, { severity: 'warning', path, line, message: 'tool_use block without id; skipped' })
            continue
          }
          const name = str(b.name) ?? '(unnamed)'
          const input = obj(b.input)
          const file = str(input?.path)
          const call: ToolCall = { id, name, kind: kindOf(name), arguments: b.input }
          if (file && ['Read', 'create_file', 'edit_file', 'undo_edit'].includes(name)) call.locations = [{ path: file }]
          if (file && name === 'edit_file' && typeof input?.old_str === 'string' && typeof input?.new_str === 'string') call.diffs = [{ path: file, oldText: input.old_str, newText: input.new_str }]
          if (file && name === 'create_file' && typeof input?.content === 'string') call.diffs = [{ path: file, oldText: '', newText: input.content }]
          if (calls.has(id)) addDiagnostic(session, { severity: 'warning', path, line, message: `tool call id ${id} was used before` })
          calls.set(id, call)
          toolCalls.push(call)
        } else unknown.push(unknownBlock(b))
      }
      const u = obj(m.usage)
      const state = obj(m.state)
      const node: MessageNode = {
        nodeId,
        role: 'assistant',
        content: texts.join('\n\n'),
        ...(unknown.length ? { blocks: [...texts.map((t): ContentBlock => ({ type: 'text', text: t })), ...unknown] } : {}),
        ...(toolCalls.length ? { toolCalls } : {}),
        ...(str(u?.model) ? { model: str(u?.model)! } : {}),
        ...(usageOf(u) ? { usage: usageOf(u)! } : {}),
        ...(str(state?.stopReason) ? { finishReason: str(state?.stopReason)! } : {}),
        ...(str(state?.type) && state?.type !== 'complete' ? { metadata: { stateType: state?.type } } : {}),
        ...base,
      }
      if (thinking.length) node.thinking = thinking.join('\n\n')
      session.nodes.push(node)
      if (state?.type === 'cancelled') session.nodes.push({ nodeId: `${nodeId}#cancelled`, role: 'system', event: 'interrupted', content: 'The turn was cancelled', ...base })
      return
    }
    addDiagnostic(session, { severity: 'info', path, line, message: `message role "${role}" is not read; kept as an unknown event` })
    session.nodes.push({ nodeId, role: 'system', event: 'unknown-event', content: '', metadata: { raw: m }, ...base })
  })
  return finishSession(session)
}
