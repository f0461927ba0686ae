/**
 * Replay of a Gemini CLI chats file: the file is a log, not a list (fixtures/real/gemini/README.md
 * "Worth knowing"; google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts
 * `loadConversationRecord`). Record kinds, tested in the CLI's order:
 *
 * - `{"$rewindTo": id}` — the user rewound: that message and every later one leave the history.
 * - `{id, type, timestamp, content, ...}` — a message; a message is written again with the same
 *   `id` when it changes (its `toolCalls` get results, its tokens arrive): the last version wins.
 * - `{"$set": {...}}` — a metadata patch (`lastUpdated`, `summary`, `sessionId`, `directories`,
 *   `memoryScratchpad`, and `messages`: a snapshot of the whole history).
 * - `{sessionId, projectHash, startTime, lastUpdated, kind, directories?}` — the header; a resume
 *   appends another one.
 *
 * Where Sepia departs from the CLI, on purpose, so nothing recorded is lost:
 * - A rewind does not delete: the removed messages stay as an abandoned branch (`rewound` group).
 * - A `$set.messages` snapshot adds the messages the log does not have yet (at their place in
 *   the snapshot) but never replaces one it has: after a resume the snapshot holds the history in
 *   the form sent to the model, without `toolCalls`, `thoughts`, `tokens` or `model`, and the
 *   CLI's `<session_context>` message again under its first id with a new time (README "Worth
 *   knowing"). Messages missing from a snapshot are kept.
 */
import type { Json } from './values'
import { obj, str } from './values'

/** One message as the log left it. */
export interface LoggedMessage {
  /** Key in the log: the message `id` (suffixed `#<n>` when a rewound id was written again). */
  key: string
  /** The message record (chatRecordingTypes.ts `MessageRecord`). */
  record: Json
  /** `line`: its own line; `snapshot`: from a `$set.messages` list; `legacy`: a single-object `.json`. */
  source: 'line' | 'snapshot' | 'legacy'
  /** File and 1-based line of the last version. */
  path: string
  line?: number
  /** Rewind group that removed this message from the history, if any. */
  rewound?: number
}

/** A header record with where it was found. */
export interface LoggedHeader {
  record: Json
  path: string
  line?: number
}

/** The replayed log of one session (possibly several files, in order). */
export class ConversationLog {
  /** Message keys in history order (first sighting; snapshot messages at their snapshot place). */
  readonly order: string[] = []
  readonly messages = new Map<string, LoggedMessage>()
  readonly headers: LoggedHeader[] = []
  /** Every `$set` key except `messages`, last value wins (the CLI's metadata merge). */
  readonly patched: Json = {}
  /** Rewind group → key of the last message before the rewound one (undefined: from the start). */
  readonly rewindAnchors = new Map<number, string | undefined>()
  /** `$rewindTo` targets that named no message (the CLI then drops the whole history). */
  readonly unmatchedRewinds: { id: string; path: string; line?: number }[] = []
  /** Header lines taken although a field has the wrong type (e.g. `projectHash` not a string). */
  readonly badHeaders: { path: string; line: number; field: string }[] = []
  /** Counts of record kinds read. */
  readonly counts = { messageLines: 0, setLines: 0, snapshotMessages: 0, rewinds: 0, headers: 0 }
  private rewindGroups = 0

  /** A header line (`sessionId` + `projectHash`). */
  header(record: Json, path: string, line?: number): void {
    this.counts.headers++
    this.headers.push({ record, path, line })
  }

  /** A message line (or a legacy file's message): upsert by id, last version wins. */
  message(record: Json, path: string, line: number | undefined, source: 'line' | 'legacy' = 'line'): void {
    if (source === 'line') this.counts.messageLines++
    const id = str(record.id)!
    const known = this.messages.get(id)
    if (known && known.rewound !== undefined) {
      // The CLI deleted it at the rewind; a new message with the same id starts afresh.
      this.messages.delete(id)
      const oldKey = `${id}#${known.rewound}`
      known.key = oldKey
      this.messages.set(oldKey, known)
      this.order[this.order.indexOf(id)] = oldKey
    } else if (known) {
      known.record = record
      known.source = source
      known.path = path
      known.line = line
      return
    }
    this.messages.set(id, { key: id, record, source, path, line })
    this.order.push(id)
  }

  /** A `$set` patch: metadata merged; a `messages` list handled as a snapshot. */
  set(patch: Json, path: string, line?: number): void {
    this.counts.setLines++
    for (const [k, v] of Object.entries(patch)) {
      if (k === 'messages' && Array.isArray(v)) this.snapshot(v, path, line)
      else this.patched[k] = v
    }
  }

  /** `$rewindTo`: the target and every later active message become rewound group n. */
  rewind(id: string, path: string, line?: number): void {
    this.counts.rewinds++
    const active = this.order.filter((k) => this.messages.get(k)!.rewound === undefined)
    const at = active.indexOf(id)
    if (at === -1) this.unmatchedRewinds.push({ id, path, line })
    const from = at === -1 ? 0 : at
    if (from >= active.length) return
    const group = ++this.rewindGroups
    this.rewindAnchors.set(group, from === 0 ? undefined : active[from - 1])
    for (const k of active.slice(from)) this.messages.get(k)!.rewound = group
  }

  /** Messages in history order. */
  list(): LoggedMessage[] {
    return this.order.map((k) => this.messages.get(k)!)
  }

  /**
   * Snapshot entries the log lacks go right after the snapshot entry before them; leading ones go
   * before the first entry the log has (or at the end when it has none).
   */
  private snapshot(entries: unknown[], path: string, line?: number): void {
    const records = entries.map(obj).filter((r): r is Json => r !== undefined && typeof r.id === 'string')
    const firstKnown = records.find((r) => this.messages.has(r.id as string))?.id as string | undefined
    let prev: string | undefined
    for (const record of records) {
      const id = record.id as string
      this.counts.snapshotMessages++
      if (this.messages.has(id)) {
        prev = id
        continue
      }
      this.messages.set(id, { key: id, record, source: 'snapshot', path, line })
      const at = prev !== undefined ? this.order.indexOf(prev) + 1 : firstKnown !== undefined ? this.order.indexOf(firstKnown) : this.order.length
      this.order.splice(at, 0, id)
      prev = id
    }
  }
}
