/**
 * Highlight the words of find-in-session in the rendered transcript rows, with the CSS Custom
 * Highlight API (`CSS.highlights`, Chromium 105+): no DOM is added, so the virtual list's rows
 * and their measured heights stay as they are. Two highlights: `sepia-find` for every match on
 * screen and `sepia-find-current` for the matches inside the current row (`[data-node-id]`).
 * Styled in styles.css. Where the API is missing the rows are still scrolled to, just not marked.
 */

import type { MessageNode } from '../../shared/ir'

/** Highlight names (see styles.css `::highlight(...)`). */
export const FIND_HIGHLIGHT = 'sepia-find'
export const FIND_CURRENT = 'sepia-find-current'

interface HighlightRegistry {
  set(name: string, h: unknown): void
  delete(name: string): void
}
type HighlightCtor = new (...ranges: Range[]) => unknown

function registry(): { reg: HighlightRegistry; Highlight: HighlightCtor } | null {
  const css = (globalThis as { CSS?: { highlights?: HighlightRegistry } }).CSS
  const Highlight = (globalThis as { Highlight?: HighlightCtor }).Highlight
  return css?.highlights && Highlight ? { reg: css.highlights, Highlight } : null
}

/**
 * Start offsets of `needle` in `hay`, case-insensitive (both compared in lower case; a needle of
 * blank text finds nothing). Pure.
 */
export function matchOffsets(hay: string, needle: string): number[] {
  const n = needle.trim().toLowerCase()
  if (!n) return []
  const h = hay.toLowerCase()
  const out: number[] = []
  for (let i = h.indexOf(n); i >= 0; i = h.indexOf(n, i + n.length)) out.push(i)
  return out
}

/**
 * What of `node` must be unfolded for a find match of `query` to be seen: its thinking (folded
 * under "Thinking" and not rendered until opened), and the ids of its own tool calls whose
 * arguments hold the words (their cards are folded). Main's `findInSession` looks in the same
 * places (text, thinking, tool call arguments). Case-insensitive; blank text unfolds nothing. Pure.
 */
export function foldedMatches(node: Pick<MessageNode, 'thinking' | 'toolCalls'>, query: string): { thinking: boolean; toolCallIds: string[] } {
  const n = query.trim().toLowerCase()
  if (!n) return { thinking: false, toolCallIds: [] }
  const has = (v: unknown): boolean => {
    if (v === undefined || v === null) return false
    return (typeof v === 'string' ? v : JSON.stringify(v)).toLowerCase().includes(n)
  }
  return {
    thinking: has(node.thinking),
    toolCallIds: (node.toolCalls ?? []).filter((c) => has(c.arguments) || has(c.name)).map((c) => c.id),
  }
}

/** Mark every match of `query` under `root`; the ones inside the row `currentNodeId` as current. `root` null clears. */
export function highlightMatches(root: HTMLElement | null, query: string, currentNodeId: string | undefined): number {
  const api = registry()
  if (!api) return 0
  const all: Range[] = []
  const current: Range[] = []
  const needle = query.trim()
  if (root && needle) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const text = t.nodeValue ?? ''
      const offsets = matchOffsets(text, needle)
      if (!offsets.length) continue
      const row = t.parentElement?.closest('[data-node-id]')
      const isCurrent = currentNodeId !== undefined && row?.getAttribute('data-node-id') === currentNodeId
      for (const o of offsets) {
        const r = document.createRange()
        r.setStart(t, o)
        r.setEnd(t, o + needle.length)
        ;(isCurrent ? current : all).push(r)
      }
    }
  }
  api.reg.set(FIND_HIGHLIGHT, new api.Highlight(...all))
  api.reg.set(FIND_CURRENT, new api.Highlight(...current))
  return all.length + current.length
}
