/**
 * `composerData:<id>` document → session-level fields (title, times, status, model, metadata).
 *
 * Facts (shared/formats/cursor-devin-atif-acp.md §A5.2, §F8–§F10, §F18): `name`, `createdAt`/
 * `lastUpdatedAt` (ms), `status` (`none|generating|completed|aborted|error`; Cursor maps
 * none→idle, generating→running, aborted→error), `modelConfig.modelName` (may be `"default"`),
 * `unifiedMode`/`forceMode`, context-size fields, `subComposerIds`/`subagentComposerIds`.
 * `blobEncryptionKey` / `speculativeSummarizationEncryptionKey` are secrets: never copied into
 * the IR; only their presence is noted. Large fields (`originalFileStates`, `codeBlockData`,
 * `context`) are not copied either.
 */
import type { Session, SessionStatus } from '../../../shared/ir'
import { arr, type Json, num, obj, str, text, toMs } from './common/json'

const STATUS: Record<string, SessionStatus> = { none: 'idle', generating: 'running', completed: 'completed', aborted: 'failed', error: 'failed' }
const SECRET = /encryptionkey/i
/** Small composer fields kept verbatim in `session.metadata`. */
const KEEP = [
  'unifiedMode',
  'forceMode',
  'isAgentic',
  'contextTokensUsed',
  'contextTokenLimit',
  'contextUsagePercent',
  'totalLinesAdded',
  'totalLinesRemoved',
  'filesChangedCount',
  'isArchived',
  'isDraft',
  'isSpec',
  'subtitle',
  'agentBackend',
  'createdOnBranch',
] as const

/** Names of secret-looking keys present in `doc` (their values are never read into the IR). */
export function secretKeys(doc: Json): string[] {
  return Object.keys(doc).filter((k) => SECRET.test(k) && doc[k] !== undefined && doc[k] !== null && doc[k] !== '')
}

/** Sub-composer ids a composer lists. */
export function subComposerIds(doc: Json): string[] {
  const ids = [...(arr(doc.subComposerIds) ?? []), ...(arr(doc.subagentComposerIds) ?? [])]
  return [...new Set(ids.filter((x): x is string => typeof x === 'string' && x !== ''))]
}

/** Apply a composer document's session-level fields to `session` (model is set by the caller). */
export function applyComposer(session: Session, doc: Json): void {
  const name = text(doc.name)
  if (name !== undefined) session.title = name
  const created = toMs(doc.createdAt)
  if (created !== undefined) session.createdAt = created
  const updated = toMs(doc.lastUpdatedAt)
  if (updated !== undefined) session.lastActivityAt = updated
  const status = str(doc.status)
  if (status !== undefined && STATUS[status]) session.status = STATUS[status]
  const m: Json = session.metadata
  if (num(doc._v) !== undefined) m.composerVersion = doc._v
  if (status !== undefined) m.composerStatus = status
  for (const k of KEEP) if (doc[k] !== undefined && doc[k] !== null && doc[k] !== '') m[k] = doc[k]
  const mc = obj(doc.modelConfig)
  if (mc) {
    const cfg: Json = {}
    if (str(mc.modelName) !== undefined) cfg.modelName = mc.modelName
    if (mc.maxMode !== undefined) cfg.maxMode = mc.maxMode
    m.modelConfig = cfg
  }
  const summary = str(obj(obj(doc.latestConversationSummary)?.summary)?.summary)
  if (summary) m.latestConversationSummary = summary
  const subs = subComposerIds(doc)
  if (subs.length) m.subComposerIds = subs
  const branch = text(doc.activeBranch) ?? text(doc.createdOnBranch)
  if (branch !== undefined) session.git = { branch }
  const secrets = secretKeys(doc)
  if (secrets.length) m.encryptionKeysPresent = secrets
  if ((arr(doc.generatingBubbleIds) ?? []).length) m.generating = true
}

/** The configured model of a composer (`modelConfig.modelName`), unless it is `"default"`. */
export function configuredModel(doc: Json): string | undefined {
  const name = text(obj(doc.modelConfig)?.modelName)
  return name === undefined || name === 'default' ? undefined : name
}
