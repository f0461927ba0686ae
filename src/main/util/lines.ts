/**
 * Streaming line readers for JSONL stores: no line-length cap, memory bounded by the longest line,
 * CRLF and a missing final newline tolerated. {@link readLines} is an async generator over a read
 * stream; {@link forEachLine} gives the same lines through a callback, reading large chunks with
 * synchronous calls (no thread-pool round trip per chunk: faster for indexing whole files).
 */
import { assertRegularFile } from './regular-file'
import { nextTurn } from './turn'
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'

/** One line of a file. */
export interface Line {
  /** 1-based line number. */
  lineNo: number
  /** The line without its `\n` (and without a trailing `\r`). */
  text: string
  /** Byte offset of the line's first byte in the file. */
  offset: number
}

/** Options for {@link readLines}. */
export interface ReadLinesOptions {
  /** Byte offset to start at (for continuing an append-only file). Default 0. */
  start?: number
  /** Read chunk size in bytes. Default 1 MiB. */
  highWaterMark?: number
}

const NL = 0x0a

/**
 * Yield the lines of a file one by one, decoded as UTF-8 (invalid bytes become U+FFFD).
 * Empty lines are yielded too (callers skip them), so line numbers match an editor's.
 *
 * Rejects with the file system error (ENOENT, EACCES...) when the file cannot be opened.
 */
export async function* readLines(path: string, options: ReadLinesOptions = {}): AsyncGenerator<Line> {
  const start = options.start ?? 0
  assertRegularFile(path) // a FIFO or device must not hang or never end (issue 16)
  const stream = createReadStream(path, { start, highWaterMark: options.highWaterMark ?? 1 << 20 })
  let pending: Buffer[] = []
  let pendingBytes = 0
  let lineNo = 0
  let lineStart = start
  const decode = (parts: Buffer[], bytes: number): string => {
    const buf = parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes)
    let end = buf.length
    if (end > 0 && buf[end - 1] === 0x0d) end--
    // StringDecoder replaces invalid sequences with U+FFFD, as TextDecoder does.
    const decoder = new StringDecoder('utf8')
    return decoder.write(buf.subarray(0, end)) + decoder.end()
  }
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let from = 0
    for (;;) {
      const nl = chunk.indexOf(NL, from)
      if (nl === -1) {
        if (from < chunk.length) {
          const rest = chunk.subarray(from)
          pending.push(rest)
          pendingBytes += rest.length
        }
        break
      }
      const piece = chunk.subarray(from, nl)
      const lineBytes = pendingBytes + piece.length
      let text: string
      if (pending.length > 0) {
        pending.push(piece)
        text = decode(pending, lineBytes)
        pending = []
        pendingBytes = 0
      } else {
        text = decode([piece], piece.length)
      }
      lineNo++
      const offset = lineStart
      lineStart = offset + lineBytes + 1
      yield { lineNo, text, offset }
      from = nl + 1
    }
  }
  if (pendingBytes > 0) {
    lineNo++
    yield { lineNo, text: decode(pending, pendingBytes), offset: lineStart }
  }
}

/** Options for {@link forEachLine}. */
export interface ForEachLineOptions {
  /** Byte offset to start at. Default 0. */
  start?: number
  /** Bytes read per call. Default 4 MiB. */
  chunkBytes?: number
  /**
   * Give the event loop a turn (setImmediate) after this many bytes of lines, as the stream of
   * {@link readLines} does between its chunks (a read on the main thread keeps it responsive).
   * Default 1 MiB.
   */
  yieldBytes?: number
  /**
   * Also give it a turn once this many ms passed since the last one (default 10): a MiB of a
   * Claude Code transcript took 40-67 ms to parse on a loaded core, the longest waits of a
   * server's requests during a 200 MB read (BENCHMARKS.md "Renderer, session 12").
   */
  yieldMs?: number
  /** The file's size when the caller knows it (sizes the read buffer); default: `fstat`. */
  size?: number
}

/** One line's bytes as {@link readLines} decodes them (trailing `\r` dropped, invalid UTF-8 → U+FFFD). */
function decodeLine(buf: Buffer, start: number, end: number): string {
  if (end > start && buf[end - 1] === 0x0d) end--
  if (end === start) return ''
  // A line that ends in an ASCII byte has no cut-short character at its end, and then the
  // StringDecoder of readLines returns exactly Buffer#toString (both decode with V8's UTF-8).
  if (buf[end - 1]! < 0x80) return buf.toString('utf8', start, end)
  const decoder = new StringDecoder('utf8')
  return decoder.write(buf.subarray(start, end)) + decoder.end()
}

/**
 * Call `fn(text, lineNo, offset)` for every line of a file: the same lines, numbers (1-based) and
 * byte offsets as {@link readLines}, empty lines included. Resolves with the number of lines.
 * Rejects with the file system error (ENOENT, EACCES, EIO...) when the file cannot be opened or a
 * read fails (the lines before were delivered), or with what `fn` throws.
 */
export async function forEachLine(path: string, fn: (text: string, lineNo: number, offset: number) => void, options: ForEachLineOptions = {}): Promise<number> {
  const chunkBytes = options.chunkBytes ?? 4 << 20
  const yieldBytes = options.yieldBytes ?? 1 << 20
  const yieldMs = options.yieldMs ?? 10
  assertRegularFile(path) // a FIFO or device must not hang or never end (issue 16)
  const fd = openSync(path, 'r')
  let lineNo = 0
  try {
    let pos = options.start ?? 0
    let lineStart = pos
    let carry: Buffer[] = []
    let carryBytes = 0
    let sinceYield = 0
    let turnAt = performance.now() + yieldMs
    const size = options.size ?? fstatSync(fd).size
    for (;;) {
      // A fresh buffer per read (carried pieces of a long line point into it without copies), no
      // larger than what is left of the file (plus a little, in case it grew).
      const want = Math.min(chunkBytes, Math.max(64 << 10, size - pos + 1))
      const read = Buffer.allocUnsafe(want)
      const n = readSync(fd, read, 0, want, pos)
      if (n === 0) break
      const buf = n < want ? read.subarray(0, n) : read
      pos += n
      let from = 0
      for (;;) {
        const nl = buf.indexOf(NL, from)
        if (nl === -1) {
          if (from < n) {
            carry.push(buf.subarray(from, n))
            carryBytes += n - from
          }
          break
        }
        let text: string
        let bytes: number
        if (carryBytes > 0) {
          carry.push(buf.subarray(from, nl))
          bytes = carryBytes + nl - from
          const whole = Buffer.concat(carry, bytes)
          text = decodeLine(whole, 0, whole.length)
          carry = []
          carryBytes = 0
        } else {
          bytes = nl - from
          text = decodeLine(buf, from, nl)
        }
        lineNo++
        const offset = lineStart
        lineStart = offset + bytes + 1
        fn(text, lineNo, offset)
        from = nl + 1
        sinceYield += bytes + 1
        if (sinceYield >= yieldBytes || performance.now() >= turnAt) {
          sinceYield = 0
          await nextTurn()
          turnAt = performance.now() + yieldMs
        }
      }
    }
    if (carryBytes > 0) {
      const whole = Buffer.concat(carry, carryBytes)
      lineNo++
      fn(decodeLine(whole, 0, whole.length), lineNo, lineStart)
    }
  } finally {
    closeSync(fd)
  }
  return lineNo
}
