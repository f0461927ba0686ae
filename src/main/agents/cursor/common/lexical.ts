/**
 * Lexical editor state → plain text. Cursor keeps the user's typing in a bubble's `richText` (and
 * the legacy chat pane's `initText`) as the Lexical editor's JSON state
 * `{"root":{"children":[{"type":"paragraph","children":[{"type":"text","text":"…"}]}]}}`
 * (shared/formats/cursor-devin-atif-acp.md §A5.1, §A5.3, §F4: user text sometimes lives only there).
 */
import { arr, obj, str } from './json'

/** Node types that end a line (block-level Lexical nodes). */
const BLOCKS = new Set(['paragraph', 'heading', 'quote', 'listitem', 'list', 'code', 'code-block'])

/**
 * The text of a Lexical state given as a JSON string or an already-parsed object. Text nodes
 * (any node with a string `text`, including mentions) are concatenated, `linebreak` nodes become
 * `\n`, block nodes are separated by `\n`. Undefined when the value is not a Lexical state or
 * holds no text. Never throws.
 */
export function lexicalText(value: unknown): string | undefined {
  let state: unknown = value
  if (typeof value === 'string') {
    if (!value.trim().startsWith('{')) return undefined
    try {
      state = JSON.parse(value)
    } catch {
      return undefined
    }
  }
  const root = obj(obj(state)?.root) ?? obj(state)
  if (!root || !arr(root.children)) return undefined
  const lines: string[] = []
  let line = ''
  const walk = (node: unknown, depth: number): void => {
    const n = obj(node)
    if (!n || depth > 64) return
    const type = str(n.type)
    if (type === 'linebreak') line += '\n'
    const t = str(n.text)
    if (t !== undefined && type !== 'root') line += t
    for (const child of arr(n.children) ?? []) walk(child, depth + 1)
    if (type !== undefined && BLOCKS.has(type) && type !== 'list') {
      lines.push(line)
      line = ''
    }
  }
  for (const child of arr(root.children)!) walk(child, 0)
  if (line !== '') lines.push(line)
  const out = lines.join('\n').replace(/\n+$/, '')
  return out.trim() === '' ? undefined : out
}
