/**
 * Paged transcripts (`getSessionPage`): a slice of a session's nodes with long texts cut, so the
 * renderer's virtual list gets its first screen fast and a huge tool output does not freeze it.
 * A cut node says so in `metadata.sepiaTruncated` (field → full length); `getSessionNode` returns
 * it whole ("show all").
 */
import { SepiaError } from '../../shared/api'
import type { PageOptions, SessionPage } from '../../shared/catalog'
import type { ContentBlock, MessageNode, Session } from '../../shared/ir'

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

/** One page of `session`. Rejects `BAD_ARGUMENT` for bad options. */
export function pageOf(session: Session, options: PageOptions = {}): SessionPage {
  if (options !== null && typeof options !== 'object') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Page options must be an object.' })
  const offset = intOption(options.offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER)
  const limit = intOption(options.limit, 'limit', DEFAULT_PAGE, 1, MAX_PAGE)
  const max = intOption(options.maxChars, 'maxChars', DEFAULT_MAX_CHARS, 100, Number.MAX_SAFE_INTEGER)
  const nodes = session.nodes.slice(offset, offset + limit).map((n) => cutNode(n, max))
  return { session: { ...session, nodes: [] }, nodes, offset, totalNodes: session.nodes.length }
}

/** The node `nodeId` of `session`, whole. Rejects `SESSION_NOT_FOUND` when absent. */
export function wholeNode(session: Session, nodeId: string): MessageNode {
  if (typeof nodeId !== 'string' || nodeId === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A node id is required.' })
  const n = session.nodes.find((x) => x.nodeId === nodeId)
  if (!n) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `The session ${session.id} has no message ${nodeId} (it may have changed since it was listed).` })
  return n
}
