/**
 * Nodes of one OpenCode-family assistant message.
 *
 * Facts (fixtures/real/opencode/README.md "Worth knowing"; message-v2.ts): one model reply is one
 * assistant message whose parts are `step-start` (snapshot before), `reasoning`, `text`, `tool`,
 * `step-finish` (reason, snapshot after, tokens, cost) and, when files changed, `patch` (hash,
 * file paths). Older versions kept several steps in one message (step-start … step-finish
 * repeated): each step becomes its own assistant node (`<message id>`, `<message id>#1`, ...)
 * followed by the results of its tool calls, so text and tool results stay interleaved.
 * Usage: a single-step message uses the message's `tokens`/`cost`; a multi-step one each step's
 * `step-finish` tokens (the message keeps only the last step's).
 */
import type { Checkpoint, ContentBlock, MessageNode, ToolCall } from '../../../shared/ir'
import { fileBlock, reasoningSignature, toolFromPart, usageOf } from './parts'
import type { StoredMessage, StoredPart } from './store'
import { type Json, obj, pick, pickStr, str, timeOf } from './values'

/** Part types that fill the step's assistant node; content of these after a `step-finish` opens a new step. */
const NODE_CONTENT = new Set(['text', 'reasoning', 'tool', 'file'])

interface Step {
  parts: StoredPart[]
  start?: Json
  finish?: Json
  hasContent: boolean
}

/**
 * Split the parts into steps at each `step-start` (and at text/reasoning/tool/file parts after a
 * `step-finish`); `patch`, `snapshot`, `retry` and unknown parts stay with the current step.
 */
function steps(parts: StoredPart[]): Step[] {
  const out: Step[] = [{ parts: [], hasContent: false }]
  for (const p of parts) {
    let cur = out[out.length - 1]!
    const type = str(p.data.type) ?? ''
    if (type === 'step-start') {
      if (cur.hasContent || cur.finish || cur.start) out.push((cur = { parts: [], hasContent: false }))
      cur.start = p.data
      continue
    }
    if (type === 'step-finish') {
      if (cur.finish) out.push((cur = { parts: [], hasContent: false }))
      cur.finish = p.data
      continue
    }
    if (NODE_CONTENT.has(type)) {
      if (cur.finish) out.push((cur = { parts: [], hasContent: false }))
      cur.hasContent = true
    }
    cur.parts.push(p)
  }
  return out
}

/** What building an assistant message yields besides nodes. */
export interface AssistantExtras {
  checkpoints: Checkpoint[]
  /** Parts of unknown type without text, by type (for session metadata). */
  unknownTypes: string[]
}

/** Message-level fields kept as metadata on the first node. */
function messageMeta(d: Json): Json {
  const meta: Json = {}
  const provider = pickStr(d, 'providerID', 'provider_id', 'providerId')
  if (provider) meta.providerID = provider
  const agent = pickStr(d, 'agent', 'mode')
  if (agent) meta.agent = agent
  for (const k of ['variant', 'structured'] as const) if (d[k] !== undefined) meta[k] = d[k]
  if (d.summary === true) meta.compactionSummary = true
  return meta
}

function firstTime(step: Step): number | undefined {
  for (const p of step.parts) {
    const t = timeOf(obj(p.data.time), 'start') ?? p.rowCreatedAt
    if (t !== undefined) return t
  }
  return undefined
}

/** Nodes (assistant nodes and tool results, in order) of one assistant message. */
export function assistantNodes(m: StoredMessage, extras: AssistantExtras): MessageNode[] {
  const d = m.data
  const out: MessageNode[] = []
  const all = steps(m.parts)
  const model = pickStr(d, 'modelID', 'model_id', 'modelId') ?? pickStr(obj(d.model), 'modelID', 'id') ?? str(d.model)
  all.forEach((step, k) => {
    const node: MessageNode = { nodeId: k === 0 ? m.id : `${m.id}#${k}`, role: 'assistant', content: '' }
    const at = k === 0 ? (timeOf(d, 'created') ?? m.rowCreatedAt) : (timeOf(obj(step.start?.time), 'start') ?? firstTime(step))
    if (at !== undefined) node.createdAt = at
    if (model !== undefined) node.model = model
    const after: MessageNode[] = []
    const blocks: ContentBlock[] = []
    const calls: ToolCall[] = []
    const thinking: string[] = []
    const signatures: string[] = []
    const meta: Json = k === 0 ? messageMeta(d) : {}
    for (const p of step.parts) {
      const data = p.data
      const type = str(data.type) ?? '(none)'
      const text = str(data.text)
      if (type === 'text' && (data.synthetic === true || data.ignored === true)) {
        after.push({ nodeId: p.id, role: 'assistant', content: text ?? '', isMeta: true, metadata: data.synthetic === true ? { synthetic: true } : { ignored: true } })
      } else if (type === 'text') blocks.push({ type: 'text', text: text ?? '' })
      else if (type === 'reasoning') {
        if (text) thinking.push(text)
        const sig = reasoningSignature(data.metadata)
        if (sig) signatures.push(sig)
      } else if (type === 'tool') {
        const { call, result } = toolFromPart(data, p.id)
        calls.push(call)
        if (result) after.push(result)
      } else if (type === 'file') blocks.push(fileBlock(data))
      else if (type === 'patch') {
        const files = Array.isArray(data.files) ? data.files.filter((f): f is string => typeof f === 'string') : []
        const hash = str(data.hash)
        ;((meta.patches ??= []) as Json[]).push({ hash, files })
        if (hash) {
          const c: Checkpoint = { ref: hash, kind: 'opencode-snapshot', nodeId: node.nodeId, files }
          const t = timeOf(obj(data.time), 'start') ?? p.rowCreatedAt
          if (t !== undefined) c.createdAt = t
          extras.checkpoints.push(c)
        }
      } else if (type === 'snapshot') ((meta.snapshots ??= []) as unknown[]).push(data.snapshot)
      else if (type === 'retry') ((meta.retries ??= []) as Json[]).push({ attempt: data.attempt, error: data.error, at: timeOf(obj(data.time), 'created') })
      else if (text?.trim()) after.push({ nodeId: p.id, role: 'system', content: text, event: 'unknown-event', metadata: { partType: type } })
      else extras.unknownTypes.push(type)
    }
    node.content = blocks.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n\n')
    if (blocks.some((b) => b.type !== 'text')) node.blocks = blocks
    if (calls.length) node.toolCalls = calls
    if (thinking.length) node.thinking = thinking.join('\n\n')
    if (signatures.length) node.thinkingSignature = signatures[signatures.length - 1]!
    if (signatures.length > 1) meta.thinkingSignatures = signatures
    const snap: Json = {}
    if (str(step.start?.snapshot)) snap.start = step.start!.snapshot
    if (str(step.finish?.snapshot)) snap.finish = step.finish!.snapshot
    if (Object.keys(snap).length) meta.snapshot = snap
    const last = k === all.length - 1
    const reason = str(step.finish?.reason) ?? (last ? pickStr(d, 'finish', 'finish_reason', 'finishReason') : undefined)
    if (reason !== undefined) node.finishReason = reason
    const usage = all.length === 1 ? (usageOf(d) ?? usageOf(step.finish)) : usageOf(step.finish)
    if (usage) node.usage = usage
    if (last && pick(d, 'error') !== undefined) meta.error = d.error
    if (Object.keys(meta).length) node.metadata = meta
    out.push(node, ...after)
  })
  return out
}
