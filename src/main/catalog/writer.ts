/**
 * Streaming writes of one session's message rows (the index path of agents with `readStream`,
 * see `stream.ts`). Rows arrive in node order and are written in batches, each its own
 * transaction, so a session of any size is neither held in memory nor written in one long
 * transaction that would keep the other indexing workers waiting past their busy timeout. The
 * session row comes last, in the final transaction, with the change counter: until then the
 * library lists the previous version (or nothing).
 *
 * A new session's rows need a sid before its row exists: a placeholder row whose home is
 * {@link PENDING_HOME} + the home holds it (never listed or searched: every query names its
 * homes) and becomes the real row in the final transaction. A placeholder left by a crash is
 * taken over by the next write of that session.
 *
 * The result equals `CatalogStore.writeSession`'s: rows whose (seq, sig) equal the previous
 * version's from the first row on are kept as they are; the rest are replaced. Previous rows are
 * only read inside the write transactions (IMMEDIATE: several workers share the catalog, and a
 * read-then-write transaction could not be retried), so a session smaller than one batch is one
 * transaction, which the caller may also run later, inside a larger one (`indexer.ts`).
 */
import type { MessageRow } from './extract'
import type { CatalogStore, FileStamp, SessionHead } from './store'

/** Home prefix of a placeholder row (homes are absolute paths: none starts with `<`). */
export const PENDING_HOME = '<indexing>'
/** When a batch of rows is written: at this many rows or characters of text. */
export interface BatchSize {
  rows: number
  chars: number
}

/** About 4 MB of text per transaction (a session smaller than that is one transaction). */
export const DEFAULT_BATCH: BatchSize = { rows: 4000, chars: 4_000_000 }
/** Previous rows read per query when comparing. */
const OLD_PAGE = 4096

interface OldRow {
  seq: number
  sig: string
}

/** Writes the rows of one session as they come, then its session row. */
export class MessageWriter {
  private sid: number | undefined
  private looked = false
  /** A crash's placeholder when the session also has a real row: removed at the end. */
  private stale: number | undefined
  private old: OldRow[] = []
  private oldAt = 0
  private oldDone = false
  private keeping = true
  /** Seq of the first row written (rows before it were kept). */
  private insertedFrom: number | undefined
  private buffer: MessageRow[] = []
  private bufferChars = 0
  private readonly fixes = new Map<number, string>()

  /** `around` runs each batch's transaction (the write turn of the rows pass, `rows.ts` `inTurn`). */
  constructor(
    private readonly store: CatalogStore,
    private readonly key: { home: string; agent: string; sessionId: string },
    private readonly batch: BatchSize = DEFAULT_BATCH,
    private readonly around: <T>(fn: () => T) => T = (fn) => fn(),
  ) {}

  /** In a transaction: find the session's row (or a crash's placeholder) the first time. */
  private lookUp(): void {
    if (this.looked) return
    this.looked = true
    const find = this.store.st('SELECT sid FROM sessions WHERE home = ? AND agent = ? AND session_id = ?')
    const k = this.key
    const real = find.get(k.home, k.agent, k.sessionId) as { sid: number } | undefined
    const pending = find.get(PENDING_HOME + k.home, k.agent, k.sessionId) as { sid: number } | undefined
    this.sid = real?.sid ?? pending?.sid
    if (real && pending) this.stale = pending.sid
    this.oldDone = this.sid === undefined
  }

  /** In a transaction: the next previous row not yet matched, if any. */
  private nextOld(): OldRow | undefined {
    if (this.oldAt >= this.old.length && !this.oldDone) {
      const after = this.old.length > 0 ? this.old[this.old.length - 1]!.seq : -1
      this.old = this.store.st('SELECT seq, sig FROM messages WHERE sid = ? AND seq > ? ORDER BY seq LIMIT ?').all(this.sid, after, OLD_PAGE) as OldRow[]
      this.oldAt = 0
      if (this.old.length < OLD_PAGE) this.oldDone = true
    }
    return this.old[this.oldAt]
  }

  /** In a transaction: delete the previous rows not matched (`seq` from the next one on). */
  private dropRest(): void {
    const o = this.nextOld()
    if (!o) return
    const mids = this.store.st('SELECT mid FROM messages WHERE sid = ? AND seq >= ?').all(this.sid, o.seq) as { mid: number }[]
    this.store.deleteMessages(mids.map((r) => r.mid))
    this.oldDone = true
    this.old = []
  }

  /** Take the next row (in seq order); a full batch is written at once, in its own transaction. */
  row(m: MessageRow): void {
    this.buffer.push(m)
    this.bufferChars += m.text.length
    if (this.buffer.length >= this.batch.rows || this.bufferChars >= this.batch.chars) {
      this.around(() =>
        this.store.db
          .transaction(() => {
            this.lookUp()
            if (this.sid === undefined) {
              const k = this.key
              const ins = this.store.st(`INSERT INTO sessions (home, agent, session_id, format, size, mtime_ms, stamp, ref, summary, gen) VALUES (?, ?, ?, '', 0, 0, '', '{}', '{}', 0)`)
              this.sid = Number(ins.run(PENDING_HOME + k.home, k.agent, k.sessionId).lastInsertRowid)
            }
            this.flush()
          })
          .immediate(),
      )
    }
  }

  /** Set the `tool_names` of row `seq` at the end (pairing learnt something after it was taken). */
  fixToolNames(seq: number, toolNames: string): void {
    this.fixes.set(seq, toolNames)
  }

  /** Forget the rows taken so far (not what was written): the rows come again from the first. */
  restart(): void {
    this.old = []
    this.oldAt = 0
    this.oldDone = this.sid === undefined
    this.keeping = true
    this.insertedFrom = undefined
    this.buffer = []
    this.bufferChars = 0
    this.fixes.clear()
  }

  /**
   * In a transaction, with `sid` set: write the buffered rows, keeping the previous rows that
   * equal them from the first row on (as `CatalogStore.writeSession` does).
   */
  private flush(): void {
    const rows = this.buffer
    let from = 0
    while (this.keeping && from < rows.length) {
      const o = this.nextOld()
      const m = rows[from]!
      if (!o || o.seq !== m.seq || o.sig !== m.sig) {
        this.keeping = false
        this.dropRest()
        break
      }
      this.oldAt++
      from++
    }
    if (from < rows.length) this.insertedFrom ??= rows[from]!.seq
    this.store.insertMessages(this.sid!, rows, from)
    this.buffer = []
    this.bufferChars = 0
  }

  /**
   * Write the session row (and its files) and the rest, in one transaction with a new change
   * counter (a savepoint when called inside a transaction). Returns the counter.
   */
  finish(head: SessionHead, files: FileStamp[]): number {
    return this.store.db
      .transaction(() => {
        const gen = this.store.nextGen()
        this.lookUp()
        this.sid = this.store.putSession(head, files, gen, this.sid)
        this.writeRest()
        return gen
      })
      .immediate()
  }

  /**
   * The second pass of a cold index (`rows.ts`): when the session's row still carries the stamp
   * `pending` (its first pass wrote it), write the rest of its rows as {@link finish} does and set
   * its stamp to `stamp`, in one transaction (a savepoint when called inside one); the session row
   * is otherwise left as it is (its links too) and no change counter is taken: what the library
   * lists does not change. Returns false, writing nothing, when the row is gone or was written again.
   */
  finishRows(pending: string, stamp: string): boolean {
    return this.store.db
      .transaction(() => {
        this.lookUp()
        if (this.sid === undefined) return false
        const now = this.store.st('SELECT stamp FROM sessions WHERE sid = ?').pluck().get(this.sid) as string | undefined
        if (now !== pending) return false
        this.writeRest()
        this.store.st('UPDATE sessions SET stamp = ? WHERE sid = ?').run(stamp, this.sid)
        return true
      })
      .immediate()
  }

  /** In a transaction, with `sid` set: the buffered rows, the dropped tail, the fixes, a crash's placeholder. */
  private writeRest(): void {
    this.flush()
    if (this.keeping) this.dropRest()
    const fix = this.store.st('UPDATE messages SET tool_names = ? WHERE sid = ? AND seq = ?')
    for (const [seq, names] of this.fixes) if (this.insertedFrom !== undefined && seq >= this.insertedFrom) fix.run(names, this.sid, seq)
    if (this.stale !== undefined) {
      const mids = this.store.st('SELECT mid FROM messages WHERE sid = ?').all(this.stale) as { mid: number }[]
      this.store.deleteMessages(mids.map((r) => r.mid))
      this.store.st('DELETE FROM skeletons WHERE sid = ?').run(this.stale)
      this.store.st('DELETE FROM sessions WHERE sid = ?').run(this.stale)
    }
  }
}
