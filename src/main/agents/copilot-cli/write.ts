/**
 * Write a prepared session (src/main/convert/prepare.ts) as a new GitHub Copilot CLI 1.0.102
 * session that `copilot --resume=<id>` continues.
 *
 * What the CLI needs (checked against the real CLI here, fixtures/real/copilot-cli/README.md "Worth
 * knowing"; shapes from the CLI's own `schemas/session-events.schema.json`, which it extracts to
 * `~/.cache/copilot/pkg/linux-x64/1.0.102/`, and the real store):
 * - the folder `~/.copilot/session-state/<sessionId>/` with `events.jsonl`, one event a line:
 *   `{type, data, id (a UUID: the CLI refuses the file otherwise), timestamp (ISO), parentId (the
 *   event before; null for the first)}`; every `data` object is closed (`additionalProperties:
 *   false`), so only the schema's fields are written;
 * - `session.start` `{sessionId, version: 1, producer: "copilot-agent", copilotVersion, startTime,
 *   context: {cwd, branch, headCommit}}` (no `selectedModel`: another agent's model name means
 *   nothing to Copilot's routing, so the CLI's own model is used);
 * - `user.message` `{content}`; `assistant.message` `{messageId (UUID), content, toolRequests:
 *   [{toolCallId, name, arguments, type: "function"}], model, outputTokens}`; `tool.execution_complete`
 *   `{toolCallId, success: true, result: {content}}`, or `{success: false, error: {message, code:
 *   "failure"}}` for a failed call (what the CLI writes for a failed `view`). An assistant message
 *   holds its text, then its calls: a node whose parts were in another order is split into
 *   consecutive messages (`splitAssistantTurns`);
 * - no `workspace.yaml`, `session-store.db` row or `tool.execution_start` is needed to resume. A
 *   `workspace.yaml` (`id`, `cwd`, `name`, `user_named`, `summary_count`, `fork_count`,
 *   `created_at`, `updated_at`, as the CLI writes it) is written all the same: `name` is the title
 *   the CLI's session list shows.
 * Thinking is not written (provider family `any`: Copilot with a custom provider talks to any
 * model). The origin has no field in the closed event shapes; it is kept as a comment line in
 * `workspace.yaml` (`# imported by sepia from <agent> <sessionId>`).
 */
import { SepiaError } from '../../../shared/api'
import { type ConvertWarning, quoteArg } from '../../../shared/convert'
import type { MessageNode, Session } from '../../../shared/ir'
import { FileTransaction } from '../../util/file-transaction'
import { splitAssistantTurns } from '../../convert-shared/part-order'
import { pathApiFor } from '../../platform'
import type { WriteOptions, WriteResult } from '../types'

type Json = Record<string, unknown>

/** The CLI version whose event shapes are written (`session.start.data.copilotVersion`). */
export const COPILOT_WRITE_VERSION = '1.0.102'

/**
 * The events of `session`, in file order (generated lazily): `session.start`, then one event per
 * user, assistant and tool node. `newId` gives the event and message ids; `start` is the time of a
 * node without one (ms since epoch).
 */
export function* copilotEvents(session: Session, id: string, cwd: string, newId: () => string, start: number): Generator<Json> {
  let parentId: string | null = null
  let last = start
  const event = (type: string, at: number, data: Json): Json => {
    const e: Json = { type, data, id: newId(), timestamp: new Date(at).toISOString(), parentId }
    parentId = e.id as string
    return e
  }
  const context: Json = { cwd }
  if (session.git?.branch) context.branch = session.git.branch
  if (session.git?.sha) context.headCommit = session.git.sha
  yield event('session.start', start, { sessionId: id, version: 1, producer: 'copilot-agent', copilotVersion: COPILOT_WRITE_VERSION, startTime: new Date(start).toISOString(), context })
  for (const n of splitAssistantTurns(session.nodes) as MessageNode[]) {
    last = n.createdAt ?? last
    if (n.role === 'user') {
      yield event('user.message', last, { content: n.content })
    } else if (n.role === 'assistant') {
      const data: Json = { messageId: newId(), content: n.content }
      data.toolRequests = (n.toolCalls ?? []).map((c) => ({ toolCallId: c.id, name: c.name, arguments: c.arguments ?? {}, type: 'function' }))
      if (n.model ?? session.model) data.model = n.model ?? session.model
      if (n.usage?.outputTokens !== undefined) data.outputTokens = n.usage.outputTokens
      yield event('assistant.message', last, data)
    } else if (n.role === 'tool' && n.toolCallId !== undefined) {
      yield event(
        'tool.execution_complete',
        last,
        n.isError ? { toolCallId: n.toolCallId, success: false, error: { message: n.content, code: 'failure' } } : { toolCallId: n.toolCallId, success: true, result: { content: n.content } },
      )
    }
  }
}

/** A YAML double-quoted scalar (JSON's string syntax is one). */
const yq = (s: string): string => JSON.stringify(s)

/**
 * Write `session` as a new Copilot CLI session under `options.layout` (see the module comment).
 * With `dryRun` nothing is written. Rejects `WRITE_FAILED` (nothing left behind) on any error, and
 * when the session folder's files already exist (never overwritten).
 */
export async function writeCopilotCliSession(session: Session, options: WriteOptions): Promise<WriteResult> {
  const p = pathApiFor(options.layout.home)
  const cwd = session.workingDirectory ?? options.layout.home
  const id = options.newId()
  const now = options.now()
  const start = session.createdAt ?? now
  const dir = p.join(options.layout.home, '.copilot', 'session-state', id)
  const events = p.join(dir, 'events.jsonl')
  const yaml = p.join(dir, 'workspace.yaml')
  const output = { sessionId: id, files: [events, yaml], resumeCommand: `copilot --resume=${quoteArg(id, options.layout.os)}`, cwd, backups: [] as string[] }
  const warnings: ConvertWarning[] = []
  if (options.dryRun) return { output, warnings }

  const title = session.title ?? session.nodes.find((n) => n.role === 'user')?.content.split('\n')[0]?.slice(0, 200) ?? ''
  const end = session.lastActivityAt ?? session.nodes.reduce((t, n) => Math.max(t, n.createdAt ?? t), start)
  const workspace = [
    `# imported by sepia from ${options.sourceRef.agent} ${options.sourceRef.sessionId}`,
    `id: ${id}`,
    `cwd: ${yq(cwd)}`,
    `name: ${yq(title)}`,
    'user_named: false',
    'summary_count: 0',
    'fork_count: 0',
    `created_at: ${new Date(start).toISOString()}`,
    `updated_at: ${new Date(end).toISOString()}`,
    '',
  ].join('\n')
  function* lines(): Generator<string> {
    for (const e of copilotEvents(session, id, cwd, options.newId, start)) yield JSON.stringify(e) + '\n'
  }
  const tx = new FileTransaction(options.fault)
  try {
    await tx.stage(events, lines())
    await tx.stage(yaml, workspace)
    await tx.commit()
  } catch (e) {
    await tx.rollback()
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the Copilot CLI session: ${(e as Error).message}. Nothing was left behind.`, path: events })
  }
  return { output, warnings }
}
