/**
 * A loaded OpenCode-family session ({@link StoredSession}) as an IR {@link Session}.
 *
 * Session fields (SQLite `session` columns or JSON-storage info, packages/opencode/src/session/
 * index.ts `Info`; fixtures/real/{opencode,kilo}): `directory` → workingDirectory (else the first
 * assistant message's `path.cwd`, else the project's `worktree`); `parentID`/`parent_id` →
 * parentSessionId; `time.created`/`time_created` and `updated` → createdAt/lastActivityAt (ms);
 * `title` → title, except OpenCode's placeholder `New session - <ISO time>` / `Child session -
 * <ISO time>` (kept as `metadata.defaultTitle`, the first prompt is the title then); the session
 * totals `cost`/`tokens_*` → usage, only when some are non-zero (the JSON→SQLite migration writes
 * zeros); the rest (slug, version, project, agent, model, permission, share, summary, revert) →
 * metadata.
 */
import type { AgentId, Session, Usage } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession } from '../../ir/build'
import { buildNodes } from './nodes'
import { usageOf } from './parts'
import type { StoredSession } from './store'
import { type Json, obj, pick, pickStr, str, timeOf } from './values'

/** OpenCode's placeholder titles (session/index.ts `createDefaultTitle`). */
const DEFAULT_TITLE = /^(New session|Child session) - \d{4}-\d\d-\d\dT[\d:.]+Z$/

/** Session totals from `tokens_*`/`cost` columns or a `tokens` object; undefined when all zero. */
function sessionUsage(info: Json): Usage | undefined {
  const tokens = obj(info.tokens) ?? {
    input: info.tokens_input,
    output: info.tokens_output,
    reasoning: info.tokens_reasoning,
    cache: { read: info.tokens_cache_read, write: info.tokens_cache_write },
  }
  const u = usageOf({ tokens, cost: info.cost })
  if (!u || !Object.values(u).some((v) => v !== 0)) return undefined
  return u
}

/** Store facts with no IR field. */
function sessionMeta(info: Json): Json {
  const meta: Json = {}
  const put = (key: string, v: unknown): void => {
    if (v !== undefined && v !== null && v !== '') meta[key] = v
  }
  put('slug', info.slug)
  put('version', info.version)
  put('projectID', pick(info, 'projectID', 'project_id', 'projectId'))
  put('workspaceID', pick(info, 'workspaceID', 'workspace_id'))
  put('agent', info.agent)
  put('model', info.model)
  put('permission', info.permission)
  put('shareUrl', pick(info, 'share_url') ?? obj(info.share)?.url)
  const s = obj(info.summary)
  const summary: Json = {}
  for (const k of ['additions', 'deletions', 'files'] as const) {
    const v = s ? s[k] : info[`summary_${k}`]
    if (typeof v === 'number') summary[k] = v
  }
  if (Object.keys(summary).length) meta.summary = summary
  put('revert', info.revert)
  put('compactingAt', timeOf(info, 'compacting'))
  put('archivedAt', timeOf(info, 'archived'))
  return meta
}

/**
 * The IR session for `stored`. `childSessionIds` are discovery's children (sessions whose parent
 * is this one). Problems met while loading become diagnostics; never throws.
 */
export function toSession(stored: StoredSession, agent: AgentId, format: string, home: string | undefined, childSessionIds?: string[]): Session {
  const info = stored.info
  const session = newSession(agent, stored.id, format, stored.files, home)
  const revertId = pickStr(obj(info.revert), 'messageID', 'message_id')
  const built = buildNodes(stored.messages, revertId)
  session.nodes = built.nodes
  session.checkpoints = built.checkpoints
  for (const p of [...stored.problems, ...built.problems]) addDiagnostic(session, p)

  const meta = sessionMeta(info)
  const title = str(info.title)
  if (title && DEFAULT_TITLE.test(title)) meta.defaultTitle = title
  else if (title) session.title = title
  const cwd = pickStr(info, 'directory', 'cwd') ?? built.firstCwd ?? stored.projectWorktree
  if (cwd !== undefined) session.workingDirectory = cwd
  const parent = pickStr(info, 'parentID', 'parent_id', 'parentId')
  if (parent !== undefined) {
    session.parentSessionId = parent
    const firstAgent = stored.messages.map((m) => pickStr(m.data, 'agent')).find((a) => a !== undefined)
    const agentName = pickStr(info, 'agent') ?? firstAgent
    if (agentName !== undefined) session.agentName = agentName
  }
  const created = timeOf(info, 'created')
  if (created !== undefined) session.createdAt = created
  const updated = timeOf(info, 'updated')
  if (updated !== undefined) session.lastActivityAt = updated
  const model = session.nodes.find((n) => n.role === 'assistant' && n.model)?.model ?? pickStr(obj(info.model), 'id', 'modelID') ?? pickStr(info, 'model')
  if (model !== undefined) session.model = model
  const usage = sessionUsage(info)
  if (usage) session.usage = usage
  if (childSessionIds?.length) session.childSessionIds = [...childSessionIds]

  meta.partTypes = built.partTypes
  meta.messageRoles = built.messageRoles
  if (built.unmodeledPartTypes.length) meta.unmodeledPartTypes = built.unmodeledPartTypes
  session.metadata = { ...meta, ...stored.extra }
  return finishSession(session)
}
