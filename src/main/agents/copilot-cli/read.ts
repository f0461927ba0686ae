/**
 * Read one Copilot CLI `events.jsonl` into the IR. Each line is `{ type, data, id, timestamp,
 * parentId }` (timestamps ISO 8601; `parentId` chains every event to the one before it). Facts
 * from the public real sessions in fixtures/public-real/copilot-cli (CLI 1.0.64, 1.0.68):
 * - `session.start.data`: `sessionId`, `copilotVersion`, `startTime`, `selectedModel`,
 *   `context: { cwd, gitRoot, repository, branch, headCommit }`.
 * - `user.message.data.content` is the typed prompt (`transformedContent` is what the model saw).
 * - `assistant.message.data`: `content`, `model`, `toolRequests[{ toolCallId, name, arguments }]`,
 *   `reasoningText`, `reasoningOpaque`, `outputTokens`, `requestId`.
 * - `tool.execution_complete.data`: `toolCallId`, `success`, `result.content` (or `error.message`).
 * - `session.shutdown.data.modelMetrics[model].usage`: `inputTokens`, `outputTokens`,
 *   `cacheReadTokens`, `cacheWriteTokens`, `reasoningTokens` (session totals, adding up over
 *   resumes: the real store's second shutdown holds every call's usage record).
 * From the real store CLI 1.0.102 wrote offline (fixtures/real/copilot-cli):
 * - `session.usage_record.data.usage`, one per model call, just before the `assistant.message` it
 *   produced (same `apiCallId`): `model`, `inputTokens` (cache reads and writes included),
 *   `outputTokens`, `cacheReadTokens`, `cacheWriteTokens`, `cost`; it becomes that message's usage.
 * From the CLI's own event schema (`schemas/session-events.schema.json` of the 1.0.102 package,
 * which the binary unpacks into `~/.cache/copilot/pkg/<platform>/<version>/`; seen in a real
 * store when the CLI resumed a session larger than its context):
 * - `session.compaction_complete.data`: `success`, `summaryContent` (the summary that replaces the
 *   earlier history), `outcome`, `error`, `messagesRemoved`, `tokensRemoved`: a compaction node when
 *   it succeeded, else a notice; `session.compaction_start` makes no node.
 * - `session.truncation.data`: `messagesRemovedDuringTruncation`, `tokensRemovedDuringTruncation`,
 *   `tokenLimit`, `performedBy` (e.g. "BasicTruncator"): a notice (the messages stay in the file;
 *   only the requests after it leave them out).
 * Hooks, permissions and notifications become `role: "system"` marker nodes; event types not
 * listed in {@link KNOWN_EVENT_TYPES} become `unknown-event` nodes and an info diagnostic naming
 * file and line. A line that is not JSON is a warning diagnostic; the rest loads.
 */
import { readFile } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import type { MessageNode, Session, ToolCall, Usage } from '../../../shared/ir'
import { addDiagnostic, addUsage, finishSession, jsonLineObject, newSession, skipRecord } from '../../ir/build'
import { toolKind } from '../../ir/toolkind'
import type { ReadContext, StoreRef } from '../types'
import { KNOWN_EVENT_TYPES } from './format'

/** Moved to ./format.ts so discovery and the census load without this reader; kept here for its importers. */
export { KNOWN_EVENT_TYPES } from './format'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const time = (v: unknown): number | undefined => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN
  return Number.isNaN(t) ? undefined : t
}
const KNOWN = new Set<string>(KNOWN_EVENT_TYPES)

/**
 * ACP kinds of Copilot CLI tool names seen in the public real sessions (bash, read_bash,
 * stop_bash, view, edit) and their siblings; other names go through the shared table.
 */
const COPILOT_KINDS: Record<string, ToolCall['kind']> = {
  view: 'read', create: 'edit', str_replace: 'edit', read_bash: 'execute', write_bash: 'execute', stop_bash: 'execute', list_bash: 'execute', web_fetch: 'fetch',
}
const kindOf = (name: string): ToolCall['kind'] => COPILOT_KINDS[name.toLowerCase()] ?? toolKind(name)

/** `<system_notification>…</system_notification>` → its inner text. */
function untag(text: string): string {
  return text.replace(/<\/?[a-z_]+>/g, '').trim()
}

/** Per-model usage from `session.shutdown.data.modelMetrics` (input excludes cache reads and writes). */
function shutdownUsageByModel(metrics: Json | undefined): Map<string, Usage> {
  const byModel = new Map<string, Usage>()
  for (const [model, m] of Object.entries(metrics ?? {})) {
    const u = obj(obj(m)?.usage)
    if (!u) continue
    const input = num(u.inputTokens)
    const cr = num(u.cacheReadTokens) ?? 0
    const cw = num(u.cacheWriteTokens) ?? 0
    const one: Usage = {}
    if (input !== undefined) one.inputTokens = Math.max(0, input - cr - cw)
    if (num(u.outputTokens) !== undefined) one.outputTokens = num(u.outputTokens)!
    if (num(u.cacheReadTokens) !== undefined) one.cacheReadTokens = cr
    if (num(u.cacheWriteTokens) !== undefined) one.cacheWriteTokens = cw
    if (num(u.reasoningTokens) !== undefined) one.thinkingTokens = num(u.reasoningTokens)!
    byModel.set(model, addUsage(byModel.get(model), one)!)
  }
  return byModel
}

const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'thinkingTokens'] as const

/**
 * The last `session.shutdown`'s totals hold every call of the session (they add up over resumes),
 * while the messages may hold less: CLI 1.0.64/1.0.68 write only `outputTokens` on each
 * `assistant.message` and no `session.usage_record`. What the messages of a model lack of its
 * totals goes on that model's last assistant message (else the last one), so the usage report,
 * which counts messages, matches the session's totals; with a usage record per call nothing is left.
 */
function settleShutdownUsage(nodes: MessageNode[], byModel: Map<string, Usage>): void {
  const assistants = nodes.filter((n) => n.role === 'assistant')
  if (!assistants.length) return
  for (const [model, total] of byModel) {
    const own = assistants.filter((n) => n.model === model)
    const of = own.length ? own : assistants
    const rest: Usage = {}
    for (const k of USAGE_FIELDS) {
      if (total[k] === undefined) continue
      const have = of.reduce((t, n) => t + (n.usage?.[k] ?? 0), 0)
      if (total[k]! > have) rest[k] = total[k]! - have
    }
    if (!Object.keys(rest).length) continue
    const last = of[of.length - 1]!
    last.usage = addUsage(last.usage, rest)
  }
}

/** One call's usage from `session.usage_record.data.usage` (input excludes cache reads and writes). */
function callUsage(u: Json | undefined): Usage | undefined {
  if (!u) return undefined
  const cr = num(u.cacheReadTokens) ?? 0
  const cw = num(u.cacheWriteTokens) ?? 0
  const one: Usage = {}
  if (num(u.inputTokens) !== undefined) one.inputTokens = Math.max(0, num(u.inputTokens)! - cr - cw)
  if (num(u.outputTokens) !== undefined) one.outputTokens = num(u.outputTokens)!
  if (num(u.cacheReadTokens) !== undefined) one.cacheReadTokens = cr
  if (num(u.cacheWriteTokens) !== undefined) one.cacheWriteTokens = cw
  if (num(u.reasoningTokens) !== undefined) one.thinkingTokens = num(u.reasoningTokens)!
  return Object.keys(one).length ? one : undefined
}

/**
 * Read the session `ref` names. Rejects with `READ_FAILED` only when `events.jsonl` cannot be
 * opened; bad lines become diagnostics.
 */
export async function readCopilotCliSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no events.jsonl' })
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${(e as Error).message}`, path })
  }
  const session = newSession('copilot-cli', ref.sessionId, ref.format, ref.files, ref.home)
  /** Event id → id of the nearest node at or above it on the `parentId` chain. */
  const nodeAbove = new Map<string, string | undefined>()
  const calls = new Map<string, ToolCall>()
  const starts = new Map<string, number>()
  const hooks = new Map<string, MessageNode>()
  let model: string | undefined
  /** The last `session.usage_record`'s usage, for the next assistant message. */
  let pendingUsage: Usage | undefined
  /** The last `session.shutdown`'s per-model totals. */
  let shutdownTotals: Map<string, Usage> | undefined
  let lastNodeId: string | undefined
  const lines = text.split('\n')
  lines.forEach((raw, i) => {
    const lineNo = i + 1
    const e = jsonLineObject(session, path, raw, lineNo)
    if (!e) return
    const type = str(e.type) ?? '(no type)'
    const d = obj(e.data) ?? {}
    const id = str(e.id) ?? `line-${lineNo}`
    const parentEvent = str(e.parentId)
    const above = parentEvent !== undefined && nodeAbove.has(parentEvent) ? nodeAbove.get(parentEvent) : lastNodeId
    const at = time(e.timestamp)
    nodeAbove.set(id, above)
    const push = (n: Omit<MessageNode, 'nodeId' | 'parentNodeId' | 'createdAt'>): MessageNode => {
      const node: MessageNode = { nodeId: id, ...(above !== undefined ? { parentNodeId: above } : {}), ...n, ...(at !== undefined ? { createdAt: at } : {}) }
      session.nodes.push(node)
      nodeAbove.set(id, id)
      lastNodeId = id
      return node
    }
    const marker = (event: MessageNode['event'], content: string, metadata: Json, isMeta = false): MessageNode =>
      push({ role: 'system', event, content, ...(isMeta ? { isMeta } : {}), metadata: { copilotType: type, ...metadata } })
    switch (type) {
      case 'session.start':
      case 'session.resume': {
        const c = obj(d.context)
        if (type === 'session.start') {
          session.createdAt = time(d.startTime) ?? at
          const sid = str(d.sessionId)
          if (sid && sid !== ref.sessionId) addDiagnostic(session, { severity: 'info', path, line: lineNo, message: `session.start names session ${sid}, the folder ${ref.sessionId}; the folder name is used` })
        }
        if (str(c?.cwd)) session.workingDirectory = str(c?.cwd)
        const git: { branch?: string; sha?: string } = {}
        if (str(c?.branch)) git.branch = str(c?.branch)!
        if (str(c?.headCommit)) git.sha = str(c?.headCommit)!
        if (git.branch || git.sha) session.git = git
        for (const k of ['gitRoot', 'repository', 'repositoryHost'] as const) if (str(c?.[k])) session.metadata[k] = str(c?.[k])
        if (str(d.copilotVersion)) session.metadata.copilotVersion = str(d.copilotVersion)
        if (str(d.selectedModel)) {
          model = str(d.selectedModel)
          session.model ??= model
        }
        return
      }
      case 'session.model_change': {
        const to = str(d.newModel)
        if (to) {
          marker('model-change', `Model: ${model ? `${model} → ` : ''}${to}`, { previousModel: model, newModel: to, reasoningEffort: d.reasoningEffort })
          model = to
        }
        return
      }
      case 'session.permissions_changed':
        marker('notice', d.allowAllPermissions === true ? 'All permissions allowed' : d.allowAllPermissions === false ? 'Permissions no longer all allowed' : 'Permissions changed', { ...d })
        return
      case 'session.shutdown': {
        const byModel = shutdownUsageByModel(obj(d.modelMetrics))
        let u: Usage | undefined
        for (const one of byModel.values()) u = addUsage(u, one)
        if (u) {
          session.usage = u
          shutdownTotals = byModel
        }
        if (at !== undefined) session.lastActivityAt = at
        for (const k of ['shutdownType', 'totalPremiumRequests', 'totalApiDurationMs', 'codeChanges', 'currentModel'] as const) if (d[k] !== undefined) session.metadata[k] = d[k]
        return
      }
      case 'session.compaction_start':
        return
      case 'session.compaction_complete': {
        const keep = { outcome: d.outcome, messagesRemoved: d.messagesRemoved, tokensRemoved: d.tokensRemoved, compactionAttemptId: d.compactionAttemptId }
        if (d.success === true) marker('compaction', str(d.summaryContent) ?? 'Earlier messages were summarized.', keep)
        else marker('notice', `Compaction did not complete${str(d.error) ? `: ${str(d.error)}` : ''}`, keep, true)
        return
      }
      case 'session.truncation': {
        const n = num(d.messagesRemovedDuringTruncation)
        const t = num(d.tokensRemovedDuringTruncation)
        const limit = num(d.tokenLimit)
        marker('notice', `${n ?? 'Some'} earlier messages${t !== undefined ? ` (${t} tokens)` : ''} left out of the requests to fit ${limit !== undefined ? `${limit} tokens` : 'the context'}`, { ...d })
        return
      }
      case 'session.usage_record':
        pendingUsage = callUsage(obj(d.usage))
        return
      case 'system.message':
        push({ role: 'system', content: str(d.content) ?? '', isMeta: true })
        return
      case 'system.notification':
        marker('notification', untag(str(d.content) ?? ''), { kind: d.kind, status: str(obj(d.kind)?.type) })
        return
      case 'user.message': {
        const attachments = Array.isArray(d.attachments) && d.attachments.length ? { attachments: d.attachments } : {}
        push({ role: 'user', content: str(d.content) ?? '', ...(Object.keys(attachments).length ? { metadata: attachments } : {}) })
        return
      }
      case 'assistant.turn_start':
      case 'assistant.turn_end':
        return
      case 'assistant.message': {
        const toolCalls: ToolCall[] = []
        for (const r of Array.isArray(d.toolRequests) ? d.toolRequests : []) {
          const q = obj(r)
          const callId = str(q?.toolCallId)
          if (!q || !callId) continue
          const name = str(q.name) ?? '(unnamed)'
          const call: ToolCall = { id: callId, name, kind: kindOf(name), arguments: q.arguments }
          calls.set(callId, call)
          toolCalls.push(call)
        }
        const m = str(d.model) ?? model
        const out = num(d.outputTokens)
        const node = push({ role: 'assistant', content: str(d.content) ?? '', ...(toolCalls.length ? { toolCalls } : {}) })
        if (str(d.reasoningText)) node.thinking = str(d.reasoningText)
        if (str(d.reasoningOpaque)) node.thinkingSignature = str(d.reasoningOpaque)
        if (m) node.model = m
        if (str(d.requestId)) node.requestId = str(d.requestId)
        if (pendingUsage) node.usage = pendingUsage
        else if (out !== undefined) node.usage = { outputTokens: out }
        pendingUsage = undefined
        return
      }
      case 'tool.execution_start': {
        const callId = str(d.toolCallId)
        if (callId && at !== undefined) starts.set(callId, at)
        if (callId && !calls.has(callId)) addDiagnostic(session, { severity: 'info', path, line: lineNo, message: `tool ${str(d.toolName) ?? '?'} (${callId}) started with no assistant request naming it` })
        return
      }
      case 'tool.execution_complete': {
        const callId = str(d.toolCallId)
        if (!callId) {
          skipRecord(session, { severity: 'warning', path, line: lineNo, message: 'tool.execution_complete without toolCallId; skipped' })
          return
        }
        const failed = d.success === false
        const result = obj(d.result)
        const content = str(result?.content) ?? str(obj(d.error)?.message) ?? str(d.error) ?? ''
        push({ role: 'tool', toolCallId: callId, content, ...(failed ? { isError: true } : {}) })
        const call = calls.get(callId)
        const began = starts.get(callId)
        if (call && began !== undefined && at !== undefined) call.durationMs = at - began
        return
      }
      case 'hook.start': {
        const hookType = str(d.hookType) ?? 'hook'
        const n = marker('notice', `Hook ${hookType} started`, { hookInvocationId: d.hookInvocationId, hookType, ended: false }, true)
        if (str(d.hookInvocationId)) hooks.set(str(d.hookInvocationId)!, n)
        return
      }
      case 'hook.end': {
        const n = hooks.get(str(d.hookInvocationId) ?? '')
        const hookType = str(d.hookType) ?? 'hook'
        if (!n) {
          marker('notice', `Hook ${hookType} ended with no start`, { hookType, success: d.success }, true)
          return
        }
        n.metadata = { ...n.metadata, ended: true, success: d.success }
        if (d.success === false) {
          n.event = 'hook'
          delete n.isMeta
          const err = str(obj(d.error)?.message) ?? str(d.error)
          n.content = `Hook ${hookType} failed${err ? `: ${err}` : ''}`
        } else {
          n.content = `Hook ${hookType}`
        }
        return
      }
      case 'permission.requested': {
        const r = obj(d.permissionRequest)
        const what = str(r?.intention) ?? str(r?.fullCommandText) ?? str(r?.kind) ?? ''
        marker('notice', `Permission requested${what ? `: ${what}` : ''}`, { requestId: d.requestId, kind: r?.kind, toolCallId: r?.toolCallId })
        return
      }
      case 'permission.completed': {
        const kind = str(obj(d.result)?.kind) ?? 'answered'
        marker('notice', `Permission ${kind}`, { requestId: d.requestId, toolCallId: d.toolCallId, result: kind })
        return
      }
      default: {
        if (!KNOWN.has(type)) addDiagnostic(session, { severity: 'info', path, line: lineNo, message: `event type "${type}" is not read; kept as an unknown event` })
        marker('unknown-event', str(d.content) ?? '', { raw: d })
      }
    }
  })
  for (const n of hooks.values()) {
    if (n.metadata?.ended === false) n.content = `Hook ${String(n.metadata.hookType)} never ended`
  }
  if (shutdownTotals) settleShutdownUsage(session.nodes, shutdownTotals)
  return finishSession(session)
}
