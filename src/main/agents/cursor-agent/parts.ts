/**
 * Content parts of Cursor agent messages → IR pieces. Shared by the `store.db` leaves (Vercel AI
 * SDK "CoreMessage" parts) and the `agent-transcripts/*.jsonl` lines (Anthropic-like parts).
 *
 * Part shapes (shared/formats/cursor-devin-atif-acp.md §B3, §B4, §F24–§F26; seed 002 "Cursor" A):
 * `text{text}`; `reasoning{text, signature?}` (OpenAI sessions: empty text, encrypted content only);
 * `redacted-reasoning{data}` (opaque); `tool-call{toolCallId, toolName, args|input}`;
 * `tool-result{toolCallId, toolName?, result|output|experimental_content, isError?}`;
 * `image{image:{"__type":"Uint8Array","hex":"89504e47…"}|<base64 or URL>, mimeType?}`;
 * transcripts: `tool_use{name, input}` (no id), and in some builds `thinking`/`image` parts.
 */
import type { ContentBlock } from '../../../shared/ir'
import { arr, type Json, obj, str, text } from '../cursor/common/json'

/** Content as a part list (a string content is one text part). */
export function partsOf(content: unknown): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  return (arr(content) ?? []).map((p) => (typeof p === 'string' ? { type: 'text', text: p } : obj(p))).filter((p): p is Json => !!p)
}

const MIME: Record<string, string> = { '89504e47': 'image/png', ffd8ff: 'image/jpeg', '47494638': 'image/gif', '52494646': 'image/webp' }

/** An `image` (or `file` with an image type) part → IR image block. */
export function imageBlock(p: Json): ContentBlock | undefined {
  const img = p.image ?? p.data ?? p.source
  const out: ContentBlock = { type: 'image' }
  const declared = str(p.mimeType) ?? str(p.mediaType) ?? str(obj(p.source)?.media_type)
  const hex = str(obj(img)?.hex)
  if (hex !== undefined && /^[0-9a-fA-F]*$/.test(hex)) {
    out.data = Buffer.from(hex, 'hex').toString('base64')
    const sniff = Object.keys(MIME).find((k) => hex.toLowerCase().startsWith(k))
    const mediaType = declared ?? (sniff ? MIME[sniff] : undefined)
    if (mediaType !== undefined) out.mediaType = mediaType
    return out
  }
  if (declared !== undefined) out.mediaType = declared
  const s = str(img) ?? str(obj(img)?.data) ?? str(obj(img)?.url)
  if (s === undefined) return undefined
  if (/^(https?|file|data):/.test(s)) out.uri = s
  else out.data = s
  return out
}

/** The opaque seal of a reasoning part: `signature`, `data`, or provider options' encrypted content. */
export function reasoningSeal(p: Json): string | undefined {
  const direct = p.signature ?? p.data
  if (typeof direct === 'string' && direct !== '') return direct
  if (obj(direct)) return JSON.stringify(direct)
  for (const provider of Object.values(obj(p.providerOptions) ?? {})) {
    const o = obj(provider)
    const v = o?.encryptedContent ?? o?.encrypted_content ?? o?.redactedData ?? o?.signature
    if (typeof v === 'string' && v !== '') return v
  }
  return undefined
}

/** The text projection of a tool result value (AI SDK v4 `result`, v5 `output{type,value}`, strings). */
export function resultText(value: unknown): { text: string; isError?: boolean } {
  if (typeof value === 'string') return { text: value }
  const o = obj(value)
  const type = str(o?.type)
  if (o && type && 'value' in o) {
    const isError = type.startsWith('error')
    const v = o.value
    const t = typeof v === 'string' ? v : type === 'content' ? partsOf(v).map((x) => str(x.text) ?? '').join('\n') : JSON.stringify(v)
    return isError ? { text: t, isError } : { text: t }
  }
  if (value === undefined) return { text: '' }
  return { text: JSON.stringify(value) }
}

/** Text of the text parts of `parts`, joined by blank lines (empty parts skipped). */
export function joinText(parts: Json[]): string {
  return parts
    .filter((p) => p.type === 'text' || p.type === undefined)
    .map((p) => str(p.text) ?? '')
    .filter((t) => t.trim() !== '')
    .join('\n\n')
}

/** Non-blank text of a reasoning/thinking part. */
export function thinkingText(p: Json): string | undefined {
  return text(p.text) ?? text(p.thinking) ?? text(p.reasoning)
}
