/**
 * The protobuf frames of the Cursor agent CLI's `store.db` blob graph, decoded just enough to walk
 * it (shared/formats/cursor-devin-atif-acp.md §B3; seed 002 "Cursor" A):
 * - a tree (checkpoint) blob holds repeated field 1 (length 32) = the raw sha-256 of a message
 *   leaf, in order, and field 2 (length 32) = a subtree to walk in place; field 9 = the workspace
 *   `file://` URI; field 22 = the client tag (`"cli"`); other fields are ignored;
 * - a leaf is UTF-8 JSON, or (newer builds) a protobuf node with the JSON at field 4 and a time at
 *   field 26.
 * Readers elsewhere scan bytes for `0x0a 0x20` / `0x12 0x20`; here the wire format is walked
 * properly and the byte scan is only the fallback when the frame does not parse.
 */

/** One field of a protobuf message: number, wire type and value. */
export interface Field {
  no: number
  wire: number
  /** Varint value (wire 0), when it fits a JS number. */
  int?: number
  /** Bytes (wire 2). */
  bytes?: Buffer
}

function varint(buf: Buffer, at: number): { value: number; next: number } | undefined {
  let value = 0
  let mul = 1
  for (let i = at; i < buf.length && i < at + 10; i++) {
    const b = buf[i]!
    value += (b & 0x7f) * mul
    mul *= 128
    if ((b & 0x80) === 0) return { value, next: i + 1 }
  }
  return undefined
}

/** Every top-level field of `buf`, or undefined when it is not a well-formed protobuf message. */
export function fields(buf: Buffer): Field[] | undefined {
  const out: Field[] = []
  let i = 0
  while (i < buf.length) {
    const tag = varint(buf, i)
    if (!tag || tag.value === 0) return undefined
    const no = Math.floor(tag.value / 8)
    const wire = tag.value % 8
    i = tag.next
    if (wire === 0) {
      const v = varint(buf, i)
      if (!v) return undefined
      out.push({ no, wire, int: v.value })
      i = v.next
    } else if (wire === 2) {
      const len = varint(buf, i)
      if (!len || len.next + len.value > buf.length) return undefined
      out.push({ no, wire, bytes: buf.subarray(len.next, len.next + len.value) })
      i = len.next + len.value
    } else if (wire === 1) {
      if (i + 8 > buf.length) return undefined
      out.push({ no, wire })
      i += 8
    } else if (wire === 5) {
      if (i + 4 > buf.length) return undefined
      out.push({ no, wire })
      i += 4
    } else return undefined
  }
  return out
}

/** The entries of a tree blob, in order. */
export interface Tree {
  entries: { kind: 'leaf' | 'tree'; id: string }[]
  /** Field 9: the workspace URI, when present. */
  workspaceUri?: string
  /** Field 22: the client tag, when present. */
  clientTag?: string
  /** True when the frame did not parse and the byte scan was used. */
  scanned: boolean
}

/** Decode a tree blob (see the file docstring). */
export function decodeTree(buf: Buffer): Tree {
  const fs = fields(buf)
  if (fs) {
    const tree: Tree = { entries: [], scanned: false }
    for (const f of fs) {
      if (f.wire !== 2 || !f.bytes) continue
      if ((f.no === 1 || f.no === 2) && f.bytes.length === 32) tree.entries.push({ kind: f.no === 1 ? 'leaf' : 'tree', id: f.bytes.toString('hex') })
      else if (f.no === 9) tree.workspaceUri = f.bytes.toString('utf8')
      else if (f.no === 22) tree.clientTag = f.bytes.toString('utf8')
    }
    return tree
  }
  const tree: Tree = { entries: [], scanned: true }
  for (let i = 0; i + 34 <= buf.length; i++) {
    if ((buf[i] === 0x0a || buf[i] === 0x12) && buf[i + 1] === 0x20) {
      tree.entries.push({ kind: buf[i] === 0x0a ? 'leaf' : 'tree', id: buf.subarray(i + 2, i + 34).toString('hex') })
      i += 33
    }
  }
  return tree
}

/** A leaf's JSON text and time: plain JSON (BOM allowed), or field 4 (+ field 26) of a protobuf node. */
export function leafPayload(buf: Buffer): { json: string; time?: number } | undefined {
  let s = buf.toString('utf8')
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1)
  if (/^\s*[{[]/.test(s)) return { json: s }
  const fs = fields(buf)
  const f4 = fs?.find((f) => f.no === 4 && f.bytes)
  if (!f4?.bytes) return undefined
  const out: { json: string; time?: number } = { json: f4.bytes.toString('utf8') }
  const t = fs?.find((f) => f.no === 26 && f.int !== undefined)?.int
  if (t !== undefined && t > 1e12) out.time = t
  return out
}
