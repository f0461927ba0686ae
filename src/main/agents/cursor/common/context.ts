/**
 * Injected context and prompt wrappers in Cursor agent messages (agent CLI `store.db` leaves and
 * `agent-transcripts/*.jsonl`).
 *
 * Facts (shared/formats/cursor-devin-atif-acp.md §B4 "Wrappers to strip", §F25; seed 002 "Cursor"
 * A): the typed prompt arrives as `<user_query>\n…\n</user_query>` (the tag can nest), optionally
 * preceded by `<timestamp>Monday, Mar 2, 2026, 4:10 PM (UTC+1)</timestamp>`; system-context texts
 * start with `<user_info>`, `<system_reminder>`, `<rules>`, `<git_status>` or
 * `<agent_transcripts>` and are not the user's typing. Cursor writes a literal `[REDACTED]` into
 * assistant text, which is kept verbatim.
 */

/** Tags whose text is context Cursor injected (documented ones, plus the hyphenated spelling). */
export const CONTEXT_TAGS: readonly string[] = ['user_info', 'system_reminder', 'system-reminder', 'rules', 'git_status', 'agent_transcripts']

/** True when `text` (after leading whitespace) opens with one of {@link CONTEXT_TAGS}. */
export function isInjectedContext(text: string): boolean {
  const s = text.trimStart()
  return CONTEXT_TAGS.some((t) => s.startsWith(`<${t}>`) || s.startsWith(`<${t} `))
}

/** The typed prompt inside a wrapped user text. */
export interface UserQuery {
  /** The prompt text, wrappers removed and trimmed. */
  text: string
  /** The leading `<timestamp>` content, as written (not parsed: its format is a display string). */
  timestamp?: string
  /** Text outside the `<user_query>` wrapper, when any (kept in node metadata). */
  outside?: string
  /** True when a `<user_query>` wrapper was found. */
  wrapped: boolean
}

const OPEN = '<user_query>'
const CLOSE = '</user_query>'
const TIMESTAMP = /^\s*<timestamp>([\s\S]*?)<\/timestamp>\s*/

/**
 * Strip a leading `<timestamp>…</timestamp>` and the `<user_query>` wrapper: the prompt is the
 * text between the first `<user_query>` and the last `</user_query>` (to the end when unclosed),
 * with any nested wrapper tags removed. Text without a wrapper is returned as is (trimmed of the
 * timestamp only).
 */
export function unwrapUserQuery(raw: string): UserQuery {
  let s = raw
  let timestamp: string | undefined
  const ts = TIMESTAMP.exec(s)
  if (ts) {
    timestamp = ts[1]!.trim()
    s = s.slice(ts[0].length)
  }
  const open = s.indexOf(OPEN)
  if (open === -1) return withOptional({ text: ts ? s.trim() : s, wrapped: false }, timestamp, undefined)
  const close = s.lastIndexOf(CLOSE)
  const end = close > open ? close : s.length
  const inner = s.slice(open + OPEN.length, end).split(OPEN).join('').split(CLOSE).join('')
  const outside = (s.slice(0, open) + (close > open ? s.slice(close + CLOSE.length) : '')).trim()
  return withOptional({ text: inner.trim(), wrapped: true }, timestamp, outside === '' ? undefined : outside)
}

function withOptional(q: UserQuery, timestamp: string | undefined, outside: string | undefined): UserQuery {
  if (timestamp !== undefined) q.timestamp = timestamp
  if (outside !== undefined) q.outside = outside
  return q
}
