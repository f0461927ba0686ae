/**
 * Discovery of Cline SDK sessions under `<clineDataDir>/sessions/` and `db/sessions.db`
 * (seed 000 "Transcript stores", "sessions.db and teams.db"; seed 002 "Index + sub-agents";
 * `fixtures/real/cline/README.md` "Worth knowing" and "Hand-written sessions").
 *
 * What is listed:
 * - every `sessions/<id>/` with a manifest `<id>.json` (format `cline-sdk`, or
 *   `cline-sdk-subagent` when its row says `is_subagent` or the id holds `__teamtask__`);
 * - every sessions.db row whose manifest is gone (the CLI lists those too), with its transcript
 *   when `messages_path` still exists, else with no transcript (read gives a warning);
 * - every other `*.messages.json` in a session folder not claimed by a manifest or row: a
 *   sub-agent transcript (`agent_<agentId>.messages.json`, `<agentId>__<teamTaskId>.messages.json`),
 *   listed as a child of the folder's session;
 * - a folder holding only `<id>.messages.json` (no manifest, no row). The CLI does not list those
 *   (`handwritten/04-messages-json-only`); Sepia does, because the transcript is all there, and
 *   `read` notes it with an info diagnostic.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { AgentId, Diagnostic } from '../../../shared/ir'
import type { StoreRef } from '../types'
import { isRecord, tryParseJson } from '../../util/json'
import { localSessionsPath, peekMessagesHead, readSessionRows, type SdkHints, type SessionRow } from './sdk-store'
import { readRegularFile } from '../../util/regular-file'
import { mapInOrder } from '../../util/in-order'
import { folderNamedLikeFileMessage, storeEntries } from '../link-loop'

/** SDK store generation names (Session.source.format). */
export const SDK_FORMAT = 'cline-sdk'
/** A sub-agent transcript of the SDK store. */
export const SDK_SUBAGENT_FORMAT = 'cline-sdk-subagent'

/**
 * Find the SDK sessions of one Cline data dir. Pushes refs and diagnostics; never throws.
 * `home` is recorded on each ref.
 */
export async function discoverSdk(
  agent: AgentId,
  clineDataDir: string,
  home: string,
  refs: StoreRef[],
  diagnostics: Diagnostic[],
): Promise<void> {
  const sessionsDir = join(clineDataDir, 'sessions')
  const dbPath = join(clineDataDir, 'db', 'sessions.db')
  let rows = new Map<string, SessionRow>()
  if (await exists(dbPath)) {
    try {
      rows = readSessionRows(dbPath)
    } catch (err) {
      diagnostics.push({
        severity: 'warning',
        skipped: 1,
        path: dbPath,
        message: `Could not read the Cline session index (${(err as Error).message}); sessions are listed from their folders only.`,
        agent,
      })
    }
  }
  const seen = new Set<string>()
  const claimed = new Set<string>()
  const candidates: { path: string; parentDir: string }[] = []
  const push = async (sessionId: string, format: string, files: string[], hints: SdkHints, parent?: string, stamp?: { size: number; mtimeMs: number }) => {
    seen.add(sessionId)
    if (hints.messages) claimed.add(hints.messages)
    const ref: StoreRef = { agent, sessionId, format, files, home, hints: hints as unknown as Record<string, unknown>, ...(stamp ?? (await sizeAndTime(files))) }
    if (parent) ref.parentSessionId = parent
    refs.push(ref)
  }

  let dirs: string[] = []
  try {
    // Session folders, links to folders followed; a link that loops or leads above is named, not followed (agents/link-loop.ts).
    dirs = (await storeEntries(sessionsDir, await readdir(sessionsDir, { withFileTypes: true }), agent, diagnostics)).folders
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      diagnostics.push({ severity: 'error', path: sessionsDir, message: `Could not list Cline sessions: ${(err as Error).message}`, agent })
    }
  }

  // Each folder is looked at side by side (`mapInOrder`: listing, manifest, stats), then taken in
  // name order as one loop would.
  const looked = await mapInOrder(dirs, async (dir) => {
    const dirPath = join(sessionsDir, dir)
    let names: string[] = []
    /** A folder named like the manifest or the messages file (`<id>.json/`): named, not read. */
    const odd: Diagnostic[] = []
    try {
      const entries = await readdir(dirPath, { withFileTypes: true })
      for (const e of entries) {
        if (e.isDirectory() && (e.name === `${dir}.json` || e.name.endsWith('.messages.json'))) odd.push({ severity: 'warning', skipped: 1, path: join(dirPath, e.name), message: folderNamedLikeFileMessage(join(dirPath, e.name)), agent })
      }
      names = entries.filter((e) => !e.isDirectory()).map((e) => e.name).sort()
    } catch {
      return undefined
    }
    const manifestPath = names.includes(`${dir}.json`) ? join(dirPath, `${dir}.json`) : undefined
    const manifest = manifestPath ? await readJsonObject(manifestPath) : undefined
    const sessionId = typeof manifest?.session_id === 'string' && manifest.session_id ? manifest.session_id : dir
    const row = rows.get(sessionId)
    const own = names.includes(`${dir}.messages.json`) ? join(dirPath, `${dir}.messages.json`) : undefined
    const messages =
      (await existing(localSessionsPath(manifest?.messages_path, sessionsDir))) ??
      (await existing(localSessionsPath(row?.messages_path, sessionsDir))) ??
      own
    const db = !manifestPath && row ? dbPath : undefined
    const files = [manifestPath, messages, db].filter((f): f is string => !!f)
    const stamp = manifestPath || row || own ? await sizeAndTime(files) : undefined
    return { dir, dirPath, names, odd, manifestPath, sessionId, row, own, messages, files, stamp }
  })
  for (const l of looked) {
    if (!l) continue
    const { dir, dirPath, names, odd, manifestPath, sessionId, row, own, messages, files, stamp } = l
    diagnostics.push(...odd)
    for (const n of names) {
      const p = join(dirPath, n)
      if (n.endsWith('.messages.json') && p !== messages) candidates.push({ path: p, parentDir: dir })
    }
    if (!manifestPath && !row && !own) continue
    if (seen.has(sessionId)) continue
    const sub = isSubagent(sessionId, row)
    const hints: SdkHints = { kind: 'sdk' }
    if (manifestPath) hints.manifest = manifestPath
    if (messages) hints.messages = messages
    if (row) hints.row = row
    if (!manifestPath && row) hints.db = dbPath
    if (!manifestPath && !row) hints.unindexed = true
    if (names.includes(`${dir}.compaction.json`)) hints.compaction = join(dirPath, `${dir}.compaction.json`)
    await push(sessionId, sub ? SDK_SUBAGENT_FORMAT : SDK_FORMAT, files, hints, parentOf(sessionId, row), stamp)
  }

  // Rows whose manifest folder is gone (handwritten/03, /05) or that live in a parent's folder.
  for (const row of [...rows.values()].sort((a, b) => a.session_id.localeCompare(b.session_id))) {
    if (seen.has(row.session_id)) continue
    const messages = await existing(localSessionsPath(row.messages_path, sessionsDir))
    const hints: SdkHints = { kind: 'sdk', row, db: dbPath }
    if (messages) {
      hints.messages = messages
      if (basename(messages) !== `${row.session_id}.messages.json`) hints.subagentFile = true
    }
    const files = messages ? [messages, dbPath] : [dbPath]
    await push(row.session_id, isSubagent(row.session_id, row) ? SDK_SUBAGENT_FORMAT : SDK_FORMAT, files, hints, parentOf(row.session_id, row))
  }

  // Sub-agent transcripts no manifest or row claims: children of the folder they sit in.
  for (const c of candidates) {
    if (claimed.has(c.path)) continue
    const head = await peekMessagesHead(c.path)
    const stem = basename(c.path).slice(0, -'.messages.json'.length)
    const sessionId = head.sessionId && head.sessionId !== c.parentDir ? head.sessionId : `${c.parentDir}__${stem}`
    if (seen.has(sessionId)) continue
    const hints: SdkHints = { kind: 'sdk', messages: c.path, subagentFile: true }
    await push(sessionId, SDK_SUBAGENT_FORMAT, [c.path], hints, head.parentThreadId ?? c.parentDir)
  }
}

/** A session is a sub-agent when its row says so or its id is a team-task id (seed 002). */
function isSubagent(sessionId: string, row: SessionRow | undefined): boolean {
  return !!row?.is_subagent || !!row?.parent_session_id || sessionId.includes('__teamtask__')
}

/** Parent id from the row, else from a `<parent>__teamtask__...` / `<parent>__agent_...` id. */
export function parentOf(sessionId: string, row: SessionRow | undefined): string | undefined {
  if (row?.parent_session_id) return row.parent_session_id
  const m = /^(.+?)__(?:teamtask__|agent_)/.exec(sessionId)
  return m?.[1]
}

async function readJsonObject(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    const v = tryParseJson(await readRegularFile(path))
    return isRecord(v) ? v : undefined
  } catch {
    return undefined
  }
}

/** The path when a file exists there. */
async function existing(path: string | undefined): Promise<string | undefined> {
  return path && (await exists(path)) ? path : undefined
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}

/**
 * Total size (bytes) and newest mtime (ms since epoch) of `files`; missing files count as 0.
 * Shared by the SDK and legacy discovery.
 */
export async function sizeAndTime(files: string[]): Promise<{ size: number; mtimeMs: number }> {
  let size = 0
  let mtimeMs = 0
  for (const f of files) {
    try {
      const s = await stat(f)
      size += s.size
      mtimeMs = Math.max(mtimeMs, Math.floor(s.mtimeMs))
    } catch {
      // missing: counted as 0
    }
  }
  return { size, mtimeMs }
}
