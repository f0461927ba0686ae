/**
 * Masking: every string that leaves main (session content, blocks, tool arguments and results,
 * thinking, titles, metadata, search snippets, exports) has its secrets replaced by a marker such
 * as `sk-a•••• (Anthropic API key)`, keeping at most 4 characters of the secret (its public
 * prefix). The user reveals one session at a time (`SepiaApi.revealSecrets`); nothing else is
 * ever sent unmasked. Issue 9 item 7; DESIGN.md "Secrets".
 */
import { nextTurn } from '../util/turn'
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
  const walk = new MaskWalk(value)
  walk.run(Infinity)
  return { value: walk.root as T, count: walk.count }
}

/** One object or array being copied: its source, its copy, the key it sits under, whether it is below a data key, and how far its own keys are done. */
interface WalkEntry {
  src: object
  dst: Record<string, unknown> | unknown[]
  key: string | undefined
  inData: boolean
  /** The object's own keys (undefined for an array), and the next index into them (or the array). */
  keys: string[] | undefined
  next: number
}

/**
 * The masking walk of {@link maskValue}, resumable: {@link run} copies until a deadline and can
 * be called again, so a whole session (23,927 nodes, 200 MB: 1.15 s in one go; BENCHMARKS.md
 * "Renderer, session 11") is masked in slices between turns of the event loop
 * ({@link maskSessionSliced}). Whether it runs in one call or many, the copy and the count are the
 * same: the same values are visited in the same order with the same `seen` map.
 */
class MaskWalk {
  count = 0
  readonly root: unknown
  private readonly seen = new WeakMap<object, unknown>()
  /** Objects and arrays still to copy (the last one first); `current` is the one being copied. */
  private readonly stack: WalkEntry[] = []
  private current: WalkEntry | undefined

  constructor(value: unknown) {
    this.root = this.visit(value, undefined, undefined, false)
  }

  private visit(v: unknown, key: string | undefined, parent: object | undefined, inData: boolean): unknown {
    if (typeof v === 'string') {
      if (key !== undefined && !inData && KEEP_KEYS.has(key)) return v
      // Inline image payloads are base64, never text.
      if (key === 'data' && parent && (parent as { type?: unknown }).type === 'image') return v
      if (key !== undefined && isSecretName(key) && v.length >= 4 && !v.includes(MASK) && !isPlaceholder(v)) {
        this.count++
        return maskMarker(v, { label: 'secret', keep: 0 })
      }
      const r = maskText(v)
      this.count += r.count
      return r.text
    }
    if (v === null || typeof v !== 'object') return v
    if (outputs.has(v)) return v // masked already (a masked session, a summary the catalog keeps masked)
    const known = this.seen.get(v)
    if (known !== undefined) return known
    const dst: Record<string, unknown> | unknown[] = Array.isArray(v) ? [] : {}
    this.seen.set(v, dst)
    this.stack.push({ src: v, dst, key, inData, keys: undefined, next: -1 })
    return dst
  }

  /**
   * Copy until the stack is empty (true) or `performance.now()` passes `deadline` (false; call
   * again to go on). Iterative, so a deeply nested value (hostile input kept in metadata) cannot
   * overflow the stack. The clock is read every 64 values.
   */
  run(deadline: number): boolean {
    // Untimed (`maskValue`): the budget never runs out, so the clock is never read.
    let budget = deadline === Infinity ? Number.POSITIVE_INFINITY : 64
    for (;;) {
      let e = this.current
      if (e === undefined) {
        e = this.stack.pop()
        if (e === undefined) return true
        if (!Array.isArray(e.src)) e.keys = Object.keys(e.src)
        e.next = 0
        this.current = e
      }
      const src = e.src as Record<string, unknown> & unknown[]
      if (e.keys === undefined) {
        const out = e.dst as unknown[]
        while (e.next < src.length) {
          const i = e.next++
          out[i] = this.visit(src[i], e.key, src, e.inData)
          if (--budget === 0) {
            if (performance.now() >= deadline) return false
            budget = 64
          }
        }
      } else {
        const out = e.dst as Record<string, unknown>
        // Below a data key every string is the store's: masked whatever its key.
        const below = e.inData || (e.key !== undefined && DATA_KEYS.has(e.key))
        while (e.next < e.keys.length) {
          const k = e.keys[e.next++]!
          out[k] = this.visit(src[k], k, src, below)
          if (--budget === 0) {
            if (performance.now() >= deadline) return false
            budget = 64
          }
        }
      }
      this.current = undefined
    }
  }
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
 * Synchronous: a whole 200 MB session takes ~1 s; on a server's thread use {@link maskSessionSliced}.
 */
export function maskSession(session: Session): Session {
  const ready = maskedSessionOf(session)
  if (ready) return ready
  return keepMasked(session, maskValue(session))
}

/**
 * The masked copy of `session` when it is there already (a masked session itself, or one that
 * {@link maskSession} or {@link maskSessionSliced} made before), else undefined. Never masks.
 */
export function maskedSessionOf(session: Session): Session | undefined {
  if (outputs.has(session)) return session
  return maskedSessions.get(session)
}

/**
 * {@link maskSession}, in slices of about `sliceMs` (default 8 ms) with a turn of the event loop
 * (`setImmediate`) between them, so a server answering other requests on this thread is never
 * held for the whole walk. Resolves to the same copy `maskSession` gives (the same walk; the same
 * cached object once either one made it). Calls for the same session while it runs share it.
 * Every slice runs on a later turn (`setImmediate`), the first one too.
 */
export function maskSessionSliced(session: Session, sliceMs = 8): Promise<Session> {
  const ready = maskedSessionOf(session)
  if (ready) return Promise.resolve(ready)
  const running = maskingSessions.get(session)
  if (running) return running
  const walk = new MaskWalk(session)
  const run = (async (): Promise<Session> => {
    // The first slice, too, on a turn of its own: the caller goes on first.
    do {
      await nextTurn()
      // `maskSession` may have masked it whole meanwhile: keep the one copy.
      const done = maskedSessions.get(session)
      if (done) return done
    } while (!walk.run(performance.now() + sliceMs))
    return maskedSessions.get(session) ?? keepMasked(session, { value: walk.root as Session, count: walk.count })
  })()
  maskingSessions.set(session, run)
  const forget = (): void => {
    if (maskingSessions.get(session) === run) maskingSessions.delete(session)
  }
  run.then(forget, forget)
  return run
}

/** Set `maskedSecrets` on a finished walk's copy of `session` and cache it. */
function keepMasked(session: Session, { value, count }: { value: Session; count: number }): Session {
  delete value.maskedSecrets
  if (count > 0) value.maskedSecrets = count
  maskedSessions.set(session, value)
  outputs.add(value)
  return value
}

/** Sliced masks under way ({@link maskSessionSliced}), by session. */
const maskingSessions = new WeakMap<Session, Promise<Session>>()

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
