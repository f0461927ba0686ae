/**
 * ACP tool-call shapes as Devin stores them: `chisel/tool_call_content` entries in an assistant
 * message's extensions, and the `tool_call_state` table's `ToolCall` / `ToolCallUpdate` JSON.
 *
 * Source: `shared/formats/cursor-devin-atif-acp.md` E ("ACP tool-call types": ToolKind,
 * ToolCallStatus, content `{type:"diff",path,oldText?,newText}`, locations `{path,line?}`; "deserialize
 * leniently: invalid kind/status fall back, invalid list items are skipped") and C5.
 */
import type { ContentBlock, ToolCall, ToolCallDiff, ToolCallLocation, ToolCallStatus, ToolKind } from '../../../shared/ir'
import { arr, type Json, num, obj, str } from './json'

const KINDS = new Set<ToolKind>(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'])
const STATUSES = new Set<ToolCallStatus>(['pending', 'in_progress', 'completed', 'failed'])

/** The value as an ACP ToolKind, or undefined (Devin's `tool_calls[].kind: "function"` is not one). */
export function acpKind(value: unknown): ToolKind | undefined {
  return typeof value === 'string' && KINDS.has(value as ToolKind) ? (value as ToolKind) : undefined
}

/** The value as an ACP ToolCallStatus, or undefined. */
export function acpStatus(value: unknown): ToolCallStatus | undefined {
  return typeof value === 'string' && STATUSES.has(value as ToolCallStatus) ? (value as ToolCallStatus) : undefined
}

/** ACP `locations[]` (items without a string `path` skipped; `line` kept when a number). */
export function acpLocations(value: unknown): ToolCallLocation[] | undefined {
  const out: ToolCallLocation[] = []
  for (const item of arr(value) ?? []) {
    const o = obj(item)
    const path = str(o?.path)
    if (!o || path === undefined) continue
    const line = num(o.line)
    out.push(line === undefined ? { path } : { path, line })
  }
  return out.length ? out : undefined
}

/** ACP `content[]` diff entries (`oldText` null/absent = new file). Other entry types are skipped. */
export function acpDiffs(value: unknown): ToolCallDiff[] | undefined {
  const out: ToolCallDiff[] = []
  for (const item of arr(value) ?? []) {
    const o = obj(item)
    const path = str(o?.path)
    if (!o || o.type !== 'diff' || path === undefined) continue
    const d: ToolCallDiff = { path }
    const oldText = str(o.oldText)
    const newText = str(o.newText)
    if (oldText !== undefined) d.oldText = oldText
    if (newText !== undefined) d.newText = newText
    out.push(d)
  }
  return out.length ? out : undefined
}

/**
 * Apply one ACP ToolCall / ToolCallUpdate object onto an IR call. Only fields the object carries
 * are applied (an update "replaces" `content`/`locations` when it has them). `withStatus` is false
 * for the message-embedded `chisel/tool_call_content` snapshot, whose status is the one at
 * generation time (usually `pending`), not the outcome.
 */
export function applyAcp(call: ToolCall, acp: Json, withStatus: boolean): void {
  const kind = acpKind(acp.kind)
  if (kind) call.kind = kind
  const locations = acpLocations(acp.locations)
  if (locations) call.locations = locations
  const diffs = acpDiffs(acp.content)
  if (diffs) call.diffs = diffs
  if (!withStatus) return
  const status = acpStatus(acp.status)
  if (status) call.status = status
  if (status === 'failed') call.isError = true
}

/**
 * ACP ContentBlocks (`chisel/acp-content-blocks`, seed 002 "Attachments") as IR blocks: text,
 * image (`data` base64 + `mimeType`, or `uri`), resource_link / resource → file; others unknown.
 */
export function acpBlocks(value: unknown): ContentBlock[] | undefined {
  const out: ContentBlock[] = []
  for (const item of arr(value) ?? []) {
    const b = obj(item)
    if (!b) continue
    const type = str(b.type) ?? '(none)'
    if (type === 'text' && typeof b.text === 'string') out.push({ type: 'text', text: b.text })
    else if (type === 'image') {
      const img: ContentBlock = { type: 'image' }
      if (str(b.mimeType)) img.mediaType = str(b.mimeType)
      if (str(b.data)) img.data = str(b.data)
      if (str(b.uri)) img.uri = str(b.uri)
      out.push(img)
    } else if (type === 'resource_link' || type === 'resource') {
      const r = type === 'resource' ? (obj(b.resource) ?? {}) : b
      const f: ContentBlock = { type: 'file' }
      if (str(r.uri)) f.path = str(r.uri)
      if (str(r.mimeType)) f.mediaType = str(r.mimeType)
      if (str(r.text)) f.text = str(r.text)
      out.push(f)
    } else out.push({ type: 'unknown', originalType: type, raw: b })
  }
  return out.length ? out : undefined
}
