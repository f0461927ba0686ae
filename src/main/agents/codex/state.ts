/**
 * Optional thread facts Codex keeps beside the rollouts: titles and sub-agent edges from
 * `state_<n>.sqlite`, user-given names from `session_index.jsonl`. The rollout wins over both;
 * these only fill what a rollout does not say.
 *
 * Store facts: fixtures/real/codex (Codex 0.171.0) `state_5.sqlite` table `threads (id,
 * rollout_path, title, name, source, model, archived, ...)` where `source` is `exec`/`cli`/... or
 * the sub-agent's `{"subagent":{"thread_spawn":{"parent_thread_id",...}}}` JSON, and table
 * `thread_spawn_edges (parent_thread_id, child_thread_id, status)`; codex-rs
 * `core/src/rollout/session_index.rs` (`session_index.jsonl` lines `{id, thread_name,
 * updated_at}`, the last line for an id wins). Older databases lack some columns or tables; each
 * is used only when present.
 */
import { readdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { Diagnostic } from '../../../shared/ir'
import { readLines } from '../../util/lines'
import { openSqliteReadOnly } from '../../util/sqlite'
import { obj, str, tryJson } from './records'

/** What the side stores say about one thread. */
export interface ThreadHints {
  /** `threads.title` (Codex's own title: the first prompt, or a generated one). */
  stateTitle?: string
  /** A name the user gave the thread (`threads.name`, else `session_index.jsonl`). */
  threadName?: string
  /** Parent thread of a sub-agent (`thread_spawn_edges`, else `threads.source`). */
  parentSessionId?: string
  /** `threads.model`. */
  model?: string
}

/** Thread facts by thread id, and the thread id of each rollout file name. */
export interface StateIndex {
  byId: Map<string, ThreadHints>
  idByFile: Map<string, string>
}

/**
 * The newest `state_<n>.sqlite` (or `state.sqlite`) in `codexHome`, if any (undefined when the
 * folder cannot be read). Also used by the move bundle (src/main/bundle/move.ts).
 */
export async function stateDbPath(codexHome: string): Promise<string | undefined> {
  let names: string[]
  try {
    names = await readdir(codexHome)
  } catch {
    return undefined
  }
  const found = names
    .map((n) => ({ n, m: /^state(?:_(\d+))?\.sqlite$/.exec(n) }))
    .filter((x) => x.m)
    .sort((a, b) => Number(b.m![1] ?? 0) - Number(a.m![1] ?? 0))
  return found[0] ? join(codexHome, found[0].n) : undefined
}

function hintsFor(index: StateIndex, id: string): ThreadHints {
  let h = index.byId.get(id)
  if (!h) index.byId.set(id, (h = {}))
  return h
}

/** Rows of `threads` (and `thread_spawn_edges`) into `index`. Throws the SQLite error. */
function readDb(path: string, index: StateIndex): void {
  const db = openSqliteReadOnly(path)
  try {
    const tables = new Set((db.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name))
    if (!tables.has('threads')) return
    const cols = new Set((db.db.prepare('PRAGMA table_info(threads)').all() as { name: string }[]).map((r) => r.name))
    const pick = ['id', 'rollout_path', 'title', 'name', 'source', 'model'].filter((c) => cols.has(c))
    if (!pick.includes('id')) return
    for (const row of db.db.prepare(`SELECT ${pick.join(', ')} FROM threads`).all() as Record<string, unknown>[]) {
      const id = str(row.id)
      if (id === undefined) continue
      const h = hintsFor(index, id)
      const rollout = str(row.rollout_path)
      if (rollout) index.idByFile.set(basename(rollout.replace(/\\/g, '/')), id)
      if (str(row.title)?.trim()) h.stateTitle = str(row.title)
      if (str(row.name)?.trim()) h.threadName = str(row.name)
      if (str(row.model)?.trim()) h.model = str(row.model)
      const spawn = obj(obj(obj(tryJson(str(row.source) ?? ''))?.subagent)?.thread_spawn)
      const parent = str(spawn?.parent_thread_id)
      if (parent !== undefined) h.parentSessionId = parent
    }
    if (tables.has('thread_spawn_edges')) {
      for (const row of db.db.prepare('SELECT parent_thread_id, child_thread_id FROM thread_spawn_edges').all() as Record<string, unknown>[]) {
        const child = str(row.child_thread_id)
        const parent = str(row.parent_thread_id)
        if (child !== undefined && parent !== undefined) hintsFor(index, child).parentSessionId = parent
      }
    }
  } finally {
    db.close()
  }
}

/** `session_index.jsonl` names into `index` (later lines win). Bad lines are skipped. */
async function readSessionIndex(path: string, index: StateIndex): Promise<void> {
  const names = new Map<string, string>()
  for await (const { text } of readLines(path)) {
    const o = obj(tryJson(text))
    const id = str(o?.id)
    const name = str(o?.thread_name)
    if (id !== undefined && name?.trim()) names.set(id, name)
  }
  for (const [id, name] of names) {
    const h = hintsFor(index, id)
    h.threadName ??= name
  }
}

/**
 * Read the side stores of one Codex home. Never throws: an unreadable database or index is one
 * warning diagnostic and the rollouts alone are used.
 */
export async function readStateIndex(codexHome: string, diagnostics: Diagnostic[]): Promise<StateIndex> {
  const index: StateIndex = { byId: new Map(), idByFile: new Map() }
  const db = await stateDbPath(codexHome)
  if (db !== undefined) {
    try {
      readDb(db, index)
    } catch (e) {
      diagnostics.push({ severity: 'warning', path: db, agent: 'codex', message: `thread database is unreadable (${(e as Error).message}); titles come from the rollouts` })
    }
  }
  const sessionIndex = join(codexHome, 'session_index.jsonl')
  try {
    await readSessionIndex(sessionIndex, index)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      diagnostics.push({ severity: 'warning', path: sessionIndex, agent: 'codex', message: `thread names are unreadable (${(e as Error).message}); ignored` })
    }
  }
  return index
}
