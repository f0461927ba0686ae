/**
 * Write a prepared session (src/main/convert/prepare.ts) as a new Gemini CLI 0.61 chat that
 * `gemini --resume <id>`, run in the project folder, continues.
 *
 * What the CLI needs (realstores/README.md "Gemini CLI 0.61.0", hand-written probe: "the header line
 * plus message lines"; @google/gemini-cli 0.61.0 chatRecordingService.ts, sessionUtils.ts):
 * - the file `~/.gemini/tmp/<slug>/chats/session-<YYYY-MM-DDTHH-MM>-<first 8 of id>.jsonl` (UTC
 *   minute of the start, as the CLI names it); `--resume <id>` looks only in the folder of the
 *   project the CLI runs in, whose slug `write-project.ts` computes the CLI's way. Missing
 *   `.project_root` markers of that folder are created; `projects.json` is never changed (the CLI
 *   adds its entry on first use; probe 02 resumed without it);
 * - a header line `{sessionId, projectHash, startTime, lastUpdated, kind:"main"}` — without it
 *   the session is not listed ("No previous sessions found", probe 03); `projectHash` is the
 *   SHA-256 (hex) of the project path; the session id is a UUID (the CLI's own ids);
 * - message lines (write-records.ts). Any metadata field of the header is kept by the CLI, so the
 *   origin is recorded there as `importedFrom{agent, sessionId, path, importedAt, importer}`; the
 *   title is the session `summary` (a `$set` line, as the CLI writes it; shown by `--list-sessions`).
 * Gemini CLI leaves out, on resume, a user message whose text starts with `/` or `?`
 * (`isIgnoredUserContent`): such messages are written but counted in a warning.
 */
import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { SepiaError } from '../../../shared/api'
import { type ConvertWarning, quoteArg } from '../../../shared/convert'
import type { Session } from '../../../shared/ir'
import { FileTransaction } from '../../util/file-transaction'
import type { WriteOptions, WriteResult } from '../types'
import { geminiProjectFolder } from './write-project'
import { messageRecords, skippedOnResume } from './write-records'

/** The chats file name the CLI gives a session started at `startMs`: `session-<UTC YYYY-MM-DDTHH-MM>-<first 8 of id>.jsonl`. */
export function chatFileName(startMs: number, sessionId: string): string {
  return `session-${new Date(startMs).toISOString().slice(0, 16).replace(/:/g, '-')}-${sessionId.slice(0, 8)}.jsonl`
}

/** `projectHash` of a chats header: SHA-256 (hex) of the project path (fixtures/real/gemini: `/home/ana/src/notes-app`). */
export function projectHash(projectPath: string): string {
  return createHash('sha256').update(projectPath).digest('hex')
}

/** True when `chatsDir` already holds a chats file for the same first 8 characters of an id. */
function shortIdTaken(chatsDir: string, id: string): boolean {
  try {
    return readdirSync(chatsDir).some((f) => f.endsWith(`-${id.slice(0, 8)}.jsonl`) || f.endsWith(`-${id.slice(0, 8)}.json`))
  } catch {
    return false
  }
}

const iso = (ms: number): string => new Date(ms).toISOString()

/** The whole chats file, one JSON line at a time. */
function* fileLines(session: Session, header: Record<string, unknown>, options: WriteOptions, start: number): Generator<string> {
  yield JSON.stringify(header) + '\n'
  for (const r of messageRecords(session, options.newId, start)) yield JSON.stringify(r) + '\n'
  if (session.title) yield JSON.stringify({ $set: { summary: session.title } }) + '\n'
}

/** Warnings for what a Gemini chat cannot hold or the CLI does not send back. */
function warningsFor(session: Session): ConvertWarning[] {
  const withCost = session.nodes.filter((n) => n.usage?.cost !== undefined).length
  const skipped = session.nodes.filter((n) => n.role === 'user' && skippedOnResume(n.content)).length
  return [
    { kind: 'usage-not-representable', count: withCost },
    { kind: 'message-skipped-by-target', count: skipped },
  ]
}

/**
 * Write `session` as a new Gemini CLI chat under `options.layout` (see the module comment). With
 * `dryRun` nothing is written. Rejects `WRITE_FAILED` (nothing left behind) on any error.
 */
export async function writeGeminiSession(session: Session, options: WriteOptions): Promise<WriteResult> {
  const geminiDir = join(options.layout.home, '.gemini')
  const cwd = session.workingDirectory ?? options.layout.home
  const project = geminiProjectFolder(geminiDir, cwd, options.layout.os)
  const chatsDir = join(geminiDir, 'tmp', project.slug, 'chats')
  const now = options.now()
  const start = session.createdAt ?? now
  let id = options.newId()
  for (let k = 0; k < 5 && shortIdTaken(chatsDir, id); k++) id = options.newId()
  const file = join(chatsDir, chatFileName(start, id))
  const output = { sessionId: id, files: [file, ...project.missingMarkers], resumeCommand: `gemini --resume ${quoteArg(id, options.layout.os)}`, cwd, backups: [] as string[] }
  const warnings = warningsFor(session)
  if (options.dryRun) return { output, warnings }

  const importedFrom: Record<string, unknown> = { agent: options.sourceRef.agent, sessionId: options.sourceRef.sessionId }
  if (options.sourceRef.path) importedFrom.path = options.sourceRef.path
  Object.assign(importedFrom, { importedAt: iso(now), importer: 'sepia' })
  const header = {
    sessionId: id,
    projectHash: projectHash(project.projectPath),
    startTime: iso(start),
    lastUpdated: iso(Math.max(start, session.lastActivityAt ?? start)),
    kind: 'main',
    importedFrom,
  }
  const tx = new FileTransaction(options.fault)
  try {
    await tx.stage(file, fileLines(session, header, options, start))
    for (const marker of project.missingMarkers) await tx.stage(marker, project.projectPath)
    await tx.commit()
  } catch (e) {
    await tx.rollback()
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the Gemini CLI session: ${(e as Error).message}. Nothing was left behind.`, path: file })
  }
  return { output, warnings }
}
