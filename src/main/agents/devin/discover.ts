/**
 * Find Devin CLI sessions under one home.
 *
 * Layout (`shared/formats/cursor-devin-atif-acp.md` C1; seed 002 "Devin CLI"): the store folder is
 * `$XDG_DATA_HOME/devin/cli` (default `~/.local/share/devin/cli`, **also on macOS**), on Windows
 * `%LOCALAPPDATA%\devin\cli` (`%APPDATA%` is probed too by some tools). It holds `sessions.db`
 * (+ `-wal`, `-shm`) and `transcripts/<session_id>.json` (ATIF). The candidates probed, in order
 * and without duplicates: `<xdgDataHome>/devin/cli`, `<dataRoot>/devin/cli`,
 * `<localAppData>/devin/cli`.
 *
 * One ref per `sessions` row (hidden ones too), one per live `subagent_heads` row (id
 * `<session_id>/<agent_id>`; a head naming no node is reported by the parent's read), and one per
 * transcript whose session has no row (format `devin-atif`). Transcripts named after another id
 * are matched by their `session_id` field (edge case 38). The `$DEVIN_DATA_DIR` /
 * `$CHISEL_SESSION_DB` overrides are not honoured: HomeLayout carries no environment.
 */
import { readdir, stat } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { storeEntries } from '../link-loop'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'
import { headRows, nodeIds, type SessionRow, sessionRows, withDevinDb } from './db'
import { type DevinHints, FORMAT_ATIF, FORMAT_DB, FORMAT_SUBAGENT, subagentSessionId } from './format'
import { openRegularFile } from '../../util/regular-file'

/** The store folders to probe for this layout (see the module doc). */
export function storeRoots(layout: HomeLayout): string[] {
  const p = pathApiFor(layout.home)
  const bases = [layout.xdgDataHome, layout.dataRoot, layout.localAppData].filter((b): b is string => !!b)
  return [...new Set(bases.map((b) => p.join(b, 'devin', 'cli')))]
}

/** size and mtime of a file, or undefined when it does not exist (other errors, and a file that is not regular, are reported). */
async function statFile(path: string, diagnostics: Diagnostic[]): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    const s = await stat(path)
    if (s.isFile()) return { size: s.size, mtimeMs: s.mtimeMs }
    // A FIFO, device (a link to /dev/zero) or folder in place of a store file: named, not taken for absent (issue 16).
    diagnostics.push({ severity: 'warning', skipped: 1, path, message: `${path} is not a regular file (a named pipe, device, socket or folder); Sepia reads only regular files, so it was skipped`, agent: 'devin' })
    return undefined
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path, message: `cannot read: ${(e as Error).message}`, agent: 'devin' })
    return undefined
  }
}

/** The `session_id` field in the first 4 KiB of an ATIF file (cheap; no full parse). */
async function peekSessionId(path: string): Promise<string | undefined> {
  let fh
  try {
    fh = await openRegularFile(path)
    const buf = Buffer.alloc(4096)
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
    const m = /"session_id"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(buf.subarray(0, bytesRead).toString('utf8'))
    return m?.[1] === undefined ? undefined : (JSON.parse(`"${m[1]}"`) as string)
  } catch {
    return undefined
  } finally {
    await fh?.close()
  }
}

/** Transcript path by session id: `<id>.json`, else a file whose `session_id` names the id. */
async function transcripts(dir: string, ids: Set<string>, diagnostics: Diagnostic[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  let names: string[]
  try {
    // A link that loops or leads above, and a folder named like a transcript, are named, not read (agents/link-loop.ts).
    names = (await storeEntries(dir, await readdir(dir, { withFileTypes: true }), 'devin', diagnostics, (n) => n.endsWith('.json'))).files.filter((n) => n.endsWith('.json'))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: 'devin' })
    return out
  }
  const p = pathApiFor(dir)
  const others: string[] = []
  for (const n of names) {
    const id = n.slice(0, -'.json'.length)
    if (ids.has(id) || !ids.size) out.set(id, p.join(dir, n))
    else others.push(n)
  }
  for (const n of others) {
    const id = await peekSessionId(p.join(dir, n))
    if (id !== undefined && ids.has(id) && !out.has(id)) out.set(id, p.join(dir, n))
    else if (!out.has(n.slice(0, -'.json'.length))) out.set(n.slice(0, -'.json'.length), p.join(dir, n))
  }
  return out
}

/** A ref over `files` (those that exist; size summed, newest mtime). */
async function makeRef(layout: HomeLayout, sessionId: string, format: string, files: string[], hints: DevinHints, extra: Partial<StoreRef>, diagnostics: Diagnostic[]): Promise<StoreRef> {
  let size = 0
  let mtimeMs = 0
  const kept: string[] = []
  for (const f of files) {
    const s = await statFile(f, diagnostics)
    if (!s) continue
    size += s.size
    mtimeMs = Math.max(mtimeMs, s.mtimeMs)
    kept.push(f)
  }
  return { agent: 'devin', sessionId, format, files: kept, size, mtimeMs, home: layout.home, hints: { ...hints }, ...extra }
}

/** Refs of one store folder. */
async function discoverRoot(layout: HomeLayout, root: string, diagnostics: Diagnostic[]): Promise<StoreRef[]> {
  const p = pathApiFor(root)
  const db = p.join(root, 'sessions.db')
  const hasDb = (await statFile(db, diagnostics)) !== undefined
  let rows: SessionRow[] = []
  const heads = new Map<string, { agentId: string; live: boolean }[]>()
  if (hasDb) {
    try {
      withDevinDb(db, (conn) => {
        rows = sessionRows(conn)
        for (const r of rows) {
          const ids = nodeIds(conn, r.id)
          heads.set(r.id, headRows(conn, r.id).map((h) => ({ agentId: h.agent_id, live: ids.has(Number(h.chain_node_id)) })))
        }
      })
    } catch (e) {
      diagnostics.push({ severity: 'error', path: db, message: `cannot read the Devin session database: ${(e as Error).message}`, agent: 'devin' })
    }
  }
  const ids = new Set(rows.map((r) => String(r.id)))
  const byId = await transcripts(p.join(root, 'transcripts'), ids, diagnostics)
  const dbFiles = [db, db + '-wal']
  const refs: StoreRef[] = []
  for (const r of rows) {
    const id = String(r.id)
    const transcript = byId.get(id)
    const hints: DevinHints = transcript ? { db, transcript } : { db }
    refs.push(await makeRef(layout, id, FORMAT_DB, transcript ? [...dbFiles, transcript] : dbFiles, hints, {}, diagnostics))
    for (const h of heads.get(id) ?? []) {
      if (!h.live) continue
      const childHints: DevinHints = { db, agentId: h.agentId, parentId: id }
      refs.push(await makeRef(layout, subagentSessionId(id, h.agentId), FORMAT_SUBAGENT, dbFiles, childHints, { parentSessionId: id }, diagnostics))
    }
  }
  for (const [id, transcript] of byId) {
    if (ids.has(id)) continue
    refs.push(await makeRef(layout, id, FORMAT_ATIF, [transcript], { transcript }, {}, diagnostics))
  }
  return refs
}

/**
 * List Devin sessions under `layout`. Never throws: an unreadable folder or database is a
 * diagnostic and the other roots still load; a missing store means no sessions.
 */
export async function discoverSessions(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  for (const root of storeRoots(layout)) {
    try {
      refs.push(...(await discoverRoot(layout, root, diagnostics)))
    } catch (e) {
      diagnostics.push({ severity: 'error', path: root, message: `cannot read the Devin store: ${(e as Error).message}`, agent: 'devin' })
    }
  }
  return { refs, diagnostics }
}
