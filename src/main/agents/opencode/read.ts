/**
 * Read one OpenCode-family session into the IR, from whichever store its ref names: a SQLite row
 * (`<prefix>-db`), the JSON storage (`<prefix>-json`) or an export file (`<prefix>-export`).
 */
import { stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { SepiaError } from '../../../shared/api'
import type { Session } from '../../../shared/ir'
import type { StoreRef } from '../types'
import { type OpencodeFamilyConfig, formatsOf } from './config'
import { toSession } from './session'
import { loadDbSession } from './source-db'
import { loadExportFile, loadJsonSession } from './source-json'
import type { StoredSession } from './store'

function failed(message: string, path?: string): SepiaError {
  return new SepiaError(path === undefined ? { code: 'READ_FAILED', message } : { code: 'READ_FAILED', message, path })
}

/** Throw READ_FAILED when the primary file cannot be opened at all. */
async function mustExist(path: string): Promise<void> {
  try {
    const s = await stat(path)
    if (!s.isFile()) throw new Error('not a file')
  } catch (e) {
    throw failed(`cannot read ${path}: ${(e as Error).message}`, path)
  }
}

/**
 * Read the session `ref` names. Bad rows, files and parts become diagnostics on the session;
 * rejects with `READ_FAILED` only when the database or session file cannot be opened, the session
 * row is gone, or the format is not this member's.
 */
export async function readFamilySession(ref: StoreRef, config: OpencodeFamilyConfig): Promise<Session> {
  const primary = ref.files[0]
  if (primary === undefined) throw failed('store ref lists no file')
  const formats = formatsOf(config)
  await mustExist(primary)
  let stored: StoredSession | undefined
  if (ref.format === formats.db) {
    try {
      stored = loadDbSession(primary, ref.sessionId)
    } catch (e) {
      throw failed(`cannot read database ${primary}: ${(e as Error).message}`, primary)
    }
    if (!stored) throw failed(`session ${ref.sessionId} is no longer in ${primary}`, primary)
    stored.files = [...ref.files]
  } else if (ref.format === formats.json) {
    // storage/session/<projectID>/<id>.json → storage
    stored = await loadJsonSession(dirname(dirname(dirname(primary))), primary)
    if (stored.id !== ref.sessionId) stored.id = ref.sessionId
  } else if (ref.format === formats.export) {
    stored = await loadExportFile(primary)
  } else {
    throw failed(`${config.displayName} cannot read store format "${ref.format}"`, primary)
  }
  const kids = ref.hints?.childSessionIds
  const children = Array.isArray(kids) ? kids.filter((x): x is string => typeof x === 'string') : undefined
  return toSession(stored, config.id, ref.format, ref.home, children)
}
