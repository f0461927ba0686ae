/**
 * Find the sessions of one OpenCode-family member under a home.
 *
 * Looks in `<xdgDataHome>/<dataDirName>/` (and `<dataRoot>/<dataDirName>/` when that differs, for
 * homes laid out by the platform's own data folder): every `<dbName>.db` / `<dbName>-<channel>.db`
 * (one ref per `session` row) and the JSON storage `storage/session/<projectID>/<id>.json`. A
 * session already found in a database is not listed again from the JSON storage (OpenCode's
 * migration copies the files into the database and leaves them in place, json-migration.ts).
 * Never throws: an unreadable folder or database is a warning diagnostic and the rest loads.
 * Database refs share the database's size and mtime (any write changes them) and carry the
 * session row's `time_updated` as `hints.updatedAt`; discovery's children of a session are in
 * `hints.childSessionIds`.
 */
import type { Dirent } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Diagnostic } from '../../../shared/ir'
import type { HomeLayout } from '../../platform'
import type { DiscoverResult, StoreRef } from '../types'
import { type OpencodeFamilyConfig, formatsOf } from './config'
import { listDbSessions } from './source-db'
import { idOfFile, readJsonFile } from './source-json'
import { storeEntries } from '../link-loop'
import { pickStr } from './values'

/** Directory entries sorted by name, or undefined (plus a diagnostic unless the folder is absent). */
async function list(dir: string, config: OpencodeFamilyConfig, diagnostics: Diagnostic[]): Promise<Dirent[] | undefined> {
  try {
    return (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: config.id })
    return undefined
  }
}

/** Total size and newest mtime of the files (and extra folders) that exist. */
async function stats(paths: string[]): Promise<{ files: string[]; size: number; mtimeMs: number }> {
  const out = { files: [] as string[], size: 0, mtimeMs: 0 }
  for (const p of paths) {
    try {
      const s = await stat(p)
      out.mtimeMs = Math.max(out.mtimeMs, s.mtimeMs)
      if (s.isFile()) {
        out.files.push(p)
        out.size += s.size
      }
    } catch {
      // absent companion file (-wal) or folder: skip
    }
  }
  return out
}

/** `opencode.db` first, then channel databases by name. */
function databases(entries: Dirent[], dbName: string): string[] {
  const re = new RegExp(`^${dbName}(-[A-Za-z0-9._-]+)?\\.db$`)
  return entries
    .filter((e) => !e.isDirectory() && re.test(e.name))
    .map((e) => e.name)
    .sort((a, b) => (a === `${dbName}.db` ? -1 : b === `${dbName}.db` ? 1 : a < b ? -1 : 1))
}

/** List the sessions of `config` under `layout`. */
export async function discoverFamily(layout: HomeLayout, config: OpencodeFamilyConfig): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const formats = formatsOf(config)
  const refs: StoreRef[] = []
  const seen = new Set<string>()
  const roots = [...new Set([layout.xdgDataHome, layout.dataRoot].map((r) => join(r, config.dataDirName)))]
  const base = { agent: config.id, home: layout.home }
  for (const root of roots) {
    const entries = await list(root, config, diagnostics)
    if (!entries) continue
    for (const name of databases(entries, config.dbName)) {
      const db = join(root, name)
      try {
        const { sessions, problem } = listDbSessions(db)
        if (problem) diagnostics.push({ severity: 'warning', path: db, message: `${problem}; no sessions read from it`, agent: config.id })
        const st = await stats([db, `${db}-wal`])
        for (const s of sessions) {
          if (seen.has(s.id)) continue
          seen.add(s.id)
          const ref: StoreRef = { ...base, sessionId: s.id, format: formats.db, ...st }
          if (s.parentId) ref.parentSessionId = s.parentId
          // The database's size/mtime change with any session; the row's own time is finer.
          if (s.updatedAt !== undefined) ref.hints = { updatedAt: s.updatedAt }
          refs.push(ref)
        }
      } catch (e) {
        diagnostics.push({ severity: 'warning', skipped: 1, path: db, message: `cannot read database: ${(e as Error).message}`, agent: config.id })
      }
    }
    const storage = join(root, 'storage')
    // Project folders and session files, links followed one step; a link that loops or leads above,
    // and a folder named like a session file, are named in a warning and not read (agents/link-loop.ts).
    const sessionRoot = join(storage, 'session')
    const projects = (await list(sessionRoot, config, diagnostics)) ?? []
    for (const project of (await storeEntries(sessionRoot, projects, config.id, diagnostics)).folders) {
      const projectDir = join(sessionRoot, project)
      const inside = (await list(projectDir, config, diagnostics)) ?? []
      const files = (await storeEntries(projectDir, inside, config.id, diagnostics, (n) => n.endsWith('.json'))).files
      for (const file of files.filter((n) => n.endsWith('.json')).map((n) => join(projectDir, n))) {
        const id = idOfFile(file)
        if (seen.has(id)) continue
        seen.add(id)
        const st = await stats([file, join(storage, 'message', id)])
        if (st.files.length === 0) continue
        const ref: StoreRef = { ...base, sessionId: id, format: formats.json, ...st }
        const parent = pickStr((await readJsonFile(file)).value, 'parentID', 'parent_id', 'parentId')
        if (parent) ref.parentSessionId = parent
        refs.push(ref)
      }
    }
  }
  const children = new Map<string, string[]>()
  for (const r of refs) if (r.parentSessionId) children.set(r.parentSessionId, [...(children.get(r.parentSessionId) ?? []), r.sessionId])
  for (const r of refs) {
    const kids = children.get(r.sessionId)
    if (kids) r.hints = { ...r.hints, childSessionIds: kids }
  }
  return { refs, diagnostics }
}
