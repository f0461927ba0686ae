/**
 * Gemini API `Part`s (as the CLI stores them in `content`, `displayContent` and tool results) →
 * IR text, blocks and thinking.
 *
 * Part fields (google-gemini/gemini-cli packages/core/src/services/conversationRecordSchema.ts
 * `partObjectSchema`): `text` (with `thought: true` for thought text), `thoughtSignature`,
 * `inlineData{data,mimeType}`, `fileData{fileUri,mimeType}`, `functionCall{name,id?,args}`,
 * `functionResponse{name,id?,response,parts?}`, `executableCode{code,language}`,
 * `codeExecutionResult{outcome,output}`, `videoMetadata`.
 */
import type { ContentBlock } from '../../../shared/ir'
import type { Json } from './values'
import { obj, partsOf, str } from './values'

/** What the parts of one message hold, sorted by role in the IR. */
export interface SortedParts {
  /** Non-thought text, concatenated as the CLI does (`partListUnionToString`). */
  text: string
  /** Ordered blocks; set only when some part is not plain text. */
  blocks?: ContentBlock[]
  /** Text of `thought: true` parts, joined by blank lines. */
  thoughts: string[]
  /** Every `thoughtSignature`, in order (opaque, kept verbatim). */
  signatures: string[]
  /** `functionCall` parts. */
  calls: Json[]
  /** `functionResponse` parts. */
  responses: Json[]
}

/** One non-text, non-call part → an IR block (images, files, code, unknown). */
function blockOf(p: Json): ContentBlock | undefined {
  const inline = obj(p.inlineData)
  if (inline) {
    const mediaType = str(inline.mimeType)
    const data = str(inline.data)
    if (mediaType?.startsWith('image/')) return { type: 'image', mediaType, ...(data !== undefined && { data }) }
    if (mediaType?.startsWith('text/') && data !== undefined) return { type: 'file', mediaType, text: Buffer.from(data, 'base64').toString('utf8') }
    return { type: 'unknown', originalType: 'inlineData', raw: p }
  }
  const file = obj(p.fileData)
  if (file) {
    const uri = str(file.fileUri)
    const mediaType = str(file.mimeType)
    if (mediaType?.startsWith('image/')) return { type: 'image', mediaType, ...(uri !== undefined && { uri }) }
    return { type: 'file', ...(uri !== undefined && { path: uri }), ...(mediaType !== undefined && { mediaType }) }
  }
  const code = obj(p.executableCode)
  if (code) return { type: 'unknown', originalType: 'executableCode', text: str(code.code) ?? '', raw: p }
  const result = obj(p.codeExecutionResult)
  if (result) return { type: 'unknown', originalType: 'codeExecutionResult', text: str(result.output) ?? '', raw: p }
  const keys = Object.keys(p).filter((k) => k !== 'thoughtSignature')
  if (keys.length === 0) return undefined
  return { type: 'unknown', originalType: keys.join(','), raw: p }
}

/** Sort the parts of a `PartListUnion` into text, blocks, thoughts, signatures, calls and responses. */
export function sortParts(content: unknown): SortedParts {
  const out: SortedParts = { text: '', thoughts: [], signatures: [], calls: [], responses: [] }
  const blocks: ContentBlock[] = []
  let nonText = false
  for (const p of partsOf(content)) {
    const sig = str(p.thoughtSignature)
    if (sig !== undefined) out.signatures.push(sig)
    const text = str(p.text)
    if (text !== undefined && p.thought === true) {
      out.thoughts.push(text)
    } else if (text !== undefined) {
      out.text += text
      const last = blocks[blocks.length - 1]
      if (last?.type === 'text') last.text += text
      else blocks.push({ type: 'text', text })
    } else if (obj(p.functionCall)) {
      out.calls.push(obj(p.functionCall)!)
    } else if (obj(p.functionResponse)) {
      out.responses.push(obj(p.functionResponse)!)
    } else {
      const b = blockOf(p)
      if (b) {
        blocks.push(b)
        nonText = true
      }
    }
  }
  if (nonText) out.blocks = blocks
  return out
}

/**
 * The text a `functionResponse` carries: `response.output` (the CLI's tools), else
 * `response.error`, else the response as JSON; plus the text of nested `parts`.
 * `isError` is true when the response has an `error` member.
 */
export function responseText(fr: Json): { text: string; isError: boolean; blocks: ContentBlock[] } {
  const response = fr.response
  const r = obj(response)
  let text: string
  let isError = false
  if (typeof response === 'string') text = response
  else if (r && typeof r.output === 'string') text = r.output
  else if (r && r.error !== undefined) {
    isError = true
    text = typeof r.error === 'string' ? r.error : JSON.stringify(r.error)
  } else text = response === undefined ? '' : JSON.stringify(response)
  if (r && r.error !== undefined) isError = true
  const nested = sortParts(fr.parts)
  if (nested.text) text = text ? `${text}\n\n${nested.text}` : nested.text
  return { text, isError, blocks: nested.blocks?.filter((b) => b.type !== 'text') ?? [] }
}

/**
 * A thought summary (`thoughts[]` item `{subject, description}`) as the text it arrived as:
 * `**Subject**\ndescription` (fixtures/real/gemini/README.md "Worth knowing").
 */
export function thoughtText(t: Json): string {
  const subject = str(t.subject)?.trim()
  const description = str(t.description) ?? ''
  return subject ? (description ? `**${subject}**\n${description}` : `**${subject}**`) : description
}
