/**
 * Write a prepared session (src/main/convert/prepare.ts) as a new Pi 0.73.1 session that
 * `pi --session <id>`, run in the project folder, continues.
 *
 * What the CLI needs (@mariozechner/pi-coding-agent 0.73.1 `dist/core/session-manager.js`,
 * `dist/main.js` `resolveSessionPath`; checked against the real store in fixtures/real/pi):
 * - the file `~/.pi/agent/sessions/--<cwd>--/<timestamp>_<id>.jsonl`: the project path without its
 *   leading `/` or `\`, every `/`, `\` and `:` replaced by `-` (`getDefaultSessionDir`); the
 *   timestamp is the header's ISO time with `:` and `.` replaced by `-`. `--session <id>` matches
 *   the id (or a prefix) among the sessions of the project the CLI runs in, then of every project;
 * - line 1, the header `{type: "session", version: 3, id, timestamp, cwd}` (`loadEntriesFromFile`
 *   drops a file whose first line is not one);
 * - entries `{type, id (8 hex), parentId, timestamp}`, one chain; Pi's leaf is the last entry and
 *   the conversation is the path to it (`buildSessionContext`): write-entries.ts.
 * The session id is the injected UUID (Pi's own are UUIDv7s; any string the prefix match finds
 * works). The title is a `session_info` entry (`name`) at the end of the chain, where Pi's
 * `/name` puts it. The origin is kept as `importedFrom{agent, sessionId, path, importedAt,
 * importer}` on the header (Pi reads the fields it knows and keeps the file as it is).
 */
import { SepiaError } from '../../../shared/api'
import { type ConvertWarning, quoteArg } from '../../../shared/convert'
import type { Session } from '../../../shared/ir'
import { FileTransaction } from '../../util/file-transaction'
import { pathApiFor } from '../../platform'
import type { WriteOptions, WriteResult } from '../types'
import { PI_SESSION_VERSION, sessionEntries } from './write-entries'

/** Pi's folder name for a project path (`getDefaultSessionDir`). */
export function piProjectFolder(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`
}

/** Warnings for what a Pi session cannot hold: none (usage and cost have their fields; write-entries.ts). */
function warningsFor(_session: Session): ConvertWarning[] {
  return []
}

/**
 * Write `session` as a new Pi session under `options.layout` (see the module comment). With
 * `dryRun` nothing is written. Rejects `WRITE_FAILED` (nothing left behind) on any error, and when
 * the file already exists (never overwritten).
 */
export async function writePiSession(session: Session, options: WriteOptions): Promise<WriteResult> {
  const p = pathApiFor(options.layout.home)
  const cwd = session.workingDirectory ?? options.layout.home
  const id = options.newId()
  const now = options.now()
  const start = session.createdAt ?? now
  const startIso = new Date(start).toISOString()
  const file = p.join(options.layout.home, '.pi', 'agent', 'sessions', piProjectFolder(cwd), `${startIso.replace(/[:.]/g, '-')}_${id}.jsonl`)
  const output = { sessionId: id, files: [file], resumeCommand: `pi --session ${quoteArg(id, options.layout.os)}`, cwd, backups: [] as string[] }
  const warnings = warningsFor(session)
  if (options.dryRun) return { output, warnings }

  const importedFrom: Record<string, unknown> = { agent: options.sourceRef.agent, sessionId: options.sourceRef.sessionId }
  if (options.sourceRef.path) importedFrom.path = options.sourceRef.path
  Object.assign(importedFrom, { importedAt: new Date(now).toISOString(), importer: 'sepia' })
  const header = { type: 'session', version: PI_SESSION_VERSION, id, timestamp: startIso, cwd, importedFrom }
  function* lines(): Generator<string> {
    yield JSON.stringify(header) + '\n'
    for (const e of sessionEntries(session, options.newId, start)) yield JSON.stringify(e) + '\n'
  }
  const tx = new FileTransaction(options.fault)
  try {
    await tx.stage(file, lines())
    await tx.commit()
  } catch (e) {
    await tx.rollback()
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the Pi session: ${(e as Error).message}. Nothing was left behind.`, path: file })
  }
  return { output, warnings }
}
