/**
 * The Cursor agent CLI `store.db`: `blobs(id TEXT PRIMARY KEY, data BLOB)` (id = lowercase hex
 * sha-256 of data) and `meta(key, value)` whose row `'0'` is the hex encoding of UTF-8 JSON
 * `{agentId, latestRootBlobId, name, mode, createdAt (ms), lastUsedModel?, isRunEverything?,
 * blobEncryptionKey?}` (shared/formats/cursor-devin-atif-acp.md §B2, §B3, §F23; seed 002 "Cursor" A).
 *
 * The transcript is the walk from `latestRootBlobId`: a tree's field-1 leaves in order, field-2
 * subtrees walked in place. Blobs not reachable from the root (older checkpoints, abandoned
 * branches) are never shown. Cycles and missing blobs stop that branch and are reported.
 */
import type Database from 'better-sqlite3'
import { type Json, obj, stripBom } from '../cursor/common/json'
import { decodeTree, leafPayload } from './protobuf'

/** `meta['0']` decoded, or why it could not be. */
export interface MetaRow {
  value?: Json
  /** How it was read when not hex JSON (`plain JSON`). */
  note?: string
  problem?: string
}

/** Decode `meta['0']` (hex of UTF-8 JSON; plain JSON text is accepted with a note). */
export function readMeta(db: Database.Database): MetaRow {
  const row = db.prepare("SELECT value FROM meta WHERE key = '0'").get() as { value: unknown } | undefined
  if (!row) return { problem: "the meta table has no row '0'" }
  const raw = Buffer.isBuffer(row.value) ? row.value.toString('utf8') : typeof row.value === 'string' ? row.value : undefined
  if (raw === undefined) return { problem: "meta['0'] is not text" }
  const trimmed = raw.trim()
  if (/^([0-9a-fA-F]{2})+$/.test(trimmed)) {
    try {
      const v = obj(JSON.parse(stripBom(Buffer.from(trimmed, 'hex').toString('utf8'))))
      if (v) return { value: v }
    } catch {
      // fall through
    }
    return { problem: "meta['0'] is hex but not hex-encoded JSON" }
  }
  try {
    const v = obj(JSON.parse(stripBom(trimmed)))
    if (v) return { value: v, note: "meta['0'] is plain JSON, not hex" }
  } catch {
    // fall through
  }
  return { problem: "meta['0'] is neither hex-encoded JSON nor JSON" }
}

/** One message leaf reached from the root, in transcript order. */
export interface Leaf {
  blobId: string
  message: Json
  /** Field 26 of a protobuf-wrapped leaf (ms), when present. */
  createdAt?: number
}

/** The walk's result: ordered leaves, tree facts and the problems met. */
export interface Walk {
  leaves: Leaf[]
  workspaceUri?: string
  clientTag?: string
  /** Problems that make the transcript partial (missing blob, cycle). */
  partial: string[]
  /** Leaves skipped: not JSON (`unreadable`), notebooks (`notebook`). */
  skipped: { unreadable: number; notebook: number }
  /** Trees that had to be byte-scanned. */
  scannedTrees: number
}

const MAX_DEPTH = 256

/** Walk the blob graph from `rootId`. Never throws for bad data. */
export function walkBlobs(db: Database.Database, rootId: string): Walk {
  const get = db.prepare('SELECT data FROM blobs WHERE id = ?')
  const blob = (id: string): Buffer | undefined => {
    const r = (get.get(id) ?? get.get(id.toLowerCase()) ?? get.get(id.toUpperCase())) as { data: unknown } | undefined
    if (!r) return undefined
    return Buffer.isBuffer(r.data) ? r.data : typeof r.data === 'string' ? Buffer.from(r.data, 'utf8') : undefined
  }
  const w: Walk = { leaves: [], partial: [], skipped: { unreadable: 0, notebook: 0 }, scannedTrees: 0 }
  const onPath = new Set<string>()
  const visit = (id: string, depth: number): void => {
    if (onPath.has(id) || depth > MAX_DEPTH) {
      w.partial.push(`tree blob ${id} refers back to itself (cycle); that branch is cut`)
      return
    }
    const buf = blob(id)
    if (!buf) {
      w.partial.push(`tree blob ${id} is missing`)
      return
    }
    onPath.add(id)
    const tree = decodeTree(buf)
    if (tree.scanned) w.scannedTrees++
    if (depth === 0) {
      if (tree.workspaceUri !== undefined) w.workspaceUri = tree.workspaceUri
      if (tree.clientTag !== undefined) w.clientTag = tree.clientTag
    }
    for (const e of tree.entries) {
      if (e.kind === 'tree') {
        visit(e.id, depth + 1)
        continue
      }
      const data = blob(e.id)
      if (!data) {
        w.partial.push(`message blob ${e.id} is missing`)
        continue
      }
      const payload = leafPayload(data)
      let message: Json | undefined
      try {
        message = payload ? obj(JSON.parse(stripBom(payload.json))) : undefined
      } catch {
        message = undefined
      }
      if (!message) {
        w.skipped.unreadable++
        continue
      }
      if ('cells' in message || 'nbformat' in message) {
        w.skipped.notebook++
        continue
      }
      const leaf: Leaf = { blobId: e.id, message }
      if (payload?.time !== undefined) leaf.createdAt = payload.time
      w.leaves.push(leaf)
    }
    onPath.delete(id)
  }
  visit(rootId, 0)
  return w
}
