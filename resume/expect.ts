/**
 * What a resumed request must carry, taken from the SOURCE session as Sepia read it (not from the
 * converted store): every user text, assistant text and tool result of its main thread, and its
 * number of tool calls. Port of the shared kit's `realstores/lib/store.py expect` to the IR: events,
 * injected context (`isMeta`) and system messages are not looked for (the kit skips the same
 * wrappers: `<environment_context>`, `<session_context>`, Claude Code meta records...).
 *
 * Each text is represented by its first 80 characters with whitespace collapsed, plus its last 40
 * when longer (tells apart texts with one prefix). A Cline fan-out result is looked for per item
 * (it is split per item in the target, `src/main/convert/fanout.ts`); a result whose call is not
 * in the thread (an orphan) is looked for as text anywhere.
 */
import type { Session } from '../src/shared/ir'
import { recordedQueries, splitResult } from '../src/main/convert/fanout'
import { selectThread } from '../src/main/convert/thread'

/** One text to look for. `orphan`: a tool result written as plain text. */
export interface ExpectItem {
  kind: 'user' | 'assistant' | 'tool' | 'orphan'
  text: string
  tail?: string
  where: string
}

/** Everything to look for in the resumed request. */
export interface Expectation {
  items: ExpectItem[]
  /** Tool calls in the source's main thread (each must arrive as at least one call). */
  toolCalls: number
}

const NEEDLE = 80

/** Whitespace collapsed and trimmed. */
export const norm = (s: string): string => s.replace(/\s+/g, ' ').trim()

/** The first 80 characters, normalized. */
export const needle = (s: string): string => norm(s).slice(0, NEEDLE)

/** The last 40 characters when the text is longer than the needle, else ''. */
export function tail(s: string): string {
  const n = norm(s)
  return n.length > NEEDLE ? n.slice(-40) : ''
}

/** The expectation for `session` (see the module comment). */
export function expectationOf(session: Session): Expectation {
  const items: ExpectItem[] = []
  const add = (kind: ExpectItem['kind'], text: string, where: string): void => {
    const n = needle(text)
    const t = tail(text)
    if (n.length < 3) return
    if (items.some((i) => i.kind === kind && i.text === n && (i.tail ?? '') === t)) return
    items.push(t ? { kind, text: n, tail: t, where } : { kind, text: n, where })
  }
  const { nodes } = selectThread(session)
  const calls = new Set<string>()
  let toolCalls = 0
  for (const n of nodes) {
    if (n.event || n.isMeta || n.role === 'system') continue
    for (const c of n.toolCalls ?? []) calls.add(c.id)
    toolCalls += n.toolCalls?.length ?? 0
  }
  for (const n of nodes) {
    if (n.event || n.isMeta || n.role === 'system') continue
    const where = `${n.role} ${n.nodeId}`
    if (n.role === 'user') add('user', n.content, where)
    else if (n.role === 'assistant') add('assistant', n.content, where)
    else if (!n.toolCallId || !calls.has(n.toolCallId)) add('orphan', n.content, where)
    else {
      const parts = recordedQueries(n)?.length ?? 1
      for (const r of parts > 1 ? splitResult(n, parts) : [{ text: n.content }]) add('tool', r.text, where)
    }
  }
  return { items, toolCalls }
}
