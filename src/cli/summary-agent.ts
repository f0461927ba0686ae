/**
 * The agent of one stored session summary (the JSON text of a `SessionSummary`, UTF-8 bytes, as
 * `sepia list --json` prints it) without parsing the summary: `sepia list --json --agent X` keeps
 * the sessions of one agent, and parsing each of 10k summaries (~8 MB) to read one field was most
 * of that command's own work (issue 15).
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COLON = 0x3a
const AGENT_KEY = Buffer.from('agent', 'utf8')

/**
 * The value of the top-level `"agent"` key of `json` (a JSON object's UTF-8 bytes, whitespace
 * allowed as JSON allows it). Only the top level counts: an `"agent"` key in a nested object or
 * the text `"agent":"x"` inside a string value (a title, a prompt) is skipped, since the scan
 * follows strings (with their escapes) and nesting. The value is read as it is when it has no
 * escape; otherwise, or when the bytes are not shaped as expected (no such key, a value that is not a
 * string), the whole text is parsed with `JSON.parse` and its `agent` returned (undefined when it is
 * not a string). Throws only what `JSON.parse` throws for bytes that are not JSON.
 */
export function summaryAgent(json: Uint8Array): string | undefined {
  const n = json.length
  let depth = 0
  let i = 0
  // At depth 1, the string just read is a key when the next non-blank byte is a colon.
  while (i < n) {
    const c = json[i]!
    if (c === QUOTE) {
      const start = i + 1
      let escaped = false
      i = start
      while (i < n && json[i] !== QUOTE) {
        if (json[i] === BACKSLASH) {
          escaped = true
          i++
        }
        i++
      }
      const end = i
      i++
      if (depth !== 1 || escaped || end - start !== AGENT_KEY.length || !AGENT_KEY.equals(json.subarray(start, end))) continue
      let j = i
      while (j < n && isBlank(json[j]!)) j++
      if (json[j] !== COLON) continue // a string value "agent", not the key
      j++
      while (j < n && isBlank(json[j]!)) j++
      if (json[j] !== QUOTE) break // not a string: let JSON.parse say what it is
      const vs = j + 1
      let k = vs
      while (k < n && json[k] !== QUOTE && json[k] !== BACKSLASH) k++
      if (k >= n || json[k] === BACKSLASH) break
      return Buffer.from(json.buffer, json.byteOffset + vs, k - vs).toString('utf8')
    }
    if (c === 0x7b || c === 0x5b) depth++ // { [
    else if (c === 0x7d || c === 0x5d) depth-- // } ]
    i++
  }
  const agent = (JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.length).toString('utf8')) as { agent?: unknown }).agent
  return typeof agent === 'string' ? agent : undefined
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
}
