/**
 * Opening one store file on its own (issue "Review bundles": "Drag and drop a folder, a zip or a
 * single store file onto the window opens it"): recognise whose file it is from its content,
 * then build a temporary home with a copy of it where that agent keeps it, so the agent's own
 * reader reads it. The source file is only read.
 *
 * Recognised (the readers' discovery documents the places):
 * - Claude Code transcript `.jsonl` (records with `sessionId`, `uuid`, `type` user/assistant) →
 *   `.claude/projects/<cwd as folder name>/<name>`;
 * - Codex rollout `.jsonl` (first record `type: "session_meta"`) → `.codex/sessions/<name>`;
 * - Gemini CLI chat `.jsonl`/`.json` (`sessionId` + `projectHash`) → `.gemini/tmp/imported/chats/session-…`;
 * - Cursor agent transcript `.jsonl` (`role` + `message`) → `.cursor/projects/imported/agent-transcripts/<name>`;
 * - Cline SDK `<id>.messages.json` → `.cline/data/sessions/<id>/`; Cline legacy task files
 *   (`ui_messages.json`, `api_conversation_history.json`, with their task folder's siblings) →
 *   `.cline/data/tasks/<task id>/`;
 * - ATIF `.json` (Devin transcript) → `.local/share/devin/cli/transcripts/<name>`;
 * - SQLite: Devin `sessions.db` (`message_nodes`), OpenCode/Kilo (`session` + `part`), Cursor
 *   `state.vscdb` (`cursorDiskKV`/`ItemTable`), Cursor agent `store.db` (`blobs` + `meta`); the
 *   `-wal`/`-shm` files are copied with them.
 */
import { copyFile, mkdir, open, readdir, stat, utimes } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { AgentId } from '../../shared/ir'
import { openSqliteReadOnly } from '../util/sqlite'

/** Where a recognised store file goes in a temporary home. */
export interface SinglePlacement {
  agent: AgentId
  /** Home-relative path (POSIX) of the file. */
  dest: string
  /** Other files to copy beside it: absolute source → home-relative dest. */
  extra: [string, string][]
}

const HEAD = 256 * 1024

/** Recognise a store file. Resolves undefined when Sepia does not know it. */
export async function recogniseStoreFile(path: string): Promise<SinglePlacement | undefined> {
  const name = basename(path)
  const head = await readHead(path)
  if (head.subarray(0, 16).toString('latin1') === 'SQLite format 3\0') return recogniseDatabase(path, name)
  const text = head.toString('utf8')
  if (/\.jsonl$/i.test(name)) return recogniseJsonl(name, text)
  if (/\.json$/i.test(name)) return recogniseJson(path, name, text)
  return undefined
}

function recogniseJsonl(name: string, text: string): SinglePlacement | undefined {
  const records: Record<string, unknown>[] = []
  for (const line of text.split('\n').slice(0, 50)) {
    try {
      const v = JSON.parse(line) as unknown
      if (v && typeof v === 'object' && !Array.isArray(v)) records.push(v as Record<string, unknown>)
    } catch {
      // a cut last line, or a bad line
    }
  }
  const first = records[0]
  if (!first) return undefined
  if (first.type === 'session_meta' || /^rollout-.+\.jsonl$/i.test(name)) return { agent: 'codex', dest: `.codex/sessions/${name}`, extra: [] }
  if (typeof first.sessionId === 'string' && typeof first.projectHash === 'string') return geminiPlacement(name)
  const claude = records.find((r) => typeof r.sessionId === 'string' && typeof r.uuid === 'string' && (r.type === 'user' || r.type === 'assistant'))
  if (claude) {
    const cwd = typeof claude.cwd === 'string' ? claude.cwd : records.map((r) => r.cwd).find((c): c is string => typeof c === 'string')
    const folder = cwd ? cwd.replace(/[^A-Za-z0-9]/g, '-') : '-imported'
    return { agent: 'claude-code', dest: `.claude/projects/${folder}/${name}`, extra: [] }
  }
  if (records.some((r) => (r.role === 'user' || r.role === 'assistant') && r.message && typeof r.message === 'object')) {
    return { agent: 'cursor-agent', dest: `.cursor/projects/imported/agent-transcripts/${name}`, extra: [] }
  }
  return undefined
}

async function recogniseJson(path: string, name: string, text: string): Promise<SinglePlacement | undefined> {
  const dir = dirname(path)
  if (/\.messages\.json$/i.test(name)) {
    const id = name.slice(0, -'.messages.json'.length)
    return { agent: 'cline', dest: `.cline/data/sessions/${id}/${name}`, extra: [] }
  }
  if (/^(ui_messages|api_conversation_history)\.json$/i.test(name)) {
    const parent = basename(dir)
    const id = /^\d+$/.test(parent) ? parent : String(Math.round((await stat(path)).mtimeMs))
    const extra: [string, string][] = []
    const siblings = new Set(await readdir(dir).catch(() => [] as string[]))
    for (const s of ['ui_messages.json', 'api_conversation_history.json', 'task_metadata.json', 'history_item.json']) {
      if (s !== name && siblings.has(s)) extra.push([join(dir, s), `.cline/data/tasks/${id}/${s}`])
    }
    return { agent: 'cline', dest: `.cline/data/tasks/${id}/${name}`, extra }
  }
  const start = text.slice(0, 4096)
  if (/"schema_version"\s*:\s*"ATIF-v/.test(start)) return { agent: 'devin', dest: `.local/share/devin/cli/transcripts/${name}`, extra: [] }
  if (/"sessionId"\s*:/.test(start) && /"projectHash"\s*:/.test(start)) return geminiPlacement(name)
  return undefined
}

function geminiPlacement(name: string): SinglePlacement {
  const file = /^session-/i.test(name) ? name : `session-${name}`
  return { agent: 'gemini', dest: `.gemini/tmp/imported/chats/${file}`, extra: [] }
}

function recogniseDatabase(path: string, name: string): SinglePlacement | undefined {
  let tables: Set<string>
  try {
    const db = openSqliteReadOnly(path)
    try {
      tables = new Set((db.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name))
    } finally {
      db.close()
    }
  } catch {
    return undefined
  }
  const withSidecars = (agent: AgentId, dest: string): SinglePlacement => ({ agent, dest, extra: ['-wal', '-shm'].map((s) => [path + s, dest + s] as [string, string]) })
  if (tables.has('message_nodes')) return withSidecars('devin', '.local/share/devin/cli/sessions.db')
  if (tables.has('session') && tables.has('part')) {
    return /^kilo/i.test(name) ? withSidecars('kilo-code', '.local/share/kilo/kilo.db') : withSidecars('opencode', '.local/share/opencode/opencode.db')
  }
  if (tables.has('cursorDiskKV')) return withSidecars('cursor', '.config/Cursor/User/globalStorage/state.vscdb')
  if (tables.has('ItemTable')) return withSidecars('cursor', '.config/Cursor/User/workspaceStorage/imported/state.vscdb')
  if (tables.has('blobs') && tables.has('meta')) {
    const id = basename(dirname(path)) || 'imported'
    return withSidecars('cursor-agent', `.cursor/chats/imported/${id}/store.db`)
  }
  return undefined
}

/** Copy the file (and its extras that exist) into `home` at their places. */
export async function placeStoreFile(source: string, placement: SinglePlacement, home: string): Promise<void> {
  for (const [src, dest] of [[source, placement.dest] as [string, string], ...placement.extra]) {
    let mtime: Date
    try {
      const st = await stat(src)
      if (!st.isFile()) continue
      mtime = st.mtime
    } catch {
      continue
    }
    const target = join(home, ...dest.split('/'))
    await mkdir(dirname(target), { recursive: true })
    await copyFile(src, target)
    await utimes(target, new Date(), mtime).catch(() => undefined)
  }
}

async function readHead(path: string): Promise<Buffer> {
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(HEAD)
    const { bytesRead } = await fh.read(buf, 0, HEAD, 0)
    return buf.subarray(0, bytesRead)
  } finally {
    await fh.close()
  }
}
