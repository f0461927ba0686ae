/**
 * Streaming line reader for JSONL stores: no line-length cap, memory bounded by the longest line,
 * CRLF and a missing final newline tolerated.
 */
import { createReadStream } from 'node:fs'
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
