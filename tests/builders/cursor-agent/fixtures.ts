/**
 * Fixture helpers for the Cursor agent CLI reader (tests only). No real Cursor store exists in this
 * repository, so these write `store.db` files (better-sqlite3) and JSON/JSONL exactly as
 * shared/formats/cursor-devin-atif-acp.md §B2–§B5 describes: blobs keyed by the hex sha-256 of
 * their bytes, protobuf tree blobs (`0x0a 0x20 <32 bytes>` leaves, `0x12 0x20 <32 bytes>`
 * subtrees, field 9 workspace URI, field 22 client tag), `meta['0']` = hex of UTF-8 JSON, and the
 * `chats/<md5(cwd)>/<agentId>/` layout. See src/main/agents/cursor/FIXTURES.md.
 */
import Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** Lowercase hex sha-256 of `data` (a blob's id, §B2). */
export function sha256hex(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

/** Lowercase hex md5 of the cwd string (the `chats/<workspaceHash>` folder name, §B1). */
export function md5hex(s: string): string {
  return createHash('md5').update(s, 'utf8').digest('hex')
}

function varint(n: number): number[] {
  const out: number[] = []
  let v = n
  while (v >= 0x80) {
    out.push((v % 128) | 0x80)
    v = Math.floor(v / 128)
  }
  out.push(v)
  return out
}

/** A length-delimited protobuf field. */
export function pbBytes(field: number, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from([...varint(field * 8 + 2), ...varint(data.length)]), data])
}

/** A varint protobuf field. */
export function pbInt(field: number, value: number): Buffer {
  return Buffer.from([...varint(field * 8), ...varint(value)])
}

/** Entries of a tree blob: a message leaf or a subtree, by hex id. */
export type TreeEntry = { leaf: string } | { tree: string }

/** Builds the blob graph of one `store.db`. */
export class BlobStore {
  readonly blobs = new Map<string, Buffer>()

  /** Add raw bytes under their sha-256 (or under `id` when given: a deliberately wrong id). */
  add(data: Buffer, id?: string): string {
    const key = id ?? sha256hex(data)
    this.blobs.set(key, data)
    return key
  }

  /** Add a message as compact UTF-8 JSON (§B5 step 1). */
  message(m: unknown): string {
    return this.add(Buffer.from(JSON.stringify(m), 'utf8'))
  }

  /** Add a protobuf-wrapped message leaf: JSON at field 4, a ms time at field 26 (§B3). */
  wrappedMessage(m: unknown, time: number): string {
    return this.add(Buffer.concat([pbInt(5, 1234), pbBytes(4, Buffer.from(JSON.stringify(m), 'utf8')), pbInt(26, time)]))
  }

  /** Tree bytes for `entries` (+ field 9 workspace URI, field 22 client tag). */
  treeBytes(entries: TreeEntry[], extra: { workspaceUri?: string; clientTag?: string } = {}): Buffer {
    const parts = entries.map((e) => ('leaf' in e ? pbBytes(1, Buffer.from(e.leaf, 'hex')) : pbBytes(2, Buffer.from(e.tree, 'hex'))))
    if (extra.workspaceUri !== undefined) parts.push(pbBytes(9, Buffer.from(extra.workspaceUri, 'utf8')))
    if (extra.clientTag !== undefined) parts.push(pbBytes(22, Buffer.from(extra.clientTag, 'utf8')))
    return Buffer.concat(parts)
  }

  /** Add a tree blob (§B5 step 2). */
  tree(entries: TreeEntry[], extra: { workspaceUri?: string; clientTag?: string } = {}): string {
    return this.add(this.treeBytes(entries, extra))
  }
}

/** Hex of UTF-8 JSON (the `meta['0']` encoding, §B2). */
export function hexJson(v: unknown): string {
  return Buffer.from(JSON.stringify(v), 'utf8').toString('hex')
}

/** Write `store.db` at `path` with `blobs` and a raw `meta['0']` value (§B5 step 3). */
export function writeStoreDb(path: string, store: BlobStore, meta0: string | null): void {
  mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path)
  db.exec('CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB); CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)')
  const ins = db.prepare('INSERT INTO blobs (id, data) VALUES (?, ?)')
  for (const [id, data] of store.blobs) ins.run(id, data)
  if (meta0 !== null) db.prepare("INSERT INTO meta (key, value) VALUES ('0', ?)").run(meta0)
  db.close()
}

/** Write a JSON file (creating folders). */
export function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, JSON.stringify(value))
}

/** Write JSONL lines (objects are stringified; strings are written as is) and fix the mtime. */
export function writeJsonl(path: string, lines: unknown[], mtimeMs: number): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n')
  utimesSync(path, mtimeMs / 1000, mtimeMs / 1000)
}

/** `~/.cursor/chats/<md5(cwd)>/<agentId>` (§B1). */
export function chatFolder(home: string, cwd: string, agentId: string): string {
  return join(home, '.cursor', 'chats', md5hex(cwd), agentId)
}

/** `~/.cursor/projects/<slug>` with its `.workspace-trusted` file when `workspacePath` is given (§B1, §B4). */
export function projectFolder(home: string, slug: string, workspacePath?: string): string {
  const dir = join(home, '.cursor', 'projects', slug)
  mkdirSync(join(dir, 'agent-transcripts'), { recursive: true })
  if (workspacePath !== undefined) writeFileSync(join(dir, '.workspace-trusted'), JSON.stringify({ workspacePath }))
  return dir
}
