/**
 * Paged transcripts (`getSessionPage`): a slice of a session's nodes with long texts cut, so the
 * renderer's virtual list gets its first screen fast and a huge tool output does not freeze it.
 * A cut node says so in `metadata.sepiaTruncated` (field → full length); `getSessionNode` returns
 * it whole ("show all").
 */
import { SepiaError } from '../../shared/api'
import type { FindMatch, FindOptions, FindResult, PageOptions, SessionPage, SessionStats } from '../../shared/catalog'
import type { ContentBlock, MessageNode, Session, Usage } from '../../shared/ir'

/** Default and largest page sizes (nodes). */
export const DEFAULT_PAGE = 200
export const MAX_PAGE = 2000
/** Default cut of a long text (characters). */
export const DEFAULT_MAX_CHARS = 20_000

function intOption(value: unknown, name: string, def: number, min: number, max: number): number {
  if (value === undefined) return def
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${name}" must be a whole number of at least ${min}.` })
  }
  return Math.min(value, max)
}

/** A node with every text longer than `max` cut (a copy; the input is not changed). */
export function cutNode(n: MessageNode, max: number): MessageNode {
  const cut: Record<string, number> = {}
  const out: MessageNode = { ...n }
  if (n.content.length > max) {
    cut.content = n.content.length
    out.content = n.content.slice(0, max)
  }
  if (n.thinking && n.thinking.length > max) {
    cut.thinking = n.thinking.length
    out.thinking = n.thinking.slice(0, max)
  }
  if (n.blocks) {
    out.blocks = n.blocks.map((b, i): ContentBlock => {
      if ((b.type === 'text' || b.type === 'file' || b.type === 'unknown') && b.text && b.text.length > max) {
        cut[`blocks.${i}`] = b.text.length
        return { ...b, text: b.text.slice(0, max) }
      }
      if (b.type === 'image' && b.data && b.data.length > max) {
        cut[`blocks.${i}`] = b.data.length
        const { data: _d, ...rest } = b
        return rest
      }
      return b
    })
  }
  if (n.toolCalls) {
    out.toolCalls = n.toolCalls.map((c, i) => {
      if (!c.diffs?.some((d) => (d.oldText?.length ?? 0) > max || (d.newText?.length ?? 0) > max)) return c
      cut[`toolCalls.${i}.diffs`] = Math.max(...c.diffs.map((d) => Math.max(d.oldText?.length ?? 0, d.newText?.length ?? 0)))
      return { ...c, diffs: c.diffs.map((d) => ({ ...d, ...(d.oldText !== undefined ? { oldText: d.oldText.slice(0, max) } : {}), ...(d.newText !== undefined ? { newText: d.newText.slice(0, max) } : {}) })) }
    })
  }
  if (Object.keys(cut).length === 0) return n
  out.metadata = { ...n.metadata, sepiaTruncated: cut }
  return out
}

/**
 * The nodes `[offset, offset + limit)` that {@link pageOf} gives for `options` (the page that holds
 * `options.nodeId` when the session has it), and the cut of long texts (`maxChars`). Rejects
 * `BAD_ARGUMENT` for bad options.
 */
export function pageRange(session: Session, options: PageOptions = {}): { offset: number; limit: number; maxChars: number } {
  if (options !== null && typeof options !== 'object') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Page options must be an object.' })
  let offset = intOption(options.offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER)
  const limit = intOption(options.limit, 'limit', DEFAULT_PAGE, 1, MAX_PAGE)
  const maxChars = intOption(options.maxChars, 'maxChars', DEFAULT_MAX_CHARS, 100, Number.MAX_SAFE_INTEGER)
  if (options.nodeId !== undefined) {
    if (typeof options.nodeId !== 'string') throw new SepiaError({ code: 'BAD_ARGUMENT', message: '"nodeId" must be a node id (text).' })
    const at = session.nodes.findIndex((n) => n.nodeId === options.nodeId)
    if (at >= 0) offset = Math.floor(at / limit) * limit
  }
  return { offset, limit, maxChars }
}

/** One page of `session`. Rejects `BAD_ARGUMENT` for bad options. */
export function pageOf(session: Session, options: PageOptions = {}): SessionPage {
  const { offset, limit, maxChars } = pageRange(session, options)
  const nodes = session.nodes.slice(offset, offset + limit).map((n) => cutNode(n, maxChars))
  return { session: { ...session, nodes: [] }, nodes, offset, totalNodes: session.nodes.length, stats: statsOf(session) }
}

const statsCache = new WeakMap<Session, SessionStats>()

/**
 * Whole-session counts for a paged view (cached per session object): messages as the renderer's
 * `countMessages` counts them, tool calls, injected nodes, and the nodes' usage summed.
 */
export function statsOf(session: Session): SessionStats {
  const hit = statsCache.get(session)
  if (hit) return hit
  let messages = 0
  let toolCalls = 0
  let metaNodes = 0
  let usage: Usage | undefined
  for (const n of session.nodes) {
    if ((n.role === 'user' || n.role === 'assistant') && !n.event && !n.isMeta) messages++
    toolCalls += n.toolCalls?.length ?? 0
    if (n.isMeta) metaNodes++
    if (n.usage) {
      usage ??= {}
      for (const k of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'thinkingTokens', 'cost'] as const) {
        const v = n.usage[k]
        if (typeof v === 'number') usage[k] = (usage[k] ?? 0) + v
      }
    }
  }
  const stats: SessionStats = { messages, toolCalls, metaNodes, ...(usage ? { usage } : {}) }
  statsCache.set(session, stats)
  return stats
}

/** Occurrences of `needle` (already lower case) in `hay`, case-insensitive. */
function occurrences(hay: string | undefined, needle: string): number {
  if (!hay) return 0
  const h = hay.toLowerCase()
  let n = 0
  for (let i = h.indexOf(needle); i >= 0; i = h.indexOf(needle, i + needle.length)) n++
  return n
}

/** The texts of a node that find-in-session looks at (what the transcript shows). */
function searchableTexts(n: MessageNode): (string | undefined)[] {
  const out: (string | undefined)[] = [n.content, n.thinking]
  for (const b of n.blocks ?? []) if (b.type === 'text' || b.type === 'file' || b.type === 'unknown') out.push(b.text)
  for (const c of n.toolCalls ?? []) {
    out.push(c.name)
    try {
      out.push(typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments))
    } catch {
      // Arguments that do not serialize are not searchable.
    }
  }
  return out
}

/**
 * Find `query` in a session's nodes (see `SepiaApi.findInSession`): literal, case-insensitive.
 * Rejects `BAD_ARGUMENT` for a query that is not text or bad options.
 */
export function findIn(session: Session, query: string, options: FindOptions = {}): FindResult {
  if (typeof query !== 'string') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The text to find must be text.' })
  if (options !== null && typeof options !== 'object') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Find options must be an object.' })
  const limit = intOption(options?.limit, 'limit', 1000, 1, 10_000)
  const needle = query.trim().toLowerCase()
  const matches: FindMatch[] = []
  let total = 0
  let nodes = 0
  if (needle) {
    session.nodes.forEach((n, nodeIndex) => {
      if (n.isMeta && options?.includeMeta !== true) return
      let count = 0
      for (const t of searchableTexts(n)) count += occurrences(t, needle)
      if (count === 0) return
      total += count
      nodes++
      if (matches.length < limit) matches.push({ nodeIndex, nodeId: n.nodeId, count })
    })
  }
  return { query, matches, total, more: nodes > matches.length }
}

/** The node `nodeId` of `session`, whole. Rejects `SESSION_NOT_FOUND` when absent. */
export function wholeNode(session: Session, nodeId: string): MessageNode {
  if (typeof nodeId !== 'string' || nodeId === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A node id is required.' })
  const n = session.nodes.find((x) => x.nodeId === nodeId)
  if (!n) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `The session ${session.id} has no message ${nodeId} (it may have changed since it was listed).` })
  return n
}
