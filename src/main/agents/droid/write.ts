/**
 * Write a prepared session (src/main/convert/prepare.ts) as a new Factory Droid 0.225.2 session
 * that `droid --resume <id>` (the terminal UI), run in the project folder, continues.
 *
 * What the CLI needs (checked against the real binary here: a hand-written file of these lines
 * alone resumed in the terminal UI, offline in Airgap Mode, and its next request carried every
 * message; fixtures/real/droid/README.md "Resume"; shapes as read.ts and the real store):
 * - the file `~/.factory/sessions/<project key>/<id>.jsonl`: the key is `-` + the project path
 *   without trailing and leading `/`, every run of `/` replaced by `-` (the binary's
 *   `sanitizePathToDirectoryName`: `/home/pat/src/notes-cli` → `-home-pat-src-notes-cli`; Droid
 *   takes the real path first, which Sepia cannot do for another machine's home); the id is a UUID;
 * - line 1 `{type: "session_start", id, title, owner: "unknown", version: 2, cwd,
 *   isSessionTitleManuallySet: false}`;
 * - then `{type: "message", id (UUID), timestamp (ISO), parentId (the message before; absent on
 *   the first), message: {role, content: blocks}}`: user `text` blocks; assistant `text` and
 *   `tool_use{id, name, input}` blocks in the node's part order (convert-shared/part-order.ts); the
 *   results of one assistant message as one user message of `tool_result{tool_use_id, is_error,
 *   content}` blocks (the Anthropic shape Droid keeps).
 * No `<id>.settings.json` is written: Droid writes it on the first resumed turn (model, autonomy,
 * token usage). Thinking is not written (provider family `any`: Droid talks to any BYOK model).
 * The origin is kept as `importedFrom{agent, sessionId, path, importedAt, importer}` on the
 * `session_start` line (Droid loads the session with it; checked in the resume matrix).
 */
import { SepiaError } from '../../../shared/api'
import { type ConvertWarning, quoteArg } from '../../../shared/convert'
import type { Session } from '../../../shared/ir'
import { FileTransaction } from '../../util/file-transaction'
import { assistantParts } from '../../convert-shared/part-order'
import { pathApiFor } from '../../platform'
import type { WriteOptions, WriteResult } from '../types'

type Json = Record<string, unknown>

/** Droid's folder name for a project path (`sanitizePathToDirectoryName`, see the module comment). */
export function droidProjectKey(cwd: string): string {
  return `-${cwd.replace(/[\\/]+$/, '').replace(/^\/+/, '').replace(/\/+/g, '-')}`
}

/**
 * The lines of `session` after `session_start`, in file order (generated lazily). `newId` gives
 * the message ids; `start` is the time of a node without one (ms since epoch).
 */
export function* droidMessages(session: Session, newId: () => string, start: number): Generator<Json> {
  let parentId: string | undefined
  let last = start
  const message = (at: number, role: string, content: Json[]): Json => {
    const e: Json = { type: 'message', id: newId(), timestamp: new Date(at).toISOString(), ...(parentId ? { parentId } : {}), message: { role, content } }
    parentId = e.id as string
    return e
  }
  let results: Json[] = []
  let resultsAt = start
  function* flush(): Generator<Json> {
    if (results.length) yield message(resultsAt, 'user', results)
    results = []
  }
  for (const n of session.nodes) {
    last = n.createdAt ?? last
    if (n.role === 'tool' && n.toolCallId !== undefined) {
      if (!results.length) resultsAt = last
      results.push({ type: 'tool_result', tool_use_id: n.toolCallId, is_error: n.isError === true, content: n.content })
      continue
    }
    yield* flush()
    if (n.role === 'user') {
      yield message(last, 'user', [{ type: 'text', text: n.content }])
    } else if (n.role === 'assistant') {
      const content: Json[] = []
      for (const p of assistantParts(n)) {
        if (p.kind === 'call') content.push({ type: 'tool_use', id: p.call.id, name: p.call.name, input: p.call.arguments ?? {} })
        else if (p.kind === 'block' && (p.block.type === 'text' || p.block.type === 'unknown') && p.block.text) content.push({ type: 'text', text: p.block.text })
      }
      if (content.length) yield message(last, 'assistant', content)
    }
  }
  yield* flush()
}

/**
 * Write `session` as a new Droid session under `options.layout` (see the module comment). With
 * `dryRun` nothing is written. Rejects `WRITE_FAILED` (nothing left behind) on any error, and when
 * the file already exists (never overwritten).
 */
export async function writeDroidSession(session: Session, options: WriteOptions): Promise<WriteResult> {
  const p = pathApiFor(options.layout.home)
  const cwd = session.workingDirectory ?? options.layout.home
  const id = options.newId()
  const now = options.now()
  const start = session.createdAt ?? now
  const file = p.join(options.layout.home, '.factory', 'sessions', droidProjectKey(cwd), `${id}.jsonl`)
  const output = { sessionId: id, files: [file], resumeCommand: `droid --resume ${quoteArg(id, options.layout.os)}`, cwd, backups: [] as string[] }
  const warnings: ConvertWarning[] = []
  if (options.dryRun) return { output, warnings }

  const importedFrom: Json = { agent: options.sourceRef.agent, sessionId: options.sourceRef.sessionId }
  if (options.sourceRef.path) importedFrom.path = options.sourceRef.path
  Object.assign(importedFrom, { importedAt: new Date(now).toISOString(), importer: 'sepia' })
  const title = session.title ?? session.nodes.find((n) => n.role === 'user')?.content.split('\n')[0]?.slice(0, 200) ?? 'Imported session'
  const header = { type: 'session_start', id, title, owner: 'unknown', version: 2, cwd, isSessionTitleManuallySet: false, importedFrom }
  function* lines(): Generator<string> {
    yield JSON.stringify(header) + '\n'
    for (const e of droidMessages(session, options.newId, start)) yield JSON.stringify(e) + '\n'
  }
  const tx = new FileTransaction(options.fault)
  try {
    await tx.stage(file, lines())
    await tx.commit()
  } catch (e) {
    await tx.rollback()
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the Droid session: ${(e as Error).message}. Nothing was left behind.`, path: file })
  }
  return { output, warnings }
}
