/**
 * The two files Aider writes in a project folder, split into what discovery and reading need.
 * Format facts from Aider's own source (github:Aider-AI/aider `aider/io.py`, InputOutput):
 * - `.aider.chat.history.md` is appended to by `append_chat_history`. Every start of the CLI
 *   writes `\n# aider chat started at YYYY-MM-DD HH:MM:SS\n\n` (`datetime.now()`: the local wall
 *   clock, no zone; read as the reading machine's local time, {@link wallClockMs}), so one file
 *   holds many sessions.
 * - `.aider.input.history` is prompt_toolkit's `FileHistory`: per entry a blank line,
 *   `# YYYY-MM-DD HH:MM:SS.ffffff` (local wall clock) and the entry's lines each prefixed `+`.
 * Both are read whole (they are text logs of one project, typically well under a few MB); the
 * last split is kept per path, keyed by size and mtime, so the sessions of one file are not
 * re-split once per session.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'

/** `# aider chat started at 2025-07-15 11:38:37` (io.py `InputOutput.__init__`). */
export const HEADER_RE = /^# aider chat started at (.*?)\s*$/
const STAMP_RE = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?$/

/** One "chat started" block of the chat history. Lines are 1-based, `endLine` exclusive. */
export interface ChatBlock {
  /** The session id (see {@link blockIds}). */
  id: string
  /** Line of the `# aider chat started at` header; for text before the first header, 1. */
  startLine: number
  endLine: number
  /** The header's stamp as written (`YYYY-MM-DD HH:MM:SS`), absent for text before the first header. */
  stamp?: string
}

/** A split chat history. `lines[i]` is line `i + 1`, without its `\n` (a trailing `\r` is removed). */
export interface ChatHistory {
  lines: string[]
  blocks: ChatBlock[]
  /** The file does not end with a newline (Aider always ends what it appends with one). */
  endsMidLine: boolean
  /**
   * 1-based lines that look like a damaged `# aider chat started at` header (one or two
   * characters off, or the header run into the line before it): not a session start, so the
   * session they began is read as part of the one before; discovery names each one.
   */
  damagedHeaders: number[]
}

const HEADER_PREFIX = '# aider chat started at '

/** True when `line` is not a header but looks like one a changed byte or lost newline broke. */
function looksLikeDamagedHeader(line: string): boolean {
  if (line.includes('aider chat started at')) return true
  if (line.length < HEADER_PREFIX.length) return false
  let off = 0
  for (let i = 0; i < HEADER_PREFIX.length && off <= 2; i++) if (line[i] !== HEADER_PREFIX[i]) off++
  return off <= 2
}

/** One `.aider.input.history` entry. */
export interface InputEntry {
  /** The stamp as written, e.g. `2025-10-20 21:49:24.340490`. */
  stamp: string
  /** ms since epoch, reading the wall clock as this machine's local time (see {@link wallClockMs}). */
  at?: number
  /** The entry's text (its `+` lines joined by `\n`). */
  text: string
  /** Line of the `# stamp` line. */
  line: number
}

/**
 * A wall-clock stamp Aider wrote (`YYYY-MM-DD HH:MM:SS[.ffffff]`) as ms since epoch. Aider writes
 * `datetime.now()` with no zone (github:Aider-AI/aider `aider/io.py` at 5dc9490b:
 * `datetime.now().strftime("%Y-%m-%d %H:%M:%S")` for `# aider chat started at`; prompt_toolkit
 * `history.py` `FileHistory.store_string` writes `"\n# %s\n" % datetime.datetime.now()` for
 * `.aider.input.history`), i.e. the local time of the machine that ran
 * Aider. The stamp is read as the local time of the machine reading it (the process's time zone,
 * `TZ`): right when both are the same machine or zone, off by the difference of their offsets for a
 * history copied from another zone; order and spacing are right either way. A time that falls in a
 * daylight-saving gap moves forward an hour, one that occurs twice reads as the first (JavaScript
 * `Date`). Undefined for anything else.
 */
export function wallClockMs(stamp: string): number | undefined {
  const m = STAMP_RE.exec(stamp.trim())
  if (!m) return undefined
  const [, y, mo, d, h, mi, s, frac] = m
  const ms = frac ? Math.floor(Number(frac.padEnd(6, '0')) / 1000) : 0
  const t = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms).getTime()
  return Number.isNaN(t) ? undefined : t
}

/** Short stable key of a project folder (its path relative to the home, `/`-separated). */
export function projectKey(relativeDir: string): string {
  return createHash('sha1').update(relativeDir.replace(/\\/g, '/')).digest('hex').slice(0, 8)
}

/**
 * Session ids of a history's blocks: `YYYYMMDD-HHMMSS-<projectKey>` from the header stamp
 * (`-2`, `-3`... when two sessions start in the same second), `line<N>-<projectKey>` for a header
 * whose stamp does not parse, `preamble-<projectKey>` for text before the first header.
 */
export function blockIds(stamps: (string | undefined | null)[], key: string): string[] {
  const seen = new Map<string, number>()
  return stamps.map((stamp, i) => {
    let base: string
    if (stamp === null) base = `preamble-${key}`
    else {
      const m = stamp === undefined ? null : STAMP_RE.exec(stamp)
      base = m ? `${m[1]}${m[2]}${m[3]}-${m[4]}${m[5]}${m[6]}-${key}` : `block${i + 1}-${key}`
    }
    const n = (seen.get(base) ?? 0) + 1
    seen.set(base, n)
    return n === 1 ? base : `${base}-${n}`
  })
}

/** Split chat-history text into lines and blocks (ids from `key`, see {@link blockIds}). */
export function splitChatHistory(text: string, key: string): ChatHistory {
  const endsMidLine = text.length > 0 && !text.endsWith('\n')
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
  if (!endsMidLine && lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  const starts: { line: number; stamp: string | undefined | null }[] = []
  const damagedHeaders: number[] = []
  lines.forEach((l, i) => {
    const m = HEADER_RE.exec(l)
    if (m) starts.push({ line: i + 1, stamp: STAMP_RE.test(m[1]!) ? m[1]! : undefined })
    else if (looksLikeDamagedHeader(l)) damagedHeaders.push(i + 1)
  })
  const firstHeader = starts[0]?.line ?? lines.length + 1
  if (lines.slice(0, firstHeader - 1).some((l) => l.trim() !== '')) starts.unshift({ line: 1, stamp: null })
  const ids = blockIds(starts.map((s) => s.stamp), key)
  const blocks: ChatBlock[] = starts.map((s, i) => ({
    id: ids[i]!,
    startLine: s.line,
    endLine: starts[i + 1]?.line ?? lines.length + 1,
    ...(typeof s.stamp === 'string' ? { stamp: s.stamp } : {}),
  }))
  return { lines, blocks, endsMidLine, damagedHeaders }
}

/** Parse `.aider.input.history` text (prompt_toolkit FileHistory). Lines of no entry are skipped. */
export function parseInputHistory(text: string): InputEntry[] {
  const out: InputEntry[] = []
  let cur: { stamp: string; line: number; parts: string[] } | undefined
  const flush = (): void => {
    if (!cur) return
    const at = wallClockMs(cur.stamp)
    out.push({ stamp: cur.stamp, ...(at !== undefined ? { at } : {}), text: cur.parts.join('\n'), line: cur.line })
    cur = undefined
  }
  text.split('\n').forEach((raw, i) => {
    const l = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (l.startsWith('# ')) {
      flush()
      cur = { stamp: l.slice(2).trim(), line: i + 1, parts: [] }
    } else if (l.startsWith('+') && cur) cur.parts.push(l.slice(1))
  })
  flush()
  return out
}

interface Cached {
  size: number
  mtimeMs: number
  key: string
  history: ChatHistory
}
const cache = new Map<string, Cached>()
const CACHE_MAX = 4

/**
 * Read and split the chat history at `path` (cached by `size`/`mtimeMs`). Rejects with the file
 * system error when the file cannot be read.
 */
export async function loadChatHistory(path: string, size: number, mtimeMs: number, key: string): Promise<ChatHistory> {
  const c = cache.get(path)
  if (c && c.size === size && c.mtimeMs === mtimeMs && c.key === key) return c.history
  const text = await readFile(path, 'utf8')
  const history = splitChatHistory(text, key)
  cache.delete(path)
  cache.set(path, { size, mtimeMs, key, history })
  while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!)
  return history
}
