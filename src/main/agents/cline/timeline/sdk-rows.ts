/**
 * Timeline rows of one Cline SDK session (seed 000 "Parser plan": one row per content block of
 * SDK messages; "Model rows"; "Sync, relay and origin rows"; "Imported sessions").
 *
 * Column sources (seed 000 "Parser plan", SDK column): timestamp = message.ts (ms), else the
 * manifest's started_at; session_id = sessionId; project_path = manifest cwd (else workspace_root);
 * git_branch empty; turn_type text → by role, tool_use, tool_result, thinking; model =
 * modelInfo.id or the manifest model; tool_name = tool_use.name; tool_use_id = tool_use.id /
 * tool_result.tool_use_id; text = the text, or the tool input. `source_line` is the message's
 * 0-based index + 1 (seed 000 "Past-use rows": "as the messages reader numbers it").
 */
import type { AgentId } from '../../../../shared/ir'
import type { TimelineRow, TimelineTurnType } from '../../../../shared/timeline'
import { isRecord } from '../../../util/json'
import { num, str } from '../common'
import { isoToMs, type SessionRow } from '../sdk-store'
import { contentText, inputText, makeRow, orDash, pairs } from './rows'

/** What {@link sdkSessionRows} needs about one session. */
export interface SdkRowsInput {
  agent: AgentId
  sessionId: string
  /** Manifest `cwd` (else `workspace_root`), else the sessions.db row's. */
  projectPath: string
  /** The manifest `<id>.json`, when present. */
  manifest?: Record<string, unknown>
  manifestFile?: string
  /** The sessions.db row, used when the manifest is gone. */
  row?: SessionRow
  dbFile?: string
  /** `messages` of the transcript, in file order. */
  messages: unknown[]
  messagesFile?: string
  /** False for a sub-agent transcript: its model starts from its own first modelInfo.id. */
  lead: boolean
}

/**
 * The start row, the model row, the sync row (when the session carries the enterprise upload
 * marker), then one row per content block with model-change rows ahead of the message that
 * changes the model.
 */
export function sdkSessionRows(input: SdkRowsInput): TimelineRow[] {
  const rows: TimelineRow[] = []
  const { agent, sessionId, projectPath } = input
  const m = input.manifest
  const r = input.row as Record<string, unknown> | undefined
  const pick = (k: string): unknown => m?.[k] ?? r?.[k] ?? undefined
  const startedAt = isoToMs(pick('started_at'))
  const headFile = (m ? input.manifestFile : input.dbFile) ?? input.messagesFile ?? ''
  const base = { agent, sessionId, projectPath }
  const meta = sessionMetadata(m, input.row)
  const model = str(pick('model'))
  const provider = str(pick('provider'))

  if (m || r) {
    const imported = isRecord(meta.importedFrom) ? meta.importedFrom : undefined
    const text = [
      'session start:',
      pairs([
        ['source', pick('source')],
        ['status', pick('status')],
        ['interactive', boolish(pick('interactive'))],
        ['pid', pick('pid')],
        ['team', pick('team_name')],
        ['parent_session', r?.parent_session_id],
        ['parent_agent', r?.parent_agent_id],
        ['agent_id', r?.agent_id],
      ]),
      imported
        ? pairs([
            ['imported_from', imported.tool],
            ['imported_session', imported.sourceSessionId],
            ['imported_path', imported.sourcePath],
            ['imported_at', imported.importedAt],
            ['imported_provider', imported.sourceProvider],
            ['imported_model', imported.sourceModel],
          ])
        : '',
    ].filter(Boolean).join(' ')
    rows.push(makeRow({ ...base, turnType: 'system', timestampUtc: startedAt, model: model ?? '', text, sourceFile: headFile }))
    if (model) {
      rows.push(makeRow({ ...base, turnType: 'system', timestampUtc: startedAt, model, text: `model: ${model}${provider ? ` provider=${provider}` : ''}`, sourceFile: headFile }))
    }
    const blob = blobUploadOf(meta)
    if (blob) {
      const storage = isRecord(blob.storage) ? blob.storage : {}
      const from = m ? `${sessionId}.json metadata enterprise.blobUpload` : 'sessions.db sessions.metadata_json enterprise.blobUpload'
      const text =
        `session synced: enterprise prompt upload to ${orDash(storage.adapterType)} bucket ${orDash(storage.bucket)} ` +
        `object sessions/${str(blob.userDistinctId) ?? 'unknown'}/${sessionId}/messages.json ` +
        `endpoint=${orDash(storage.endpoint)} region=${orDash(storage.region)} account=${orDash(storage.accountId)} (from ${from}, started_at)`
      rows.push(makeRow({ ...base, turnType: 'system', timestampUtc: startedAt, model: model ?? '', text, sourceFile: headFile }))
    }
  }

  let current = input.lead ? model : undefined
  const file = input.messagesFile ?? ''
  input.messages.forEach((msg, index) => {
    const line = index + 1
    if (!isRecord(msg)) {
      rows.push(makeRow({ ...base, turnType: 'system', text: `parser: message ${line} of ${file} is not an object`, sourceFile: file, sourceLine: line }))
      return
    }
    const ts = num(msg.ts) ?? startedAt
    const info = isRecord(msg.modelInfo) ? msg.modelInfo : undefined
    const msgModel = str(info?.id)
    if (msgModel && msgModel !== current) {
      if (current !== undefined) {
        const p = str(info?.provider)
        rows.push(makeRow({ ...base, turnType: 'system', timestampUtc: ts, model: msgModel, text: `model: ${current} -> ${msgModel}${p ? ` provider=${p}` : ''}`, sourceFile: file, sourceLine: line }))
      }
      current = msgModel
    }
    const rowModel = msgModel ?? current ?? model ?? ''
    const role: TimelineTurnType = msg.role === 'user' ? 'user' : msg.role === 'assistant' ? 'assistant' : 'system'
    const at = { ...base, timestampUtc: ts, model: rowModel, sourceFile: file, sourceLine: line }
    if (typeof msg.content === 'string') {
      rows.push(makeRow({ ...at, turnType: role, text: msg.content }))
      return
    }
    const blocks = Array.isArray(msg.content) ? msg.content : []
    for (const b of blocks) {
      if (!isRecord(b)) continue
      switch (b.type) {
        case 'text':
          rows.push(makeRow({ ...at, turnType: role, text: typeof b.text === 'string' ? b.text : '' }))
          break
        case 'thinking':
          rows.push(makeRow({ ...at, turnType: 'thinking', text: str(b.thinking) ?? str(b.text) ?? '' }))
          break
        case 'redacted_thinking':
          rows.push(makeRow({ ...at, turnType: 'thinking', text: '[redacted thinking]' }))
          break
        case 'tool_use':
          rows.push(makeRow({ ...at, turnType: 'tool_use', toolName: str(b.name) ?? '', toolUseId: str(b.id) ?? str(b.call_id) ?? '', text: inputText(b.input) }))
          break
        case 'tool_result': {
          const text = contentText(b.content)
          rows.push(makeRow({ ...at, turnType: 'tool_result', toolName: str(b.name) ?? '', toolUseId: str(b.tool_use_id) ?? '', text: b.is_error === true ? `[error] ${text}` : text }))
          break
        }
        case 'image':
          rows.push(makeRow({ ...at, turnType: role, text: '[image]' }))
          break
        case 'file':
          rows.push(makeRow({ ...at, turnType: role, text: `[file ${str(b.path) ?? ''}]`.replace(' ]', ']') }))
          break
        default:
          rows.push(makeRow({ ...at, turnType: role, text: `[${String(b.type ?? 'unknown')}]` }))
      }
    }
  })
  return rows
}

/** The manifest's `metadata`, else the sessions.db row's `metadata_json` parsed. */
export function sessionMetadata(manifest: Record<string, unknown> | undefined, row: SessionRow | undefined): Record<string, unknown> {
  if (isRecord(manifest?.metadata)) return manifest.metadata
  if (typeof row?.metadata_json === 'string') {
    try {
      const v: unknown = JSON.parse(row.metadata_json)
      if (isRecord(v)) return v
    } catch {
      // unreadable metadata_json: no marker
    }
  }
  return {}
}

/**
 * The enterprise prompt-upload marker of a session's metadata (seed 000 "Enterprise upload
 * marker": the key `enterprise.blobUpload`), written as a flat dotted key or nested.
 */
export function blobUploadOf(meta: Record<string, unknown>): Record<string, unknown> | undefined {
  const flat = meta['enterprise.blobUpload']
  if (isRecord(flat)) return flat
  const ent = meta.enterprise
  return isRecord(ent) && isRecord(ent.blobUpload) ? ent.blobUpload : undefined
}

function boolish(v: unknown): unknown {
  return v === 1 ? true : v === 0 ? false : v
}
