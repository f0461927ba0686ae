/**
 * Read one Continue session file into the IR. Shapes from continuedev/continue core/index.d.ts
 * (`Session`, `ChatHistoryItem`, `ChatMessage`, `ToolCallState`) and core/util/history.ts:
 * - `Session {sessionId, title, workspaceDirectory (a URI or path), history: ChatHistoryItem[],
 *   mode?: "chat"|"agent"|"plan"|"background", chatModelTitle?, usage?: {promptTokens,
 *   completionTokens, totalCost}}`;
 * - `ChatHistoryItem {message, contextItems: [{name, description, content, id, uri?}],
 *   toolCallStates?: [{toolCallId, toolCall: {id, type, function: {name, arguments (JSON text)}},
 *   status: "generating"|"generated"|"calling"|"done"|"errored"|"canceled", parsedArgs, output?:
 *   ContextItem[]}], reasoning?: {active, text, startAt, endAt? (ms since epoch)},
 *   conversationSummary?, promptLogs?}`;
 * - `ChatMessage` by `role`: `user` / `assistant` (`toolCalls?`, `usage?`: camelCase
 *   `{promptTokens, completionTokens}` in the IDE's shape, the provider's snake_case
 *   `{prompt_tokens, completion_tokens, total_tokens, model, cost_cents}` as the CLI 1.5.47 writes
 *   it, fixtures/real/continue) / `thinking`
 *   (`signature?`, `redactedThinking?`) / `system` / `tool` (`toolCallId`), each with `content`:
 *   a string or `MessagePart[]` (`{type: "text", text}`, `{type: "imageUrl", imageUrl: {url}}`).
 * Tool results are the `tool` items; a call whose result is only in its `ToolCallState.output`
 * (the GUI keeps both; the CLI writes no `tool` items at all, only the states) gets a result node
 * from that output. `errored` calls fail; `canceled` or
 * unfinished calls with no result are marked interrupted. A `thinking` item's text goes on the
 * next assistant node. The file records no message times; `reasoning.startAt` is used where present
 * and the index's `dateCreated` (ms since epoch, as a string or number) dates the session.
 */
import { readFile } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import type { ContentBlock, MessageNode, Session, ToolCall } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession, pushChained, skipRecord } from '../../ir/build'
import { toolKind } from '../../ir/toolkind'
import type { ReadContext, StoreRef } from '../types'

type Json = Record<string, unknown>

/**
 * Titles Continue gives a session it has not named: the IDE's `NEW_SESSION_TITLE` ("New Session",
 * core/util/constants.ts) and the CLI's `DEFAULT_SESSION_TITLE` ("Untitled Session",
 * extensions/cli/src/constants/session.ts; headless `cn -p` never names one). Sepia titles those by
 * the first prompt instead.
 */
const DEFAULT_TITLES = new Set(['New Session', 'Untitled Session'])
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** `MessageContent` → text and blocks (images by URL). */
function contentOf(c: unknown): { text: string; blocks?: ContentBlock[] } {
  if (typeof c === 'string') return { text: c }
  if (!Array.isArray(c)) return { text: '' }
  const texts: string[] = []
  const blocks: ContentBlock[] = []
  let image = false
  for (const p0 of c) {
    const p = obj(p0)
    if (p?.type === 'text' && typeof p.text === 'string') {
      texts.push(p.text)
      blocks.push({ type: 'text', text: p.text })
    } else if (p?.type === 'imageUrl') {
      const url = str(obj(p.imageUrl)?.url)
      image = true
      const m = url ? /^data:([^;]+);base64,(.*)$/s.exec(url) : null
      blocks.push(m ? { type: 'image', mediaType: m[1], data: m[2] } : { type: 'image', ...(url && { uri: url }) })
    }
  }
  return { text: texts.join('\n\n'), ...(image && { blocks }) }
}

/** A `file://` URI as a path; anything else as given. */
function pathOf(uri: string): string {
  if (!uri.startsWith('file://')) return uri
  try {
    const p = decodeURIComponent(new URL(uri).pathname)
    return /^\/[a-zA-Z]:\//.test(p) ? p.slice(1) : p
  } catch {
    return uri
  }
}

/** Tool-call arguments: the JSON text parsed, else the raw text. */
function argsOf(fn: Json | undefined, state: Json | undefined): unknown {
  const raw = fn?.arguments
  if (typeof raw === 'string') {
    try {
      return JSON.parse(raw)
    } catch {
      return raw
    }
  }
  return state?.parsedArgs ?? raw ?? {}
}

/** Read the session `ref` names. Rejects with `READ_FAILED` only when the file cannot be opened. */
export async function readContinueSession(ref: StoreRef, ctx: ReadContext): Promise<Session> {
  return readContinueShapedSession(ref, ctx)
}

/**
 * {@link readContinueSession} for a store in Continue's session shape written by another agent
 * (Kiro's `workspace-sessions`, src/main/agents/kiro): the session is tagged with `ref.agent`.
 */
export async function readContinueShapedSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no session file' })
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${(e as Error).message}`, path })
  }
  const session = newSession(ref.agent, ref.sessionId, ref.format, ref.files, ref.home)
  const index = obj(ref.hints?.index)
  const created = num(index?.dateCreated) ?? (str(index?.dateCreated) && /^\d+$/.test(str(index?.dateCreated)!) ? Number(index!.dateCreated) : str(index?.dateCreated) ? Date.parse(str(index!.dateCreated)!) : undefined)
  if (created !== undefined && !Number.isNaN(created)) session.createdAt = created
  let data: Json | undefined
  try {
    data = obj(JSON.parse(text))
  } catch (e) {
    addDiagnostic(session, { severity: 'error', path, message: `session file is not JSON (cut short?): ${(e as Error).message}` })
    if (str(index?.title)) session.title = str(index?.title)
    return finishSession(session)
  }
  if (!data) {
    addDiagnostic(session, { severity: 'error', path, message: 'session file holds no session object' })
    return finishSession(session)
  }
  const title = str(data.title) ?? str(index?.title)
  if (title && !DEFAULT_TITLES.has(title)) session.title = title
  const ws = str(data.workspaceDirectory) ?? str(index?.workspaceDirectory)
  if (ws) session.workingDirectory = pathOf(ws)
  if (str(data.mode)) session.metadata.mode = data.mode
  if (str(data.chatModelTitle)) session.metadata.chatModelTitle = data.chatModelTitle
  const usage = obj(data.usage)
  if (usage) session.metadata.continueUsage = usage
  if (str(data.sessionId) && data.sessionId !== ref.sessionId) session.metadata.storedSessionId = data.sessionId
  if (!Array.isArray(data.history)) {
    addDiagnostic(session, { severity: 'warning', path, message: '`history` is not a list; the session has no messages' })
    return finishSession(session)
  }

  const push = (n: MessageNode): MessageNode => pushChained(session, n)
  const resultIds = new Set<string>()
  for (const item of data.history) {
    const m = obj(obj(item)?.message)
    if (m?.role === 'tool' && str(m.toolCallId)) resultIds.add(str(m.toolCallId)!)
  }
  let pendingThinking: { text: string; signature?: string } | undefined
  data.history.forEach((it0, i) => {
    const it = obj(it0)
    const m = obj(it?.message)
    if (!it || !m) {
      skipRecord(session, { severity: 'warning', path, message: `history[${i}] has no message object; skipped` })
      return
    }
    const nodeId = str(m.id) ?? `history-${i}`
    const role = str(m.role)
    const c = contentOf(m.content)
    const at = num(obj(it.reasoning)?.startAt)
    switch (role) {
      case 'user': {
        const names = (Array.isArray(it.contextItems) ? it.contextItems : []).map((x) => str(obj(x)?.name)).filter((x): x is string => !!x)
        push({ nodeId, role: 'user', content: c.text, ...(c.blocks && { blocks: c.blocks }), ...(names.length && { metadata: { contextItems: names } }) })
        return
      }
      case 'thinking': {
        const t = c.text || (str(m.redactedThinking) ? '[redacted thinking]' : '')
        pendingThinking = { text: pendingThinking ? `${pendingThinking.text}\n\n${t}` : t, ...(str(m.signature) && { signature: str(m.signature) }) }
        return
      }
      case 'assistant': {
        const states = (Array.isArray(it.toolCallStates) ? it.toolCallStates : []).map(obj).filter((x): x is Json => !!x)
        const rawCalls = Array.isArray(m.toolCalls) ? m.toolCalls.map(obj).filter((x): x is Json => !!x) : []
        const byId = new Map(states.map((s) => [str(s.toolCallId) ?? str(obj(s.toolCall)?.id) ?? '', s]))
        const callSources = rawCalls.length ? rawCalls : states.map((s) => obj(s.toolCall) ?? {})
        const toolCalls: ToolCall[] = callSources.map((tc, k) => {
          const id = str(tc.id) ?? str(states[k]?.toolCallId) ?? `${nodeId}#call${k}`
          const state = byId.get(id)
          const fn = obj(tc.function)
          const name = str(fn?.name) ?? '(unnamed)'
          const call: ToolCall = { id, name, kind: toolKind(name), arguments: argsOf(fn, state) }
          const status = str(state?.status)
          if (status === 'errored') call.status = 'failed'
          if (status) call.metadata = { continueStatus: status }
          return call
        })
        const n = push({ nodeId, role: 'assistant', content: c.text, ...(c.blocks && { blocks: c.blocks }), ...(toolCalls.length && { toolCalls }), ...(at !== undefined && { createdAt: at }) })
        const reasoning = str(obj(it.reasoning)?.text)
        if (pendingThinking || reasoning) {
          n.thinking = [pendingThinking?.text, reasoning].filter(Boolean).join('\n\n')
          if (pendingThinking?.signature) n.thinkingSignature = pendingThinking.signature
          pendingThinking = undefined
        }
        const u = obj(m.usage)
        const input = num(u?.promptTokens) ?? num(u?.prompt_tokens)
        const output = num(u?.completionTokens) ?? num(u?.completion_tokens)
        if (input !== undefined || output !== undefined) {
          n.usage = { ...(input !== undefined && { inputTokens: input }), ...(output !== undefined && { outputTokens: output }) }
        }
        // The CLI's snake_case usage names the model that answered (fixtures/real/continue).
        const model = str(u?.model)
        if (model && n.model === undefined) n.model = model
        // Results kept only in the tool call state (no `tool` item): a result node from its output.
        for (const call of toolCalls) {
          if (resultIds.has(call.id)) continue
          const state = byId.get(call.id)
          const output = Array.isArray(state?.output) ? state!.output.map((o) => str(obj(o)?.content) ?? '').join('\n') : undefined
          const status = str(state?.status)
          if (output !== undefined && (status === 'done' || status === 'errored')) {
            push({ nodeId: `${call.id}#output`, role: 'tool', toolCallId: call.id, toolName: call.name, content: output, ...(status === 'errored' && { isError: true }) })
          } else if (status !== 'done') {
            call.metadata = { ...call.metadata, interrupted: true }
          }
        }
        return
      }
      case 'tool': {
        const id = str(m.toolCallId)
        if (!id) {
          skipRecord(session, { severity: 'warning', path, message: `history[${i}] is a tool result without a toolCallId; skipped` })
          return
        }
        push({ nodeId, role: 'tool', toolCallId: id, content: c.text })
        return
      }
      case 'system':
        push({ nodeId, role: 'system', content: c.text, isMeta: true })
        return
      default:
        addDiagnostic(session, { severity: 'info', path, message: `history[${i}] has role ${JSON.stringify(m.role)}, not read; skipped` })
    }
  })
  // A failed call's result is an error (its tool item does not say so itself).
  const failed = new Set(session.nodes.flatMap((n) => n.toolCalls ?? []).filter((c) => c.status === 'failed').map((c) => c.id))
  for (const n of session.nodes) if (n.role === 'tool' && n.toolCallId && failed.has(n.toolCallId)) n.isError = true
  markForkedCopy(session, usage)
  for (const [i, it] of data.history.entries()) {
    const summary = str(obj(it)?.conversationSummary)
    if (summary) session.metadata.conversationSummary = { historyIndex: i, text: summary }
  }
  finishSession(session)
  // No index entry (a session the CLI has not listed in sessions.json yet, e.g. one Sepia wrote) and
  // no turn time: the file's modification time is when it was last saved.
  if (session.createdAt === undefined && session.lastActivityAt === undefined && ref.mtimeMs > 0) session.lastActivityAt = ref.mtimeMs
  return session
}

/**
 * A fork (`cn --fork <id>`) starts its `history` with a copy of the forked session's items, each
 * with its message's usage, while the file's session-level `usage` counts only the fork's own
 * turns (fixtures/real/continue: the fork's `usage.promptTokens` 2,443 is the sum over its last
 * two assistant items; the ten copied ones sum to the parent's 6,140). The file names no parent, so
 * the copy is found from the totals: when the assistant items' usage adds up to more than the
 * session's, the shortest run of trailing items whose prompt and completion tokens add up to the
 * session's exactly is the fork's own; every node before it is marked `metadata.replayed` (as Codex's
 * copied history is) and loses its usage, so a fork is not counted twice. Nothing is changed when
 * no run matches exactly (the usage is then as recorded).
 */
function markForkedCopy(session: Session, usage: Json | undefined): void {
  const wantIn = num(usage?.promptTokens)
  const wantOut = num(usage?.completionTokens)
  if (wantIn === undefined || wantOut === undefined) return
  const withUsage = session.nodes.filter((n) => n.role === 'assistant' && n.usage)
  let allIn = 0
  for (const n of withUsage) allIn += n.usage!.inputTokens ?? 0
  if (allIn <= wantIn) return
  let inSum = 0
  let outSum = 0
  for (let k = withUsage.length - 1; k >= 0; k--) {
    inSum += withUsage[k]!.usage!.inputTokens ?? 0
    outSum += withUsage[k]!.usage!.outputTokens ?? 0
    if (inSum > wantIn) return
    if (inSum === wantIn && outSum === wantOut) {
      const firstOwn = session.nodes.indexOf(withUsage[k]!)
      // The fork's own turn starts at the user prompt before its first own answer.
      let start = firstOwn
      while (start > 0 && session.nodes[start - 1]!.role !== 'user') start--
      if (start > 0) start--
      for (const n of session.nodes.slice(0, start)) {
        delete n.usage
        n.metadata = { ...n.metadata, replayed: true }
      }
      session.metadata.replayedNodes = start
      return
    }
  }
}
