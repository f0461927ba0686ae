/**
 * Write a prepared session (src/main/convert/prepare.ts) as a new Qwen Code 0.15.10 chat that
 * `qwen --resume <id>`, run in the project folder, continues.
 *
 * What the CLI needs (@qwen-code/qwen-code 0.15.10 `cli.js`: packages/core/src/services/
 * sessionService.ts `loadSession`, `reconstructHistory`, `buildApiHistoryFromConversation`;
 * config/storage.ts `getProjectDir`, paths.ts `sanitizeCwd`; checked against the real store in
 * fixtures/real/qwen-code):
 * - the file `~/.qwen/projects/<sanitizeCwd(project)>/chats/<sessionId>.jsonl`: the project path
 *   with every character outside `[A-Za-z0-9]` replaced by `-` (lower-cased first on Windows); the
 *   id must match `^[0-9a-fA-F-]{32,36}$` (`SESSION_FILE_PATTERN`): a UUID;
 * - the first record's `cwd` is the project path (`loadSession` compares its SHA-256 with the
 *   project the CLI runs in and ignores the file otherwise);
 * - the conversation is the `parentUuid` chain from the file's last record; each record's `message`
 *   (a Gemini API `Content`) is sent as it is: write-records.ts.
 * The title is a `system` record `subtype: "custom_title"` at the end of the chain (what the CLI's
 * `renameSession` appends). The origin is kept as `importedFrom{agent, sessionId, path, importedAt,
 * importer}` on the first record (the CLI keeps unknown fields and never rewrites a record).
 * No `meta.json` is written: the CLI creates it for a project when it runs there, and does not need
 * it to resume.
 *
 * Reused from the Gemini writer: the `Part`s of text, images and text files (`partsOfBlocks`
 * shapes) and the `functionResponse` of a result; different: the file, the folder, the record
 * envelope and tree, tool results as records of their own, usage as `usageMetadata`.
 */
import { SepiaError } from '../../../shared/api'
import { type ConvertWarning, quoteArg } from '../../../shared/convert'
import type { HomeOs, Session } from '../../../shared/ir'
import { FileTransaction } from '../../util/file-transaction'
import { pathApiFor } from '../../platform'
import type { WriteOptions, WriteResult } from '../types'
import { chatRecords, QWEN_FORMAT_VERSION } from './write-records'

/** Qwen Code's folder name for a project path (`sanitizeCwd`; lower-cased first on Windows). */
export function sanitizeCwd(cwd: string, os: HomeOs): string {
  return (os === 'win32' ? cwd.toLowerCase() : cwd).replace(/[^a-zA-Z0-9]/g, '-')
}

/** Warnings for what a Qwen Code chat cannot hold. */
function warningsFor(session: Session): ConvertWarning[] {
  const withCost = session.nodes.filter((n) => n.usage?.cost !== undefined).length
  return [{ kind: 'usage-not-representable', count: withCost }]
}

/**
 * Write `session` as a new Qwen Code chat under `options.layout` (see the module comment). With
 * `dryRun` nothing is written. Rejects `WRITE_FAILED` (nothing left behind) on any error, and when
 * the file already exists (never overwritten).
 */
export async function writeQwenCodeSession(session: Session, options: WriteOptions): Promise<WriteResult> {
  const p = pathApiFor(options.layout.home)
  const cwd = session.workingDirectory ?? options.layout.home
  const id = options.newId()
  const file = p.join(options.layout.home, '.qwen', 'projects', sanitizeCwd(cwd, options.layout.os), 'chats', `${id}.jsonl`)
  const output = { sessionId: id, files: [file], resumeCommand: `qwen --resume ${quoteArg(id, options.layout.os)}`, cwd, backups: [] as string[] }
  const warnings = warningsFor(session)
  if (options.dryRun) return { output, warnings }

  const now = options.now()
  const importedFrom: Record<string, unknown> = { agent: options.sourceRef.agent, sessionId: options.sourceRef.sessionId }
  if (options.sourceRef.path) importedFrom.path = options.sourceRef.path
  Object.assign(importedFrom, { importedAt: new Date(now).toISOString(), importer: 'sepia' })
  const env = { sessionId: id, cwd, version: QWEN_FORMAT_VERSION, ...(session.git?.branch && { gitBranch: session.git.branch }) }
  function* lines(): Generator<string> {
    let first = true
    for (const r of chatRecords(session, env, options.newId, session.createdAt ?? now)) {
      yield JSON.stringify(first ? { ...r, importedFrom } : r) + '\n'
      first = false
    }
  }
  const tx = new FileTransaction(options.fault)
  try {
    await tx.stage(file, lines())
    await tx.commit()
  } catch (e) {
    await tx.rollback()
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the Qwen Code session: ${(e as Error).message}. Nothing was left behind.`, path: file })
  }
  return { output, warnings }
}
