/**
 * The duplicate rule between primary rows (transcripts) and secondary rows (hook audit log,
 * CLI prompt history, search index): a secondary row that a primary store records too is
 * dropped; the rest is kept and shown as recovered (seed 000 "Past-use rows and secondary
 * sources", issue 122 of the analyzer).
 *
 * Pairing, secondary rows in the order given (callers pass hook rows, then prompt-history rows,
 * then index rows). A primary row pairs with at most one row of the hook log, and with at most one
 * row of the prompt history and the index together (seed 000: "When a prompt is in this file and
 * in session-search.db too, whichever secondary row the duplicate rule reaches first takes the
 * transcript row"):
 * - hooks.jsonl: a tool_use / tool_result row pairs with the transcript's row of the same kind,
 *   session and call id; a user (prompt) or assistant (reply) row on text and session; both within
 *   one hour (a call line is stamped when the call starts or ends, the message when the turn is
 *   written). Audit (system) rows never pair.
 * - user_input_history.jsonl: a user row pairs with a transcript user row of any session on text;
 *   the dated (last) line only within 2 seconds.
 * - session-search.db: a message document pairs with the transcript row of its session on text.
 *   Sepia adds one check the seed does not make: a document whose text is exactly what the SDK
 *   indexes for the transcript message at its ordinal ({@link indexText}) is that message. The
 *   seed notes that a block-array message's document "never equals a transcript row, so it is kept
 *   whether or not the transcript survives"; with the check, a surviving transcript's documents
 *   are dropped and only what the transcript lost is shown.
 * Text is compared trimmed, and for user rows without the CLI's `<user_input mode="…">` wrapper.
 */
import type { TimelineRow } from '../../../../shared/timeline'
import { unwrapUserInput } from '../sdk-nodes'
import { HOOKS_SOURCE } from './hooks-log'
import { INPUT_HISTORY_SOURCE } from './input-history'
import { indexText } from './search-index'
import { SEARCH_SOURCE } from './search-rows'
import type { SecondaryRow } from '../timeline/rows'

const HOUR_MS = 60 * 60 * 1000
const PROMPT_WINDOW_MS = 2_000

/** What {@link dropDuplicates} compares. */
export interface DedupInput {
  /** Transcript rows of every session that may hold the secondary rows' turns. */
  primary: readonly TimelineRow[]
  /** Secondary rows, in the order the rule takes them (hooks, prompt history, index). */
  secondary: readonly SecondaryRow[]
  /** Session id → the raw `messages` of its transcript, for the index ordinal check. */
  transcripts?: ReadonlyMap<string, readonly unknown[]>
}

/** The secondary rows no primary row records, in their original order. */
export function dropDuplicates(input: DedupInput): SecondaryRow[] {
  const byCall = new Map<string, TimelineRow[]>()
  const byText = new Map<string, TimelineRow[]>()
  for (const r of input.primary) {
    if (r.recovered) continue
    if ((r.turnType === 'tool_use' || r.turnType === 'tool_result') && r.toolUseId) push(byCall, callKey(r.sessionId, r.turnType, r.toolUseId), r)
    if (r.turnType === 'user' || r.turnType === 'assistant') push(byText, textKey(r.turnType, r.text), r)
  }
  const pools = new Map<string, Set<TimelineRow>>()
  let taken = new Set<TimelineRow>()
  const take = (list: TimelineRow[] | undefined, ok: (p: TimelineRow) => boolean): boolean => {
    const hit = list?.find((p) => !taken.has(p) && ok(p))
    if (!hit) return false
    taken.add(hit)
    return true
  }
  const near = (a: TimelineRow, b: TimelineRow, window: number) =>
    a.timestampUtc === undefined || b.timestampUtc === undefined || Math.abs(a.timestampUtc - b.timestampUtc) <= window

  const kept: SecondaryRow[] = []
  for (const s of input.secondary) {
    const source = s.recovered.source
    const pool = source === HOOKS_SOURCE ? 'hooks' : 'prompts'
    taken = pools.get(pool) ?? (pools.set(pool, new Set()), pools.get(pool)!)
    let duplicate = false
    if (source === HOOKS_SOURCE) {
      if ((s.turnType === 'tool_use' || s.turnType === 'tool_result') && s.toolUseId) {
        duplicate = take(byCall.get(callKey(s.sessionId, s.turnType, s.toolUseId)), (p) => near(p, s, HOUR_MS))
      } else if (s.turnType === 'user' || s.turnType === 'assistant') {
        duplicate = take(byText.get(textKey(s.turnType, s.text)), (p) => p.sessionId === s.sessionId && near(p, s, HOUR_MS))
      }
    } else if (source === INPUT_HISTORY_SOURCE) {
      if (s.turnType === 'user') {
        duplicate = take(byText.get(textKey('user', s.text)), (p) => s.timestampUtc === undefined || near(p, s, PROMPT_WINDOW_MS))
      }
    } else if (source === SEARCH_SOURCE && s.ordinal !== undefined) {
      const message = input.transcripts?.get(s.sessionId)?.[s.ordinal]
      duplicate = message !== undefined && indexText(message) === s.text
      if (!duplicate && (s.turnType === 'user' || s.turnType === 'assistant')) {
        duplicate = take(byText.get(textKey(s.turnType, s.text)), (p) => p.sessionId === s.sessionId)
      }
    }
    if (!duplicate) kept.push(s)
  }
  return kept
}

function callKey(sessionId: string, type: string, id: string): string {
  return `${sessionId}\u0000${type}\u0000${id}`
}

function textKey(type: string, text: string): string {
  return `${type}\u0000${normalText(type, text)}`
}

/** Text as the rule compares it: trimmed, a user row without the `<user_input>` wrapper. */
export function normalText(type: string, text: string): string {
  const t = type === 'user' ? unwrapUserInput(text).text : text
  return t.trim()
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
