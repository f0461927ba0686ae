/**
 * Read one Cursor agent CLI session into the IR: the `store.db` blob graph when it exists, else
 * the `agent-transcripts` JSONL (shared/formats/cursor-devin-atif-acp.md §B; seed 002 "Cursor" A).
 *
 * Session fields: title `meta['0'].name` or `meta.json` `title`; `createdAt` `meta['0'].createdAt`
 * or `meta.json` `createdAtMs`; `lastActivityAt` `meta.json` `updatedAtMs`; model from the first
 * `providerOptions.cursor.modelName`, else `meta['0'].lastUsedModel`; project path from
 * `meta.json` `cwd`, else the root checkpoint's workspace URI (field 9), else the project
 * folder's `.workspace-trusted` `{"workspacePath"}` — never from the lossy slug or the md5 folder
 * name. `blobEncryptionKey` is never copied (its presence is noted). No per-message times or usage
 * exist in either store.
 *
 * Transcript-only sessions have no clock but the file: `createdAt` and `lastActivityAt` are both
 * the transcript's mtime and `metadata.clock = 'file-mtime'` says so (when a `meta.json` of the
 * same id survived the store's pruning, its `createdAtMs`/`updatedAtMs` are used instead and
 * `metadata.clock = 'meta.json'`); messages never get a `createdAt`.
 */
import { readFile, stat } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import type { Session } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession, skipRecord } from '../../ir/build'
import { openSqliteReadOnly } from '../../util/sqlite'
import { arr, decodeCell, obj, text, toMs } from '../cursor/common/json'
import { uriToPath } from '../cursor/common/uri'
import type { ReadContext, StoreRef } from '../types'
import { finishCalls, messageNodes } from './messages'
import { type AgentHints, agentHints, FORMAT_TRANSCRIPT } from './refs'
import { readMeta, walkBlobs } from './store'
import { readTranscriptInto } from './transcript'
import { readRegularFile } from '../../util/regular-file'
import { plural } from '../../../shared/plural'

const SECRET = /encryptionkey/i

async function readJson(session: Session, path: string | undefined, what: string): Promise<unknown> {
  if (path === undefined) return undefined
  try {
    const cell = decodeCell(await readRegularFile(path))
    if (cell.problem === undefined) return cell.value
    addDiagnostic(session, { severity: 'warning', path, message: `${what}: ${cell.problem}; ignored` })
  } catch (e) {
    addDiagnostic(session, { severity: 'warning', path, message: `${what} is unreadable (${(e as Error).message}); ignored` })
  }
  return undefined
}

/** `meta.json`, `prompt_history.json` and `.workspace-trusted` → session fields. */
async function sideFiles(session: Session, h: AgentHints): Promise<void> {
  const meta = obj(await readJson(session, h.metaJson, 'meta.json'))
  if (meta) {
    const cwd = text(meta.cwd)
    if (cwd !== undefined) session.workingDirectory = cwd
    const title = text(meta.title)
    if (title !== undefined) session.title = title
    const created = toMs(meta.createdAtMs)
    if (created !== undefined) session.createdAt = created
    const updated = toMs(meta.updatedAtMs)
    if (updated !== undefined) session.lastActivityAt = updated
    for (const k of ['schemaVersion', 'hasConversation'] as const) if (meta[k] !== undefined) session.metadata[k] = meta[k]
  }
  const prompts = arr(await readJson(session, h.promptHistory, 'prompt_history.json'))
  if (prompts) session.promptHistory = prompts.filter((x): x is string => typeof x === 'string')
  if (session.workingDirectory === undefined && h.workspaceTrusted !== undefined) {
    const wp = text(obj(await readJson(session, h.workspaceTrusted, '.workspace-trusted'))?.workspacePath)
    if (wp !== undefined) {
      session.workingDirectory = wp
      session.metadata.cwdSource = '.workspace-trusted'
    }
  }
}

/** Read the store; returns false when the transcript should be used instead (diagnostics say why). */
function readStore(session: Session, db: string): boolean {
  let h
  try {
    h = openSqliteReadOnly(db)
  } catch (e) {
    addDiagnostic(session, { severity: 'error', path: db, message: `store.db cannot be opened: ${(e as Error).message}` })
    return false
  }
  try {
    const meta = readMeta(h.db)
    if (meta.problem !== undefined || !meta.value) {
      addDiagnostic(session, { severity: 'error', path: db, message: `${meta.problem ?? 'no meta'}; the message order is unknown` })
      return false
    }
    if (meta.note) addDiagnostic(session, { severity: 'info', path: db, message: meta.note })
    const m = meta.value
    const root = text(m.latestRootBlobId)
    if (root === undefined) {
      addDiagnostic(session, { severity: 'error', path: db, message: "meta['0'] has no latestRootBlobId; the message order is unknown" })
      return false
    }
    const walk = walkBlobs(h.db, root)
    for (const p of walk.partial) addDiagnostic(session, { severity: 'warning', path: db, message: `${p}; the transcript is partial` })
    if (walk.partial.length) session.metadata.partial = true
    if (walk.skipped.unreadable) skipRecord(session, { severity: 'warning', path: db, message: `${plural(walk.skipped.unreadable, 'message blob is', 'message blobs are')} not JSON; skipped` }, walk.skipped.unreadable)
    if (walk.skipped.notebook) session.metadata.notebookBlobs = walk.skipped.notebook
    let empty = 0
    walk.leaves.forEach((leaf, i) => {
      const out = messageNodes(leaf.blobId, leaf.message, (k) => `${leaf.blobId}:${k}`)
      if (out.problem) {
        session.metadata.partial = true
        addDiagnostic(session, { severity: 'warning', path: db, message: `message ${i + 1} (blob ${leaf.blobId}): ${out.problem}; the transcript is partial` })
      }
      if (out.empty) empty++
      for (const n of out.nodes) if (leaf.createdAt !== undefined) n.createdAt = leaf.createdAt
      session.nodes.push(...out.nodes)
    })
    if (empty) session.metadata.emptyMessages = empty
    const name = text(m.name)
    if (name !== undefined) session.title = name
    const created = toMs(m.createdAt)
    if (created !== undefined) session.createdAt = created
    const model = session.nodes.find((n) => n.role === 'assistant' && n.model)?.model ?? text(m.lastUsedModel)
    if (model !== undefined) session.model = model
    for (const k of ['mode', 'isRunEverything', 'lastUsedModel'] as const) if (m[k] !== undefined) session.metadata[k] = m[k]
    const secrets = Object.keys(m).filter((k) => SECRET.test(k))
    if (secrets.length) session.metadata.encryptionKeysPresent = secrets
    if (walk.clientTag !== undefined) session.metadata.clientTag = walk.clientTag
    if (session.workingDirectory === undefined && walk.workspaceUri !== undefined) {
      const p = walk.workspaceUri.includes('://') ? uriToPath(walk.workspaceUri) : { path: walk.workspaceUri }
      if (p) {
        session.workingDirectory = p.path
        session.metadata.cwdSource = 'checkpoint workspace URI'
      }
    }
    return true
  } finally {
    h.close()
  }
}

/** Link nodes into one chain (node order is the transcript order; extra nodes follow their message). */
function chain(session: Session): void {
  let prev: string | undefined
  const seen = new Map<string, number>()
  for (const n of session.nodes) {
    const k = seen.get(n.nodeId) ?? 0
    seen.set(n.nodeId, k + 1)
    if (k > 0) n.nodeId = `${n.nodeId}#${k + 1}`
    if (prev !== undefined) n.parentNodeId = prev
    prev = n.nodeId
  }
}

async function readTranscript(session: Session, path: string): Promise<void> {
  let mtimeMs: number
  try {
    mtimeMs = (await stat(path)).mtimeMs
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${(e as Error).message}`, path })
  }
  const counts = await readTranscriptInto(session, path)
  const fromMeta = session.createdAt !== undefined || session.lastActivityAt !== undefined
  session.metadata.clock = fromMeta ? 'meta.json' : 'file-mtime'
  session.createdAt ??= Math.round(mtimeMs)
  session.lastActivityAt ??= Math.round(mtimeMs)
  if (Object.keys(counts.recordTypes).length) session.metadata.recordTypes = counts.recordTypes
  if (counts.empty) session.metadata.emptyMessages = counts.empty
  session.metadata.noToolResults = true
}

/**
 * Read the session `ref` names. Bad lines, rows and blobs are diagnostics; rejects with
 * `READ_FAILED` only when neither the store nor a transcript can be opened.
 */
export async function readCursorAgentSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  let h: AgentHints
  try {
    h = agentHints(ref)
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: (e as Error).message })
  }
  const session = newSession('cursor-agent', ref.sessionId, ref.format, ref.files, ref.home)
  if (ref.parentSessionId !== undefined) session.parentSessionId = ref.parentSessionId
  await sideFiles(session, h)
  const fromStore = h.storeDb !== undefined && readStore(session, h.storeDb)
  if (!fromStore) {
    if (h.transcript === undefined) {
      if (h.storeDb === undefined) throw new SepiaError({ code: 'READ_FAILED', message: `session ${ref.sessionId} has neither store.db nor a transcript` })
    } else {
      if (h.storeDb !== undefined) {
        addDiagnostic(session, { severity: 'info', path: h.transcript, message: 'read from the agent transcript instead of store.db (no tool results, no times)' })
        session.source.format = FORMAT_TRANSCRIPT
      }
      await readTranscript(session, h.transcript)
    }
  }
  finishCalls(session.nodes)
  chain(session)
  return finishSession(session)
}
