/**
 * Scenario files and reply selection, ported from `realstores/mock-llm.mjs` ("reply selection"):
 *
 * 1. the request is a list of user / assistant / tool messages (`normalize.ts`);
 * 2. going back from the newest user message, the first user message a turn's `match` fits selects
 *    that turn (turns tried in file order); a string `match` is a substring of the user text, an
 *    object may hold `userText`, `userTextNot`, `system`, `systemNot`, `model`, `hasTool`, `noTools`;
 * 3. `step` = assistant messages after that user message; `replies[step]` is sent; past the end the
 *    last reply again when it has no tool call, else `fallbackText` (an agent can never loop);
 * 4. `noToolsText` answers side requests with no tools and no earlier assistant turn (titles).
 * The selection depends only on the request, so a resumed session continues at the right place.
 */
import { randomBytes } from 'node:crypto'
import type { Json, Normalized } from './normalize'

/** A scripted reply block. */
export interface Block {
  type: 'text' | 'thinking' | 'redacted_thinking' | 'tool_use'
  text?: string
  thinking?: string
  signature?: string
  data?: string
  name?: string
  input?: unknown
  id?: string
  options?: { name: string; input?: unknown; arguments?: unknown }[]
  [k: string]: unknown
}

/** A reply: text, or content blocks. */
export type Reply = string | { content: Block[]; stop_reason?: string }

/** One scripted turn. */
export interface Turn {
  match?: string | { userText?: string; userTextNot?: string; system?: string; systemNot?: string; model?: string; hasTool?: string; noTools?: boolean }
  replies: Reply[]
}

/** A scenario file (resume/scenarios/<agent>.json). */
export interface Scenario {
  name?: string
  model?: string
  noToolsText?: string
  fallbackText?: string
  turns?: Turn[]
  default?: { replies: Reply[] }
}

/** A random id with a prefix. */
export const rid = (p: string): string => `${p}${randomBytes(12).toString('hex')}`

function turnMatches(t: Turn, info: Normalized, userText: string, isNewest: boolean): boolean {
  const m = typeof t.match === 'string' ? { userText: t.match } : t.match || {}
  if (m.userText === undefined && !isNewest) return false
  if (m.userText !== undefined && !userText.includes(m.userText)) return false
  if (m.userTextNot && userText.includes(m.userTextNot)) return false
  if (m.system && !info.system.includes(m.system)) return false
  if (m.systemNot && info.system.includes(m.systemNot)) return false
  if (m.model && !info.model.includes(m.model)) return false
  if (m.hasTool && !info.tools.some((x) => x.name === m.hasTool)) return false
  if (m.noTools && info.tools.length > 0) return false
  return true
}

const normReply = (r: Reply): { content: Block[] } => (typeof r === 'string' ? { content: [{ type: 'text', text: r }] } : r)

/** The reply for a request, the turn that chose it (its marker, `noTools`, `default` or an index) and the step. */
export function pickReply(sc: Scenario, info: Normalized): { reply: { content: Block[] }; turn: string | number; step: number } {
  const hasPrior = info.msgs.some((m) => m.role === 'assistant' || m.role === 'tool')
  if (sc.noToolsText != null && info.tools.length === 0 && !hasPrior) return { reply: normReply(sc.noToolsText), turn: 'noTools', step: 0 }
  const userIdx: number[] = []
  for (let i = info.msgs.length - 1; i >= 0; i--) if (info.msgs[i]!.role === 'user') userIdx.push(i)
  let turn: Turn | undefined
  let turnIdx: string | number = 'default'
  let at = userIdx.length ? userIdx[0]! : -1
  outer: for (let k = 0; k < userIdx.length; k++) {
    const i = userIdx[k]!
    const turns = sc.turns || []
    for (let t = 0; t < turns.length; t++) {
      if (turnMatches(turns[t]!, info, info.msgs[i]!.text, k === 0)) {
        turn = turns[t]
        turnIdx = t
        at = i
        break outer
      }
    }
  }
  if (!turn && userIdx.length === 0) {
    ;(sc.turns || []).some((t, i) => (turnMatches(t, info, '', true) ? ((turn = t), (turnIdx = i), true) : false))
  }
  const chosen = turn ?? sc.default ?? { replies: ['Done.'] }
  const step = info.msgs.slice(at + 1).filter((m) => m.role === 'assistant').length
  const replies = (chosen.replies && chosen.replies.length ? chosen.replies : ['Done.']).map(normReply)
  let reply: { content: Block[] }
  if (step < replies.length) reply = replies[step]!
  else {
    const last = replies[replies.length - 1]!
    reply = last.content.some((b) => b.type === 'tool_use') ? normReply(sc.fallbackText || 'Done.') : last
  }
  const label = typeof turnIdx === 'number' && turn && typeof turn.match === 'string' ? turn.match : turnIdx
  return { reply, turn: label, step }
}

/** Placeholders: `${CWD}`, `${SEQ}`, `${OUT_RE:regex}`, `${env:NAME}`. */
export function substitute<T>(v: T, ctx: { cwd: string; seq: number; lastToolOutput: string }): T {
  if (typeof v === 'string') {
    return v
      .replaceAll('${CWD}', ctx.cwd || '.')
      .replaceAll('${SEQ}', String(ctx.seq))
      .replace(/\$\{env:([A-Za-z0-9_]+)\}/g, (_, k: string) => process.env[k] ?? '')
      .replace(/\$\{OUT_RE:([^}]*)\}/g, (_, re: string) => {
        const m = new RegExp(re).exec(ctx.lastToolOutput || '')
        return m ? (m[1] ?? m[0]) : ''
      }) as T
  }
  if (Array.isArray(v)) return v.map((x) => substitute(x, ctx)) as T
  if (v && typeof v === 'object') {
    const o: Json = {}
    for (const [k, x] of Object.entries(v)) o[k] = substitute(x, ctx)
    return o as T
  }
  return v
}

/** Resolve `tool_use` option lists against the request's tools; give every tool_use an id. */
export function resolveBlocks(reply: { content: Block[] }, info: Normalized): Block[] {
  const names = info.tools.map((t) => t.name)
  const out: Block[] = []
  for (const b of reply.content || []) {
    if (b.type !== 'tool_use' || !b.options) {
      out.push(b)
      continue
    }
    let chosen = b.options.find((o) => names.includes(o.name))
    if (!chosen) {
      const lc = b.options.find((o) => names.some((n) => n.toLowerCase() === o.name.toLowerCase()))
      if (lc) chosen = { ...lc, name: names.find((n) => n.toLowerCase() === lc.name.toLowerCase())! }
    }
    if (!chosen && names.length === 0) chosen = b.options[0]
    if (chosen) {
      const { options: _o, ...rest } = b
      out.push({ ...rest, name: chosen.name, input: chosen.input ?? chosen.arguments ?? {} })
    }
  }
  if (!out.length) out.push({ type: 'text', text: '' })
  return out.map((b) => (b.type === 'tool_use' ? { ...b, id: b.id || rid('call_mock_') } : b))
}

/** What was sent, e.g. `thinking+text+tool_use:Bash`. */
export const replyKind = (blocks: Block[]): string => blocks.map((b) => (b.type === 'tool_use' ? `tool_use:${b.name}` : b.type)).join('+')
