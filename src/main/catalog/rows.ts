/**
 * The lighter first pass of a large (cold) index, issue 15: the workers read every session and
 * write only its session row (summary, usage totals, skeleton, files), so the library can be
 * listed as soon as every session was read; each session's message rows, unmasked, go to a spill
 * file of the worker. The second pass reads the spill files back, masks the texts, and writes the
 * message rows, usage rows and full-text queue, as a one-pass index would have (`stream.test.ts`,
 * `catalog.test.ts` compare both). Reading the store once and its rows twice costs less than
 * reading the store twice: the readers' parsing and IR building are the larger part.
 *
 * Until its rows are written a session's row carries the refresh stamp {@link ROWS_PENDING} +
 * its real stamp, which no discovered ref has: a process that stops between the passes leaves
 * sessions that the next refresh reads again. The spill file format (one JSON value per line):
 *
 *   {"s":[home, agent, sessionId, stamp]}               a session's rows begin (stamp: `stampOf` its ref)
 *   [seq, nodeId, role, createdAt, model, toolNames, contentLength, bytes, usage]   a raw row (null for absent),
 *                                                         its text on the next `bytes` bytes (UTF-8), then `\n`
 *   [seq, nodeId, role, createdAt, model, toolNames, contentLength, text, usage]   a raw row whose text is not
 *                                                         well-formed UTF-16 (a lone surrogate), in the JSON line
 *   {"r":1}                                               the reader started again: forget this session's rows
 *   {"e":1, "f":[[seq, toolNames], ...]}                 the session was read whole: its rows' tool-name fixes
 *
 * A session without its `e` line (a worker that died) is skipped, and so is one whose row no
 * longer carries the pending stamp it names (written again since, or never written). A row's text
 * goes out as raw bytes rather than a JSON string: `JSON.stringify` of transcript text (quotes,
 * newlines, backslashes of code) ran at ~165 MB/s and was ~10% of a worker's first pass (issue 15).
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Usage } from '../../shared/ir'
import { finishRow, type RawMessageRow } from './extract'
import { ROWS_PENDING, stampOf, type CatalogStore, type FileStamp, type SessionHead } from './store'
import { MessageWriter } from './writer'

type SpillRow = [number, string, RawMessageRow['role'], number | null, string | null, string, number, string, Usage | null]
/** A control entry of the spill (see the format above). */
type SpillControl = { s?: [string, string, string, string]; r?: 1; e?: 1; f?: [number, string][] }
export type SpillEntry = SpillRow | SpillControl

/** Bytes of the spill's write buffer. */
const SPILL_BUFFER_BYTES = 1 << 20

/**
 * Characters of row text a worker keeps in memory between the passes (about 6-12 MB of
 * strings); past that its rows go to the spill file. A small history then never touches the
 * disk; a 1 GB session stays within the worker's memory bound (`pool.ts` `WORKER_HEAP_MB`).
 */
export const SPILL_MEMORY_CHARS = 6_000_000

/**
 * The raw rows of the sessions one worker reads (first pass), in order: kept in memory up to
 * `memoryChars` of text, then appended to its spill file (the entries stay in order: the memory
 * ones first). The file is created when the first entry goes there.
 */
export class RowSpill {
  private fd: number | undefined
  private buffer: Buffer | undefined
  private used = 0
  /** Entries kept in memory, in order, before any in the file. */
  readonly memory: SpillEntry[] = []
  private memoryLeft: number

  /** `path`: the spill file (created on first use; a stale one is emptied). */
  constructor(
    readonly path: string,
    memoryChars = SPILL_MEMORY_CHARS,
  ) {
    this.memoryLeft = memoryChars
  }

  /** True when some entries went to the file. */
  get spilled(): boolean {
    return this.fd !== undefined
  }

  private add(entry: SpillEntry, chars: number): void {
    if (this.fd === undefined && chars <= this.memoryLeft) {
      this.memoryLeft -= chars
      // A text cut from a longer one (`slice`) keeps the whole of it alive: a copy keeps only itself.
      if (Array.isArray(entry) && entry[7].length > 12) entry[7] = (entry[7] + ' ').slice(0, -1)
      this.memory.push(entry)
      return
    }
    this.memoryLeft = 0
    if (Array.isArray(entry) && wellFormed(entry[7])) {
      // The text follows its row as raw bytes (see the format above).
      const text = entry[7]
      const bytes = Buffer.byteLength(text, 'utf8')
      ;(entry as unknown as (number | string | Usage | null)[])[7] = bytes
      this.push(JSON.stringify(entry))
      this.pushText(text, bytes)
      return
    }
    this.push(JSON.stringify(entry))
  }

  /** A row's text (`bytes` of UTF-8) and its `\n`, after its row line. */
  private pushText(text: string, bytes: number): void {
    const buffer = this.buffer!
    if (bytes + 1 > buffer.length - this.used) this.flush()
    if (bytes + 1 > buffer.length) {
      writeSync(this.fd!, text + '\n')
      return
    }
    this.used += buffer.write(text, this.used)
    buffer[this.used++] = 0x0a
  }

  /** One line, encoded straight into the buffer (a UTF-16 unit is at most 3 bytes of UTF-8). */
  private push(line: string): void {
    if (this.fd === undefined) {
      // Unmasked transcript text: readable by the user only, as the catalog is (issue 16).
      this.fd = openSync(this.path, 'w', 0o600)
      this.buffer = Buffer.allocUnsafe(SPILL_BUFFER_BYTES)
    }
    const buffer = this.buffer!
    const most = line.length * 3 + 1
    if (most > buffer.length - this.used) this.flush()
    if (most > buffer.length) {
      writeSync(this.fd, line + '\n')
      return
    }
    this.used += buffer.write(line, this.used)
    buffer[this.used++] = 0x0a
  }

  private flush(): void {
    let at = 0
    while (at < this.used) at += writeSync(this.fd!, this.buffer!, at, this.used - at)
    this.used = 0
  }

  /** The rows of session `key`, whose refresh stamp is `stamp` (`stampOf` its ref), follow. */
  begin(key: { home: string; agent: string; sessionId: string }, stamp: string): void {
    this.add({ s: [key.home, key.agent, key.sessionId, stamp] }, 0)
  }

  /** One raw row of the current session (seq order). */
  row(r: RawMessageRow): void {
    this.add([r.seq, r.nodeId, r.role, r.createdAt ?? null, r.model ?? null, r.toolNames, r.contentLength, r.text, r.usage ?? null], r.text.length)
  }

  /** The current session's rows come again from the first. */
  restart(): void {
    this.add({ r: 1 }, 0)
  }

  /** The current session was read whole; the `tool_names` fixes of its rows (seq, names). */
  end(fixes: Iterable<[number, string]> = []): void {
    this.add({ e: 1, f: [...fixes] }, 0)
  }

  /** Write what is buffered and close the file (if one was started). */
  close(): void {
    if (this.fd === undefined) return
    try {
      this.flush()
    } finally {
      closeSync(this.fd)
    }
  }
}

/**
 * Inside a write transaction or not: write the session row of `head` with the pending stamp and a
 * new change counter, leaving its message rows as they are (the second pass replaces them).
 */
export function writeHead(store: CatalogStore, head: SessionHead, files: FileStamp[]): number {
  return store.db.transaction(() => {
    const gen = store.nextGen()
    store.putSession(head, files, gen, undefined, ROWS_PENDING + stampOf(head.ref))
    return gen
  })()
}

/**
 * The write turn shared by the workers of one rows pass: an Int32 in a SharedArrayBuffer, 0 free,
 * 1 taken. Both workers mostly write in that pass, and SQLite's busy handler waits for the lock by
 * sleeping (1, 2, 5 ... 100 ms), so contending workers lost much of their time asleep while the
 * lock was free; a turn is handed over at once (`Atomics.notify`). Masking stays outside the turn.
 */
let turn: Int32Array | undefined

/** Share `buffer` (from {@link newWriteTurn}) as this thread's write turn; undefined: none. */
export function useWriteTurn(buffer: SharedArrayBuffer | undefined): void {
  turn = buffer ? new Int32Array(buffer) : undefined
}

/** A write turn for the workers of one refresh. */
export function newWriteTurn(): SharedArrayBuffer {
  return new SharedArrayBuffer(4)
}

/** Run `fn` (a write transaction) in this thread's write turn, if it has one. */
export function inTurn<T>(fn: () => T): T {
  return takeTurn(turn, fn)
}

/** Run `fn` in the write turn `buffer` (from {@link newWriteTurn}) when given, else at once. */
export function withTurn<T>(buffer: SharedArrayBuffer | undefined, fn: () => T): T {
  return takeTurn(buffer ? new Int32Array(buffer) : undefined, fn)
}

function takeTurn<T>(t: Int32Array | undefined, fn: () => T): T {
  if (!t) return fn()
  while (Atomics.compareExchange(t, 0, 0, 1) !== 0) Atomics.wait(t, 0, 1, 100)
  try {
    return fn()
  } finally {
    Atomics.store(t, 0, 0)
    Atomics.notify(t, 0, 1)
  }
}

/** Sessions under this many characters of rows are finished together with their neighbours... */
const GROUP_SESSION_CHARS = 1e6
/** ...up to this many characters per transaction. */
const GROUP_CHARS = 8e6

/**
 * The second pass over one worker's spill (its entries in memory, then its file; or a file alone,
 * on another thread): mask each row's text, write the rows of each session read whole whose
 * catalog row still carries the pending stamp, and set its real stamp. Small sessions are
 * finished together in one IMMEDIATE transaction (each a savepoint), as `indexRefs` writes them;
 * a large one writes its own batches (`writer.ts`). Returns the sessions written. Rejects with
 * the file system or SQLite error (what was committed stays; the rest stays pending).
 */
export async function writeSpilledRows(store: CatalogStore, spill: RowSpill | string): Promise<number> {
  const isPending = store.st('SELECT 1 FROM sessions WHERE home = ? AND agent = ? AND session_id = ? AND stamp = ?').pluck()
  let writer: MessageWriter | undefined
  let stamp = ''
  let chars = 0
  let group: { writer: MessageWriter; stamp: string }[] = []
  let groupChars = 0
  let written = 0
  const commit = (): void => {
    const g = group
    group = []
    groupChars = 0
    if (g.length === 0) return
    inTurn(() =>
      store.db
        .transaction(() => {
          for (const p of g) if (p.writer.finishRows(ROWS_PENDING + p.stamp, p.stamp)) written++
        })
        .immediate(),
    )
  }
  const take = (entry: SpillEntry): void => {
    if (Array.isArray(entry)) {
      if (!writer) return
      const [seq, nodeId, role, createdAt, model, toolNames, contentLength, text, usage] = entry
      const raw: RawMessageRow = { seq, nodeId, role, toolNames, contentLength, text }
      if (createdAt !== null) raw.createdAt = createdAt
      if (model !== null) raw.model = model
      if (usage !== null) raw.usage = usage
      const row = finishRow(raw)
      chars += row.text.length
      writer.row(row)
      return
    }
    if (entry.s) {
      const [home, agent, sessionId, st] = entry.s
      stamp = st
      chars = 0
      // Only the sessions the first pass wrote (and nothing wrote since) get rows.
      writer = isPending.get(home, agent, sessionId, ROWS_PENDING + st) !== undefined ? new MessageWriter(store, { home, agent, sessionId }, undefined, inTurn) : undefined
      return
    }
    if (entry.r) {
      writer?.restart()
      chars = 0
      return
    }
    if (entry.e !== undefined && writer) {
      for (const [seq, names] of entry.f ?? []) writer.fixToolNames(seq, names)
      group.push({ writer, stamp })
      groupChars += chars
      if (chars >= GROUP_SESSION_CHARS || groupChars >= GROUP_CHARS) commit()
    }
    writer = undefined
  }
  try {
    const path = typeof spill === 'string' ? spill : spill.path
    if (typeof spill !== 'string') {
      // Entries are dropped as they are taken: their memory goes while the rest is written.
      const memory = spill.memory
      for (let i = 0; i < memory.length; i++) {
        take(memory[i]!)
        memory[i] = { r: 1 }
      }
      memory.length = 0
    }
    if (typeof spill === 'string' ? existsSync(path) : spill.spilled) await readSpillFile(path, take)
  } finally {
    commit()
  }
  return written
}

/** True when `text` has no lone UTF-16 surrogate (its UTF-8 bytes decode back to it exactly). */
function wellFormed(text: string): boolean {
  const t = text as string & { isWellFormed?: () => boolean }
  return t.isWellFormed ? t.isWellFormed() : !/[\uD800-\uDFFF]/.test(text)
}

/** Bytes read from a spill file per call. */
const SPILL_READ_BYTES = 4 << 20

/**
 * Give `take` every entry of the spill file at `path`, in order (a row with its text). A file cut
 * short (a worker that died while writing) ends at its last whole entry: the session it was
 * writing has no `e` line and is skipped.
 */
export async function readSpillFile(path: string, take: (entry: SpillEntry) => void): Promise<void> {
  const fd = openSync(path, 'r')
  try {
    let filePos = 0 // offset of the next byte to read
    let buf = Buffer.alloc(0)
    let at = 0 // next unread byte of buf
    let sinceYield = 0
    /** Make `n` bytes from `at` available (reading on); false when the file ends first. */
    const have = (n: number): boolean => {
      if (buf.length - at >= n) return true
      const next = Buffer.allocUnsafe(Math.max(n, SPILL_READ_BYTES))
      let got = buf.copy(next, 0, at)
      while (got < n) {
        const r = readSync(fd, next, got, next.length - got, filePos)
        if (r === 0) break
        got += r
        filePos += r
      }
      buf = next.subarray(0, got)
      at = 0
      return got >= n
    }
    for (;;) {
      let nl = buf.indexOf(0x0a, at)
      while (nl === -1) {
        const before = buf.length - at
        if (!have(before + 1)) return
        nl = buf.indexOf(0x0a, at + before)
      }
      let taken = nl + 1 - at
      const line = buf.toString('utf8', at, nl)
      at = nl + 1
      if (line === '') continue
      const entry = JSON.parse(line) as SpillEntry
      if (Array.isArray(entry) && typeof entry[7] === 'number') {
        const bytes = entry[7]
        if (!have(bytes + 1)) return
        ;(entry as unknown as (number | string | Usage | null)[])[7] = buf.toString('utf8', at, at + bytes)
        at += bytes + 1
        taken += bytes + 1
      }
      take(entry)
      // Give the event loop a turn now and then (this also runs on the main thread).
      sinceYield += taken
      if (sinceYield >= 1 << 20) {
        sinceYield = 0
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
  } finally {
    closeSync(fd)
  }
}

/** The spill file of first-pass job `k` of this process, beside the catalog at `dbPath`. */
export function spillPath(dbPath: string, k: number): string {
  return `${dbPath}.rows-${process.pid}-${Date.now()}-${k}.jsonl`
}

/** Remove the spill files beside `dbPath` left by processes that are gone (a crash between the passes). */
export function removeStaleSpills(dbPath: string): void {
  const dir = dirname(dbPath)
  const prefix = `${basename(dbPath)}.rows-`
  if (!existsSync(dir)) return
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue
    const pid = Number(name.slice(prefix.length).split('-')[0])
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) continue
    if (pid === process.pid) continue
    rmSync(join(dir, name), { force: true })
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}
