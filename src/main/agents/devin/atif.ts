/**
 * Devin's second transcript: `transcripts/<session_id>.json`, an ATIF v1.7 document (Harbor RFC
 * 0001; `shared/formats/cursor-devin-atif-acp.md` D, edge cases 38-39; seed 002 "Files outside
 * the DB").
 *
 * Root `{schema_version, session_id?, agent{name,version,model_name}, steps[], final_metrics?}`;
 * steps `{step_id, timestamp?, source: system|user|agent, message (string | ContentPart[]),
 * model_name?, reasoning_content?, tool_calls[{tool_call_id,function_name,arguments}],
 * observation{results[{source_call_id,content}]}, metrics?, extra?, is_copied_context?}`. Legacy
 * builds put `metadata{metrics{input_tokens,…}, request_id, generation_model}` on steps.
 *
 * The file is rewritten whole after every step, so a reader can catch it empty or cut short: the
 * complete steps before the cut are kept and the problem is reported, never thrown.
 *
 * Token units: ATIF `prompt_tokens` **includes** cached tokens (v1.2+); whether Devin follows
 * that is unsettled [L], so the spec reading is applied (`inputTokens = prompt − cached`) and the
 * raw `final_metrics` is kept in session metadata.
 */
import { readFile } from 'node:fs/promises'
import type { ContentBlock, Diagnostic, MessageNode, ToolCall, Usage } from '../../../shared/ir'
import { salvageJsonArray } from '../../util/json'
import { toolKind } from '../../ir/toolkind'
import { usageFromMetrics } from './message'
import { arr, isoToMs, type Json, jsonError, nonEmpty, num, obj, str } from './json'
import { readRegularFile } from '../../util/regular-file'
import { plural } from '../../../shared/plural'

/** A loaded ATIF file. */
export interface Atif {
  path: string
  /** The root object (partial when cut short: fields before `steps` only). */
  root: Json
  steps: Json[]
  /** Problem met while reading (empty, cut short, not an object). */
  problem?: Omit<Diagnostic, 'sessionId' | 'agent'>
}

/** Read and parse an ATIF file. Resolves undefined only when the file cannot be read at all. */
export async function loadAtif(path: string): Promise<Atif | undefined> {
  let text: string
  try {
    text = await readRegularFile(path)
  } catch {
    return undefined
  }
  if (text.trim() === '') return { path, root: {}, steps: [], problem: { severity: 'warning', path, message: 'ATIF transcript is empty (Devin rewrites it after every step); not used' } }
  try {
    const root = obj(JSON.parse(text))
    if (!root) return { path, root: {}, steps: [], problem: { severity: 'warning', path, message: 'ATIF transcript is not a JSON object; not used' } }
    return { path, root, steps: (arr(root.steps) ?? []).map(obj).filter((s): s is Json => !!s) }
  } catch (e) {
    return salvage(path, text, jsonError(e))
  }
}

/** Keep the complete steps of a cut-short document (and the root fields before `steps`). */
function salvage(path: string, text: string, error: string): Atif {
  const at = text.search(/"steps"\s*:\s*\[/)
  let steps: Json[] = []
  const root: Json = {}
  if (at >= 0) {
    const items = salvageJsonArray(text.slice(text.indexOf('[', at))).items
    steps = items.map(obj).filter((s): s is Json => !!s)
    try {
      Object.assign(root, obj(JSON.parse(text.slice(0, at).replace(/,\s*$/, '') + '}')))
    } catch {
      // root header unreadable: keep the steps only
    }
  }
  return { path, root, steps, problem: { severity: 'warning', path, message: `ATIF transcript is cut short or malformed (${error}); ${plural(steps.length, 'complete step')} used` } }
}

/** Text and non-text blocks of an ATIF `message`/`content` (string or ContentPart[]). */
export function atifText(value: unknown): { text: string; blocks?: ContentBlock[] } {
  if (typeof value === 'string') return { text: value }
  const blocks: ContentBlock[] = []
  for (const p of arr(value) ?? []) {
    const o = obj(p)
    if (o?.type === 'text' && typeof o.text === 'string') blocks.push({ type: 'text', text: o.text })
    else if (o?.type === 'image') {
      const src = obj(o.source)
      const img: ContentBlock = { type: 'image' }
      if (str(src?.media_type)) img.mediaType = str(src?.media_type)
      if (str(src?.path)) img.uri = str(src?.path)
      blocks.push(img)
    }
  }
  const text = blocks.map((b) => (b.type === 'text' ? b.text : '')).filter(Boolean).join('\n\n')
  return blocks.some((b) => b.type !== 'text') ? { text, blocks } : { text }
}

/** ATIF step / final metrics → IR usage (prompt includes cached, see module doc). */
export function atifUsage(prompt: unknown, completion: unknown, cached: unknown, cost?: unknown): Usage | undefined {
  const u: Usage = {}
  const p = num(prompt)
  const c = num(cached)
  if (p !== undefined) u.inputTokens = c !== undefined && c <= p ? p - c : p
  if (num(completion) !== undefined) u.outputTokens = num(completion)
  if (c !== undefined) u.cacheReadTokens = c
  if (num(cost) !== undefined) u.cost = num(cost)
  return Object.keys(u).length ? u : undefined
}

/** Usage of a step: `metrics` (ATIF), else legacy `metadata.metrics` (Devin metrics, cache excluded). */
function stepUsage(step: Json): Usage | undefined {
  const m = obj(step.metrics)
  if (m) return atifUsage(m.prompt_tokens, m.completion_tokens, m.cached_tokens, m.cost_usd)
  return usageFromMetrics(obj(obj(step.metadata)?.metrics)).usage
}

/** Request id of a step (`extra.request_id` or legacy `metadata.request_id`). */
export function stepRequestId(step: Json): string | undefined {
  return nonEmpty(obj(step.extra)?.request_id) ?? nonEmpty(obj(step.metadata)?.request_id)
}

/** Tool call ids of a step. */
export function stepCallIds(step: Json): string[] {
  return (arr(step.tool_calls) ?? []).map((c) => str(obj(c)?.tool_call_id)).filter((x): x is string => x !== undefined)
}

/**
 * Build IR nodes from the steps alone (a session whose database rows are gone). Node ids are
 * `atif-<step_id>` (results `atif-<step_id>-r<n>`), chained in step order.
 */
export function nodesFromAtif(atif: Atif): MessageNode[] {
  const nodes: MessageNode[] = []
  let parent: string | undefined
  const push = (n: MessageNode) => {
    if (parent !== undefined) n.parentNodeId = parent
    nodes.push(n)
    parent = n.nodeId
  }
  atif.steps.forEach((step, i) => {
    const id = `atif-${num(step.step_id) ?? i + 1}`
    const source = str(step.source)
    const { text, blocks } = atifText(step.message)
    const node: MessageNode = { nodeId: id, role: source === 'agent' ? 'assistant' : source === 'user' ? 'user' : 'system', content: text }
    if (blocks) node.blocks = blocks
    const at = isoToMs(step.timestamp) ?? isoToMs(obj(step.metadata)?.created_at)
    if (at !== undefined) node.createdAt = at
    if (node.role === 'system') node.isMeta = true
    if (step.is_copied_context === true) node.metadata = { copiedContext: true }
    if (node.role === 'assistant') {
      const reasoning = nonEmpty(step.reasoning_content)
      if (reasoning !== undefined) node.thinking = reasoning
      const model = nonEmpty(step.model_name) ?? nonEmpty(obj(step.extra)?.generation_model) ?? nonEmpty(obj(step.metadata)?.generation_model)
      if (model !== undefined) node.model = model
      const usage = stepUsage(step)
      if (usage) node.usage = usage
      const req = stepRequestId(step)
      if (req !== undefined) node.requestId = req
      const calls: ToolCall[] = (arr(step.tool_calls) ?? []).map(obj).filter((c): c is Json => !!c).map((c, k) => {
        const name = str(c.function_name) ?? 'unknown'
        return { id: str(c.tool_call_id) ?? `${id}#${k}`, name, kind: toolKind(name), arguments: c.arguments ?? {} }
      })
      if (calls.length) node.toolCalls = calls
    }
    push(node)
    ;(arr(obj(step.observation)?.results) ?? []).forEach((r, k) => {
      const o = obj(r)
      if (!o) return
      const callId = str(o.source_call_id)
      const result: MessageNode = { nodeId: `${id}-r${k + 1}`, role: callId ? 'tool' : 'system', content: atifText(o.content).text }
      if (callId) result.toolCallId = callId
      else result.isMeta = true
      if (at !== undefined) result.createdAt = at
      push(result)
    })
  })
  return nodes
}
