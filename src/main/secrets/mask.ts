/**
 * Masking: every string that leaves main (session content, blocks, tool arguments and results,
 * thinking, titles, metadata, search snippets, exports) has its secrets replaced by a marker such
 * as `sk-a•••• (Anthropic API key)`, keeping at most 4 characters of the secret (its public
 * prefix). The user reveals one session at a time (`SepiaApi.revealSecrets`); nothing else is
 * ever sent unmasked. Issue 9 item 7; DESIGN.md "Secrets".
 */
import type { Session } from '../../shared/ir'
import { findSecrets, isPlaceholder, isSecretName, type SecretMatch } from './detectors'

/** The dots every mask carries (also how a masked value is recognised). */
export const MASK = '••••'

/** The marker that replaces `secret`: at most 4 characters of a long secret's prefix, the dots, the label. */
export function maskMarker(secret: string, match: Pick<SecretMatch, 'label' | 'keep'>): string {
  const keep = secret.length >= 12 ? Math.min(4, match.keep) : 0
  return `${secret.slice(0, keep)}${MASK} (${match.label})`
}

/** `text` with every secret replaced by its marker, and how many were replaced. Idempotent. */
export function maskText(text: string): { text: string; count: number } {
  const found = findSecrets(text)
  if (found.length === 0) return { text, count: 0 }
  let out = ''
  let at = 0
  for (const m of found) {
    out += text.slice(at, m.start) + maskMarker(text.slice(m.start, m.end), m)
    at = m.end
  }
  return { text: out + text.slice(at), count: found.length }
}

/**
 * `text` cut to about `max` characters with an ellipsis, never inside a secret: a cut that would
 * fall inside one moves to its end, so the secret stays whole and is masked later (masking a cut
 * secret showed 13 of an AWS key's 16 characters; issue 16 "mask first, cut after").
 */
export function cutOutsideSecrets(text: string, max: number): string {
  if (text.length <= max) return text
  let end = Math.max(0, max - 1)
  for (const m of findSecrets(text)) if (m.start < end && m.end > end) end = m.end
  return end >= text.length ? text : text.slice(0, end) + '…'
}

/**
 * Keys whose string values are identifiers, file paths or opaque provider seals, never shown as
 * text: masking them would break lookups (ids), file access (paths) or a convert round trip
 * (`thinkingSignature`).
 */
const KEEP_KEYS = new Set([
  'id',
  'sessionId',
  'parentSessionId',
  'childSessionIds',
  'subagentSessionId',
  'nodeId',
  'parentNodeId',
  'toolCallId',
  'parentToolCallId',
  'requestId',
  'thinkingSignature',
  'agent',
  'format',
  'files',
  'home',
  'path',
  'workingDirectory',
  'ref',
  'mediaType',
  'kind',
  'role',
  'status',
  'event',
  'severity',
])

/**
 * Keys under which a value is the store's own data (tool arguments and results, raw records,
 * metadata): below them {@link KEEP_KEYS} no longer apply, so a tool argument named `id`, `path`
 * or `status` is masked like any text (issue 16). Only Sepia's own structural fields are kept.
 */
const DATA_KEYS = new Set(['arguments', 'metadata', 'raw', 'input', 'rawInput', 'output', 'result', 'params', 'extra', 'settings', 'env', 'headers'])

/** A masked copy of any JSON value and the number of secrets masked in it. */
export function maskValue<T>(value: T): { value: T; count: number } {
  let count = 0
  const seen = new WeakMap<object, unknown>()
  const stack: [src: object, dst: Record<string, unknown> | unknown[], key: string | undefined, inData: boolean][] = []

  const visit = (v: unknown, key: string | undefined, parent: object | undefined, inData = false): unknown => {
    if (typeof v === 'string') {
      if (key !== undefined && !inData && KEEP_KEYS.has(key)) return v
      // Inline image payloads are base64, never text.
      if (key === 'data' && parent && (parent as { type?: unknown }).type === 'image') return v
      if (key !== undefined && isSecretName(key) && v.length >= 4 && !v.includes(MASK) && !isPlaceholder(v)) {
        count++
        return maskMarker(v, { label: 'secret', keep: 0 })
      }
      const r = maskText(v)
      count += r.count
      return r.text
    }
    if (v === null || typeof v !== 'object') return v
    if (outputs.has(v)) return v // masked already (a masked session, a summary the catalog keeps masked)
    const known = seen.get(v)
    if (known !== undefined) return known
    const dst: Record<string, unknown> | unknown[] = Array.isArray(v) ? [] : {}
    seen.set(v, dst)
    stack.push([v, dst, key, inData])
    return dst
  }

  const root = visit(value, undefined, undefined)
  // Iterative, so a deeply nested value (hostile input kept in metadata) cannot overflow the stack.
  while (stack.length > 0) {
    const [src, dst, key, inData] = stack.pop()!
    if (Array.isArray(src)) {
      const out = dst as unknown[]
      for (let i = 0; i < src.length; i++) out[i] = visit(src[i], key, src, inData)
    } else {
      const out = dst as Record<string, unknown>
      // Below a data key every string is the store's: masked whatever its key.
      const below = inData || (key !== undefined && DATA_KEYS.has(key))
      for (const k of Object.keys(src)) out[k] = visit((src as Record<string, unknown>)[k], k, src, below)
    }
  }
  return { value: root as T, count }
}

const maskedSessions = new WeakMap<Session, Session>()
const outputs = new WeakSet<object>()

/**
 * Mark `value` as masked already: {@link maskResult} and {@link maskValue} pass it (and whatever
 * holds it, for the rest) through as it is. Only for values that went through {@link maskValue}
 * (the catalog's masked list summaries, `catalog/summary-mask.ts`). Returns `value`.
 */
export function markMasked<T extends object>(value: T): T {
  outputs.add(value)
  return value
}

/**
 * A masked copy of a session: every string the renderer sees (node content, blocks, tool call
 * arguments and diffs, results, thinking, title, prompt history, metadata, diagnostics) with its
 * secrets replaced; ids and file paths are kept as they are. `maskedSecrets` is set to the number
 * masked (absent when none). Cached per session object; masking a masked session returns it.
 */
export function maskSession(session: Session): Session {
  if (outputs.has(session)) return session
  const cached = maskedSessions.get(session)
  if (cached) return cached
  const { value, count } = maskValue(session)
  delete value.maskedSecrets
  if (count > 0) value.maskedSecrets = count
  maskedSessions.set(session, value)
  outputs.add(value)
  return value
}

/**
 * A masked copy of any API result (a library, search hits, an export...). A session inside is
 * masked by {@link maskSession}; the result object is cached so the same library is masked once.
 */
export function maskResult<T>(value: T): T {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? (maskText(value).text as T) : value
  if (outputs.has(value)) return value
  if (isSession(value)) return maskSession(value) as T
  const cached = maskedResults.get(value)
  if (cached) return cached as T
  const masked = maskValue(value).value as object
  maskedResults.set(value, masked)
  outputs.add(masked)
  return masked as T
}
const maskedResults = new WeakMap<object, unknown>()

function isSession(v: object): v is Session {
  const s = v as Partial<Session>
  return typeof s.irVersion === 'number' && Array.isArray(s.nodes) && typeof s.agent === 'string'
}
