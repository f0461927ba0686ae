/**
 * Read one Cursor IDE session (any storage generation, see `refs.ts`) into the IR.
 *
 * Session fields: title `name` (else the first prompt), times from the composer (`createdAt`,
 * `lastUpdatedAt`, ms) or the chat tab (`lastSendTime`), project from discovery's mapping
 * (`project.ts`, rule in `metadata.project.via`), model from the first assistant bubble's
 * `modelInfo.modelName`, else `modelConfig.modelName` unless `"default"`. Per-message usage is
 * `tokenCount` as recorded (input includes whatever Cursor counted; cache reads are not split out).
 */
import { SepiaError } from '../../../shared/api'
import type { Session } from '../../../shared/ir'
import { finishSession, newSession } from '../../ir/build'
import type { ReadContext, StoreRef } from '../types'
import type { Json } from './common/json'
import { acquireSnapshot, type StoreSnapshot } from './common/snapshot'
import { readComposerInto, readTaskInto } from './read-composer'
import { readLegacyInto } from './read-legacy'
import { type CursorHints, cursorHints } from './refs'

function fail(path: string, e: unknown): never {
  throw new SepiaError({ code: 'READ_FAILED', message: `cannot open ${path}: ${(e as Error).message}`, path })
}

function applyProject(session: Session, hints: CursorHints): void {
  const p = hints.project
  if (!p) return
  session.workingDirectory = p.path
  const meta: Json = { via: p.via }
  if (p.remote !== undefined) meta.remote = p.remote
  if (p.workspaceId !== undefined) meta.workspaceId = p.workspaceId
  session.metadata.project = meta
}

/**
 * Read the session `ref` names. Bad rows become diagnostics; rejects with `READ_FAILED` only when
 * the database cannot be copied or opened, or the ref has no Cursor hints.
 */
export async function readCursorSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  let hints: CursorHints
  try {
    hints = cursorHints(ref)
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: (e as Error).message })
  }
  const session = newSession('cursor', ref.sessionId, ref.format, ref.files, ref.home)
  if (ref.parentSessionId !== undefined) session.parentSessionId = ref.parentSessionId
  applyProject(session, hints)
  if (hints.kind === 'composer' || hints.kind === 'task') {
    let s: StoreSnapshot
    try {
      s = acquireSnapshot(hints.db)
    } catch (e) {
      fail(hints.db, e)
    }
    try {
      if (hints.kind === 'composer') readComposerInto(session, s, hints.db, ref.sessionId)
      else {
        readTaskInto(session, s, hints.db, ref.sessionId)
        if (hints.toolCallId !== undefined) session.parentToolCallId = hints.toolCallId
      }
    } finally {
      s.release()
    }
  } else {
    try {
      readLegacyInto(session, hints.db, hints.itemKey ?? '', hints.kind)
    } catch (e) {
      fail(hints.db, e)
    }
  }
  return finishSession(session)
}
