/**
 * Read one Letta Code local-backend conversation (`conversations/<key>/`, see discover.ts) into the IR.
 *
 * Shapes from letta-ai/letta-code @1f4d3e3e (src/backend/local/local-store.ts, local-message.ts;
 * the messages are pi-ai `Message`s, `@earendil-works/pi-ai`) and the real store Letta Code 0.32.8
 * wrote in fixtures/real/letta-code:
 *
 * - `manifest.json` `{schema_version, message_format, provider_stack: "pi-ai", created_at}`:
 *   `message_format` `pi-session-entry-jsonl` (schema 2, current) or `pi-ai-message-jsonl`
 *   (schema 1, legacy: every line is a bare message). No manifest: read as schema 2 when the first
 *   line is a session header, else as schema 1.
 * - Schema 2 `messages.jsonl`: line 1 the header `{type: "session", version: 3, id, timestamp
 *   (ISO), cwd}`; then entries `{type: "message", id (8 hex), parentId, timestamp, message}` and
 *   `{type: "compaction", id, parentId, timestamp, summary, firstKeptEntryId, tokensBefore,
 *   message, details?}` (`LocalTranscriptSessionEntry`). Entries are appended in order; a message
 *   whose `id` comes again is a newer snapshot of it and replaces it in place (`setLatestLocalMessage`).
 * - Messages (`LocalMessage`): `{id ("ui-msg-<n>"), role, content, timestamp (ms since epoch),
 *   metadata {created_at, agent_id, conversation_id, provider {response_id, usage}}}`; `user`
 *   (`content`: string or text / image blocks; Letta Code puts its `<system-reminder>` texts (device
 *   info, agent info, permission mode) in the same message as the prompt, as text blocks before
 *   it: they go to `metadata.systemReminders`, the node's text is the rest), `assistant`
 *   (`content`: text / thinking (`thinking`, `thinkingSignature`) / toolCall (`id`, `name`,
 *   `arguments`) blocks; `api`, `provider`, `model`, `responseId`, `stopReason`, `errorMessage?`,
 *   `usage {input, output, cacheRead, cacheWrite, totalTokens, cost {total}}`) and `toolResult`
 *   (`toolCallId`, `toolName`, `content`, `isError`).
 * - A failed Bash command: the tool returns `Exit code: N` then the output with `status: "error"`
 *   (src/tools/impl/bash.ts), but the local store keeps `isError: false` (the real store); the
 *   exit code is read from that line and a non-zero one marks the result an error.
 * - `conversation.json`: `summary` (the title, when set), `created_at`, `last_message_at`,
 *   `agent_id`, `model?`; the agent record `agents/<base64url(agentId)>.json` gives the agent
 *   `name` and `model` (read when present; it is not one of the ref's files).
 *
 * Usage: pi-ai's `input` excludes cache reads and writes; `cost.total` is USD (0: none recorded).
 * A line that is not JSON, an entry type or message role not listed in {@link KNOWN_ENTRY_TYPES} /
 * {@link KNOWN_MESSAGE_ROLES} is a diagnostic naming file and line; the rest loads.
 */
import { readFile } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import type { ContentBlock, MessageNode, Session, ToolCall, Usage } from '../../../shared/ir'
import { addDiagnostic, finishSession, jsonLineObject, newSession, skipRecord } from '../../ir/build'
import { toolKind } from '../../ir/toolkind'
import { pathApiFor } from '../../platform'
import { forEachLine } from '../../util/lines'
import type { ReadContext, StoreRef } from '../types'
import { KNOWN_ENTRY_TYPES, KNOWN_MESSAGE_ROLES } from './format'

/** Moved to ./format.ts so discovery and the census load without this reader; kept here for its importers. */
export { KNOWN_ENTRY_TYPES, KNOWN_MESSAGE_ROLES } from './format'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const isoTime = (v: unknown): number | undefined => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN
  return Number.isNaN(t) ? undefined : t
}

/** Letta Code's own tools (src/tools/impl: Bash, Read, Write, Edit, Glob, Grep, ...); others via the shared table. */
const LETTA_KINDS: Record<string, ToolCall['kind']> = { Bash: 'execute', Read: 'read', Write: 'edit', Edit: 'edit', MultiEdit: 'edit', Glob: 'search', Grep: 'search', LS: 'search' }
const kindOf = (name: string): ToolCall['kind'] => LETTA_KINDS[name] ?? toolKind(name)

const REMINDER = /^\s*<system-reminder>/

/** Files a Letta tool call names (`file_path`), and the change of a `Write` / `Edit`. */
function fileFacts(name: string, args: unknown): Pick<ToolCall, 'locations' | 'diffs'> {
  const a = obj(args)
  const path = str(a?.file_path)
  if (!path || !['Read', 'Write', 'Edit', 'MultiEdit'].includes(name)) return {}
  const out: Pick<ToolCall, 'locations' | 'diffs'> = { locations: [{ path }] }
  if (name === 'Write' && typeof a?.content === 'string') out.diffs = [{ path, newText: a.content }]
  if (name === 'Edit' && typeof a?.old_string === 'string' && typeof a?.new_string === 'string') out.diffs = [{ path, oldText: a.old_string, newText: a.new_string }]
  return out
}

/** Text and image blocks of a user / tool result `content` (string or blocks), reminders apart. */
function contentOf(content: unknown): { text: string; reminders: string[]; blocks?: ContentBlock[] } {
  if (typeof content === 'string') return REMINDER.test(content) ? { text: '', reminders: [content] } : { text: content, reminders: [] }
  const texts: string[] = []
  const reminders: string[] = []
  const blocks: ContentBlock[] = []
  let other = false
  for (const b of Array.isArray(content) ? content : []) {
    const o = obj(b)
    if (!o) continue
    if (o.type === 'text') {
      const t = str(o.text) ?? ''
      if (REMINDER.test(t)) {
        reminders.push(t)
        continue
      }
      texts.push(t)
      blocks.push({ type: 'text', text: t })
    } else if (o.type === 'image') {
      other = true
      blocks.push({ type: 'image', ...(str(o.mimeType) ? { mediaType: str(o.mimeType)! } : {}), ...(str(o.data) ? { data: str(o.data)! } : {}) })
    } else {
      other = true
      blocks.push({ type: 'unknown', originalType: str(o.type) ?? '(no type)', raw: o })
    }
  }
  return { text: texts.join('\n\n'), reminders, ...(other ? { blocks } : {}) }
}

/** IR usage of a pi-ai `Usage` (tokens; `cost.total` USD when above 0). */
function usageOf(u: Json | undefined): Usage | undefined {
  if (!u) return undefined
  const out: Usage = {}
  if (num(u.input) !== undefined) out.inputTokens = num(u.input)!
  if (num(u.output) !== undefined) out.outputTokens = num(u.output)!
  if (num(u.cacheRead)) out.cacheReadTokens = num(u.cacheRead)!
  if (num(u.cacheWrite)) out.cacheWriteTokens = num(u.cacheWrite)!
  if (num(u.reasoning)) out.thinkingTokens = num(u.reasoning)!
  const cost = num(obj(u.cost)?.total)
  if (cost !== undefined && cost > 0) out.cost = cost
  return Object.keys(out).length ? out : undefined
}

async function readJson(path: string, session: Session, what: string): Promise<Json | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') addDiagnostic(session, { severity: 'warning', path, message: `cannot read ${what}: ${(e as Error).message}; ignored` })
    return undefined
  }
  try {
    const v = obj(JSON.parse(text))
    if (!v) addDiagnostic(session, { severity: 'warning', path, line: 1, message: `${what} is not a JSON object; ignored` })
    return v
  } catch {
    addDiagnostic(session, { severity: 'warning', path, line: 1, message: `${what} is not JSON (cut short?); ignored` })
    return undefined
  }
}

/**
 * Read the conversation `ref` names. Rejects with `READ_FAILED` only when `messages.jsonl` cannot
 * be opened; bad lines become diagnostics naming file and line.
 */
export async function readLettaConversation(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no messages.jsonl' })
  const session = newSession('letta-code', ref.sessionId, ref.format, ref.files, ref.home)
  const p = pathApiFor(ref.home)
  const dir = p.dirname(path)
  const manifestPath = ref.files.find((f) => p.basename(f) === 'manifest.json')
  const convPath = ref.files.find((f) => p.basename(f) === 'conversation.json')
  const manifest = manifestPath ? await readJson(manifestPath, session, 'manifest.json') : undefined
  const conv = convPath ? await readJson(convPath, session, 'conversation.json') : undefined
  let legacy: boolean | undefined = manifest ? str(manifest.message_format) === 'pi-ai-message-jsonl' : undefined
  if (manifest) {
    session.metadata.lettaTranscript = { schemaVersion: manifest.schema_version, messageFormat: manifest.message_format }
    const fmt = str(manifest.message_format)
    if (fmt !== 'pi-ai-message-jsonl' && fmt !== 'pi-session-entry-jsonl') addDiagnostic(session, { severity: 'warning', path: manifestPath!, line: 1, message: `message_format "${fmt ?? '(none)'}" is not one Letta Code writes; read as pi-session-entry-jsonl` })
  }

  const nodeOfMessage = new Map<string, MessageNode>()
  const calls = new Map<string, ToolCall>()
  let last: MessageNode | undefined
  let sawHeader = false

  const place = (node: MessageNode, messageId: string | undefined): void => {
    const earlier = messageId ? nodeOfMessage.get(messageId) : undefined
    if (earlier) {
      // A newer snapshot of the same message (setLatestLocalMessage): replace it in place.
      const i = session.nodes.indexOf(earlier)
      node.nodeId = earlier.nodeId
      if (earlier.parentNodeId !== undefined) node.parentNodeId = earlier.parentNodeId
      else delete node.parentNodeId
      session.nodes[i] = node
      if (last === earlier) last = node
    } else {
      if (last) node.parentNodeId = last.nodeId
      session.nodes.push(node)
      last = node
    }
    if (messageId) nodeOfMessage.set(messageId, node)
  }

  const takeMessage = (m: Json, lineNo: number, entryId: string, entryAt: number | undefined): void => {
    const role = str(m.role) ?? '(no role)'
    const messageId = str(m.id)
    const at = num(m.timestamp) ?? isoTime(obj(m.metadata)?.created_at) ?? entryAt
    const base = { nodeId: messageId ?? entryId, ...(at !== undefined ? { createdAt: at } : {}) }
    switch (role) {
      case 'user': {
        const c = contentOf(m.content)
        const node: MessageNode = { ...base, role: 'user', content: c.text, ...(c.blocks ? { blocks: c.blocks } : {}) }
        if (c.reminders.length) {
          node.metadata = { systemReminders: c.reminders }
          if (!c.text && !c.blocks) {
            node.isMeta = true
            node.content = c.reminders.join('\n\n')
          }
        }
        place(node, messageId)
        return
      }
      case 'assistant': {
        const texts: string[] = []
        const thinking: string[] = []
        const signatures: string[] = []
        const toolCalls: ToolCall[] = []
        const unknown: ContentBlock[] = []
        for (const b of Array.isArray(m.content) ? m.content : []) {
          const o = obj(b)
          if (!o) continue
          if (o.type === 'text') texts.push(str(o.text) ?? '')
          else if (o.type === 'thinking') {
            if (str(o.thinking)) thinking.push(str(o.thinking)!)
            if (str(o.thinkingSignature)) signatures.push(str(o.thinkingSignature)!)
          } else if (o.type === 'toolCall') {
            const id = str(o.id)
            if (!id) {
              skipRecord(session, { severity: 'warning', path, line: lineNo, message: 'toolCall block without id; skipped' })
              continue
            }
            const name = str(o.name) ?? '(unnamed)'
            const call: ToolCall = { id, name, kind: kindOf(name), arguments: o.arguments, ...fileFacts(name, o.arguments) }
            calls.set(id, call)
            toolCalls.push(call)
          } else unknown.push({ type: 'unknown', originalType: str(o.type) ?? '(no type)', raw: o })
        }
        const stop = str(m.stopReason)
        const err = str(m.errorMessage)
        const usage = usageOf(obj(m.usage))
        const metadata: Json = {}
        if (str(m.provider)) metadata.provider = m.provider
        if (str(m.api)) metadata.api = m.api
        if (err) metadata.errorMessage = err
        const empty = texts.every((t) => t.trim() === '') && thinking.length === 0 && toolCalls.length === 0 && unknown.length === 0
        if (empty && (stop === 'error' || stop === 'aborted')) {
          const n: MessageNode = { ...base, role: 'system', event: stop === 'error' ? 'api-error' : 'interrupted', content: err ?? (stop === 'aborted' ? 'The turn was stopped' : 'The request failed'), metadata: { ...metadata, stopReason: stop } }
          if (str(m.model)) n.model = str(m.model)
          if (usage) n.usage = usage
          place(n, messageId)
          return
        }
        const node: MessageNode = {
          ...base,
          role: 'assistant',
          content: texts.join('\n\n'),
          ...(unknown.length ? { blocks: [...texts.map((t): ContentBlock => ({ type: 'text', text: t })), ...unknown] } : {}),
          ...(toolCalls.length ? { toolCalls } : {}),
          ...(Object.keys(metadata).length ? { metadata } : {}),
          ...(str(m.model) ? { model: str(m.model)! } : {}),
          ...(str(m.responseId) ? { requestId: str(m.responseId)! } : {}),
        }
        if (thinking.length) node.thinking = thinking.join('\n\n')
        if (signatures.length) node.thinkingSignature = signatures[0]
        if (stop) node.finishReason = stop
        if (usage) node.usage = usage
        place(node, messageId)
        return
      }
      case 'toolResult': {
        const callId = str(m.toolCallId)
        if (!callId) addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: 'toolResult without toolCallId; kept unpaired' })
        const c = contentOf(m.content)
        const name = str(m.toolName)
        const call = callId ? calls.get(callId) : undefined
        const exit = call?.kind === 'execute' ? /^Exit code: (-?\d+)$/m.exec(c.text.split('\n').slice(0, 4).join('\n')) : null
        if (call && exit) call.exitCode = Number(exit[1])
        const failed = m.isError === true || (exit !== null && Number(exit[1]) !== 0)
        place({
          ...base,
          role: 'tool',
          content: c.text || c.reminders.join('\n\n'),
          ...(c.blocks ? { blocks: c.blocks } : {}),
          ...(callId ? { toolCallId: callId } : {}),
          ...(name ? { toolName: name } : {}),
          ...(failed ? { isError: true } : {}),
        }, messageId)
        return
      }
      default:
        addDiagnostic(session, { severity: 'info', path, line: lineNo, message: `message role "${role}" is not read; kept as an unknown event` })
        place({ ...base, role: 'system', event: 'unknown-event', content: contentOf(m.content).text, metadata: { raw: m } }, messageId)
    }
  }

  const take = (raw: string, lineNo: number): void => {
    const e = jsonLineObject(session, path, raw, lineNo)
    if (!e) return
    if (legacy === undefined) legacy = e.type !== 'session' && typeof e.role === 'string'
    if (legacy) {
      takeMessage(e, lineNo, `line-${lineNo}`, undefined)
      return
    }
    const type = str(e.type) ?? '(no type)'
    const entryId = str(e.id) ?? `line-${lineNo}`
    const entryAt = isoTime(e.timestamp)
    switch (type) {
      case 'session':
        if (sawHeader) {
          addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: 'a second session header; ignored' })
          return
        }
        sawHeader = true
        if (str(e.cwd)) session.workingDirectory = str(e.cwd)
        if (entryAt !== undefined) session.createdAt = entryAt
        return
      case 'message': {
        const m = obj(e.message)
        if (!m) {
          skipRecord(session, { severity: 'warning', path, line: lineNo, message: 'message entry without a message object; skipped' })
          return
        }
        takeMessage(m, lineNo, entryId, entryAt)
        return
      }
      case 'compaction':
        place({ nodeId: entryId, role: 'system', event: 'compaction', content: str(e.summary) ?? '', ...(entryAt !== undefined ? { createdAt: entryAt } : {}), metadata: { tokensBefore: e.tokensBefore, firstKeptEntryId: e.firstKeptEntryId, ...(e.details !== undefined ? { details: e.details } : {}) } }, undefined)
        return
      default:
        addDiagnostic(session, { severity: 'info', path, line: lineNo, message: `entry type "${type}" is not read; kept as an unknown event` })
        place({ nodeId: entryId, role: 'system', event: 'unknown-event', content: str(e.summary) ?? '', ...(entryAt !== undefined ? { createdAt: entryAt } : {}), metadata: { raw: e } }, undefined)
    }
  }

  let lines = 0
  try {
    await forEachLine(path, (text, lineNo) => {
      lines = lineNo
      take(text, lineNo)
    }, { size: ref.size })
  } catch (e) {
    const message = (e as Error).message
    if (lines === 0) throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${message}`, path })
    addDiagnostic(session, { severity: 'error', path, line: lines + 1, message: `reading stopped: ${message}` })
  }

  if (conv) {
    if (str(conv.summary)?.trim()) session.title = str(conv.summary)!.trim()
    const created = isoTime(conv.created_at)
    if (created !== undefined && session.createdAt === undefined) session.createdAt = created
    const lastAt = isoTime(conv.last_message_at)
    if (lastAt !== undefined) session.lastActivityAt = lastAt
    const agentId = str(conv.agent_id)
    if (agentId) {
      session.metadata.lettaAgentId = agentId
      const agentPath = p.join(p.dirname(p.dirname(dir)), 'agents', `${Buffer.from(agentId).toString('base64url')}.json`)
      const agent = await readJson(agentPath, session, 'the agent record')
      if (agent) {
        if (str(agent.name)) session.metadata.lettaAgentName = agent.name
        if (str(agent.model)) session.metadata.lettaAgentModel = agent.model
      }
    }
    if (str(conv.model)) session.metadata.lettaConversationModel = conv.model
    if (Array.isArray(conv.in_context_message_ids)) session.metadata.inContextMessages = conv.in_context_message_ids.length
  }
  return finishSession(session)
}
