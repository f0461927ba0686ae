/**
 * Find Codex CLI rollouts under one home: directory listings, `stat`s, and the optional thread
 * database / name index for titles and sub-agent parents.
 *
 * Layout (codex-rs `core/src/rollout/mod.rs` `SESSIONS_SUBDIR`/`ARCHIVED_SESSIONS_SUBDIR`,
 * `recorder.rs`; fixtures/real/codex, Codex 0.171.0): `<codex home>/sessions/YYYY/MM/DD/
 * rollout-<local time>-<thread uuid>.jsonl`, archived ones flat in `<codex home>/archived_sessions/`.
 * Codex also lists a rollout placed directly in `sessions/` (fixtures/real/codex/handwritten/17);
 * a `.jsonl` without the `rollout-` prefix is still listed here (Sepia shows what is on disk) and
 * gets an info diagnostic when read.
 *
 * The codex home is `$CODEX_HOME` for the user's own home in Codex itself; the layout does not
 * carry that variable yet, so `<home>/.codex` is used unless the layout has a `codexHome`.
 */
import type { Dirent } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { readdirSync } from 'node:fs'
import type { FreshnessDeps } from '../../catalog/freshness'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'
import { ancestorLinkMessage, folderNamedLikeFileMessage, loopMessage } from '../link-loop'
import { FORMAT } from './format'
import { FILE_UUID } from './records'
import { type StateIndex, readStateIndex } from './state'

/** Folder depth searched below `sessions/` (YYYY/MM/DD plus one spare level). */
const MAX_DEPTH = 4

/** The Codex home of a layout: `CODEX_HOME` for the own home, else `<home>/.codex` (platform/layout.ts). */
export function codexHomeOf(layout: HomeLayout): string {
  return layout.codexHome || pathApiFor(layout.home).join(layout.home, '.codex')
}

/** Directory entries, or undefined (plus a diagnostic unless the folder simply does not exist). */
async function list(dir: string, diagnostics: Diagnostic[]): Promise<Dirent[] | undefined> {
  try {
    return (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      diagnostics.push({ severity: 'warning', skipped: 1, path: dir, agent: 'codex', message: `cannot list folder: ${(e as Error).message}` })
    }
    return undefined
  }
}

/** Every `.jsonl` file under `dir`, depth-first in name order. */
async function rollouts(dir: string, depth: number, join: (a: string, b: string) => string, diagnostics: Diagnostic[]): Promise<string[]> {
  const out: string[] = []
  for (const e of (await list(dir, diagnostics)) ?? []) {
    const path = join(dir, e.name)
    let isDir = e.isDirectory()
    let isFile = e.isFile()
    if (e.isSymbolicLink()) {
      try {
        const s = await stat(path)
        isDir = s.isDirectory()
        isFile = s.isFile()
      } catch (err) {
        // A link that loops (agents/link-loop.ts) is named; a broken link is passed over.
        const loop = loopMessage(path, err)
        if (loop) diagnostics.push({ severity: 'warning', skipped: 1, path, agent: 'codex', message: loop })
        continue
      }
      const loop = isDir ? await ancestorLinkMessage(path, dir) : undefined
      if (loop) {
        // Followed, a link to a folder above would list the same rollouts again at each level.
        diagnostics.push({ severity: 'warning', skipped: 1, path, agent: 'codex', message: loop })
        continue
      }
    }
    if (isDir && e.name.endsWith('.jsonl')) {
      // A folder named like a rollout is not one: named, not read.
      diagnostics.push({ severity: 'warning', skipped: 1, path, agent: 'codex', message: folderNamedLikeFileMessage(path) })
    } else if (isDir && depth < MAX_DEPTH) out.push(...(await rollouts(path, depth + 1, join, diagnostics)))
    else if (isFile && e.name.endsWith('.jsonl')) out.push(path)
    else if (!isDir && e.name.endsWith('.jsonl')) {
      // A FIFO, device or socket named like a rollout (issue 16): skipped, but never silently.
      diagnostics.push({ severity: 'warning', skipped: 1, path, agent: 'codex', message: `${path} is not a regular file (a named pipe, device or socket); Sepia reads only regular files, so it was skipped.` })
    }
  }
  return out
}

/** A ref for one rollout file, or undefined when it vanished. */
async function makeRef(home: string, path: string, index: StateIndex, archived: boolean): Promise<StoreRef | undefined> {
  let size: number
  let mtimeMs: number
  try {
    const s = await stat(path)
    size = s.size
    mtimeMs = s.mtimeMs
  } catch {
    return undefined
  }
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1)
  const sessionId = index.idByFile.get(name) ?? FILE_UUID.exec(name)?.[1] ?? name.replace(/\.jsonl$/, '')
  const hints: Record<string, unknown> = { ...index.byId.get(sessionId) }
  if (archived) hints.archived = true
  const ref: StoreRef = { agent: 'codex', sessionId, format: FORMAT, files: [path], size, mtimeMs, home }
  if (typeof hints.parentSessionId === 'string') ref.parentSessionId = hints.parentSessionId
  if (Object.keys(hints).length > 0) ref.hints = hints
  return ref
}

/**
 * What {@link discoverSessions} depends on besides the rollouts (`catalog/freshness.ts`): the
 * folder trees `sessions/` and `archived_sessions/`, the Codex home's listing (which
 * `state*.sqlite` is the thread database, `state.ts` `stateDbPath`), that database with its WAL,
 * and `session_index.jsonl`.
 */
export function freshnessDeps(layout: HomeLayout): FreshnessDeps {
  const p = pathApiFor(layout.home)
  const root = codexHomeOf(layout)
  let names: string[] = []
  try {
    names = readdirSync(root).filter((n) => /^state(?:_\d+)?\.sqlite$/.test(n))
  } catch {
    // no Codex home: its parent's mtime is recorded instead
  }
  return {
    trees: [p.join(root, 'sessions'), p.join(root, 'archived_sessions')],
    dirs: [root],
    files: [p.join(root, 'session_index.jsonl'), ...names.flatMap((n) => [p.join(root, n), p.join(root, `${n}-wal`)])],
  }
}

/**
 * List Codex rollouts (live and archived) under the layout's Codex home. Never throws: an
 * unreadable folder or database is a warning diagnostic; a home without Codex has no sessions.
 */
export async function discoverSessions(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  try {
    const p = pathApiFor(layout.home)
    const root = codexHomeOf(layout)
    const live = await rollouts(p.join(root, 'sessions'), 0, p.join, diagnostics)
    const archived = await rollouts(p.join(root, 'archived_sessions'), 0, p.join, diagnostics)
    if (live.length + archived.length === 0) return { refs, diagnostics }
    const index = await readStateIndex(root, diagnostics)
    for (const [files, isArchived] of [[live, false], [archived, true]] as const) {
      for (const f of files) {
        const ref = await makeRef(layout.home, f, index, isArchived)
        if (ref) refs.push(ref)
      }
    }
  } catch (e) {
    diagnostics.push({ severity: 'warning', path: layout.home, agent: 'codex', message: `cannot look for Codex sessions: ${(e as Error).message}` })
  }
  return { refs, diagnostics }
}
