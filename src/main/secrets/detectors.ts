/**
 * Secret detectors: where API keys, tokens and private keys sit inside a text.
 *
 * Each detector matches a documented, prefixed or labelled format, so random-looking values that
 * are not secrets (git shas, sha256 hashes, UUIDs, base64 image data) are left alone: nothing here
 * flags a string for its entropy alone. Sources of the formats: the providers' own key prefixes
 * (Anthropic `sk-ant-`, OpenAI `sk-`/`sk-proj-`, Google `AIza`/`ya29.`/`GOCSPX-`, GitHub
 * `ghp_`/`github_pat_`, GitLab `glpat-`, Slack `xox?-`, AWS `AKIA`/`ASIA` key ids, Stripe
 * `sk_live_`/`rk_live_`/`whsec_`), RFC 6750 bearer tokens, RFC 7468 PEM blocks, RFC 7519 JWTs,
 * and `name = value` assignments whose name says it holds a secret (DESIGN.md "Secrets", issue 9).
 */

/** One secret found in a text: the span to hide and what it is. */
export interface SecretMatch {
  /** UTF-16 offset of the first character of the secret. */
  start: number
  /** UTF-16 offset just past the secret. */
  end: number
  /** Detector id, e.g. `anthropic`, `aws-secret`, `assignment`. */
  kind: string
  /** Plain-words name shown in the mask, e.g. "Anthropic API key". */
  label: string
  /** Characters of the secret the mask may keep (a known prefix such as `sk-a`); 0–4. */
  keep: number
}

/** A detector: a global regex whose whole match, or capture group `group`, is the secret. */
interface Detector {
  kind: string
  label: string | ((secret: string) => string)
  pattern: RegExp
  /** Capture group holding the secret (1-based); the whole match when absent. */
  group?: number
  /** Characters of a long secret the mask keeps (its public prefix). */
  keep?: number
  /** Extra test on the secret; a false result drops the match. */
  check?: (secret: string) => boolean
  /** Cheap substring test: the regex runs only when the text contains one of these (lowercased). */
  hints: string[]
}

const count = (s: string, re: RegExp): number => s.match(re)?.length ?? 0
/** A random-looking key body: at least 3 digits and 3 letters (prose like `sk-learn-compatible` fails). */
const randomish = (s: string): boolean => count(s, /[0-9]/g) >= 3 && count(s, /[A-Za-z]/g) >= 3
/** Base64 with both cases and a digit (a 40-char lowercase hex git sha fails). */
const mixedBase64 = (s: string): boolean => /[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9]/.test(s)

const PEM_NAME = '(?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?'

/** Every detector, most specific first (an overlap keeps the earlier start, then this order). */
const DETECTORS: Detector[] = [
  {
    kind: 'private-key',
    label: 'private key',
    // A whole block, or (cut transcripts) the header and the base64 lines after it.
    pattern: new RegExp(`-----BEGIN ${PEM_NAME}-----(?:[\\s\\S]{0,200000}?-----END ${PEM_NAME}-----|(?:[A-Za-z0-9+/=:,\\s-]|\\\\[nr]){0,20000})`, 'g'),
    hints: ['private key'],
  },
  { kind: 'jwt', label: 'JSON web token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, keep: 3, hints: ['eyj'] },
  { kind: 'anthropic', label: 'Anthropic API key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, keep: 4, check: randomish, hints: ['sk-ant-'] },
  { kind: 'openrouter', label: 'OpenRouter API key', pattern: /\bsk-or-v1-[A-Za-z0-9]{32,}/g, keep: 4, hints: ['sk-or-'] },
  {
    kind: 'openai',
    label: (s) => (/^sk-(?:proj|svcacct|admin)-/.test(s) || s.includes('T3BlbkFJ') ? 'OpenAI API key' : 'API key'),
    pattern: /\bsk-(?!ant-|or-v1-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
    keep: 4,
    check: randomish,
    hints: ['sk-'],
  },
  { kind: 'google', label: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, keep: 4, hints: ['aiza'] },
  { kind: 'google-oauth', label: 'Google OAuth token', pattern: /\b(?:ya29\.[0-9A-Za-z_-]{20,}|1\/\/0[0-9A-Za-z_-]{40,})/g, keep: 4, hints: ['ya29.', '1//0'] },
  { kind: 'google-client-secret', label: 'Google OAuth client secret', pattern: /\bGOCSPX-[0-9A-Za-z_-]{20,}/g, keep: 4, hints: ['gocspx-'] },
  { kind: 'github', label: 'GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])/g, keep: 4, hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'] },
  { kind: 'gitlab', label: 'GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, keep: 4, hints: ['glpat-'] },
  { kind: 'slack', label: 'Slack token', pattern: /\bxox[abposrce]-[A-Za-z0-9-]{10,}/g, keep: 4, check: (s) => count(s, /[0-9]/g) >= 3, hints: ['xox'] },
  { kind: 'slack-webhook', label: 'Slack webhook', pattern: /hooks\.slack\.com\/services\/(T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+)/g, group: 1, hints: ['hooks.slack.com'] },
  { kind: 'stripe', label: 'Stripe secret key', pattern: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}/g, keep: 4, hints: ['_live_', '_test_'] },
  { kind: 'stripe-webhook', label: 'Stripe webhook secret', pattern: /\bwhsec_[0-9A-Za-z]{20,}/g, keep: 4, hints: ['whsec_'] },
  { kind: 'aws-access-key', label: 'AWS access key id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, keep: 4, hints: ['akia', 'asia', 'abia', 'acca'] },
  {
    kind: 'aws-secret',
    label: 'AWS secret key',
    pattern: /(?:aws_?secret_?(?:access_?)?key|secret_?access_?key|awsSecretKey)(?:\\{0,3}["']|"")?\s*[:=]\s*(?:\\{0,3}["']|"")?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
    group: 1,
    hints: ['secret'],
  },
  {
    kind: 'bearer',
    label: 'bearer token',
    pattern: /\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)/g,
    group: 1,
    check: (s) => /[0-9]/.test(s) && /[A-Za-z]/.test(s),
    hints: ['bearer'],
  },
  { kind: 'basic-auth', label: 'password', pattern: /authorization["']?\s*[:=]\s*["']?Basic\s+([A-Za-z0-9+/]{8,}={0,2})/gi, group: 1, hints: ['basic'] },
  {
    kind: 'url-password',
    label: 'password in a URL',
    // The user may be empty (`redis://:pw@host`) and the password may hold `@`
    // (`mysql://root:p@ss@db`: the host follows the last `@`); 2 characters are enough (issue 16).
    pattern: /\b[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/@"'`<>]{0,100}:([^\s/"'`<>]{2,200})@(?=[^\s@/"'`<>]+)/g,
    group: 1,
    check: (s) => !isPlaceholder(s),
    hints: ['://'],
  },
]

/** Every detector's hints in one case-insensitive regex (a cheap first pass). */
const ANY_HINT = new RegExp(
  [...new Set(DETECTORS.flatMap((d) => d.hints))].map((h) => h.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
  'i',
)

/** Name endings (lowercase, separators removed) of fields that hold a secret. */
export const SECRET_NAME_ENDINGS = [
  'apikey',
  'secret',
  'secretkey',
  'token',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'privatekey',
  'accesskey',
  'credential',
  'credentials',
  'encryptionkey',
  'authorization',
  'cookie',
] as const

/** True when a field or variable named `name` holds a secret (`OPENAI_API_KEY`, `apiKey`, `webhook_token`...). */
export function isSecretName(name: string): boolean {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, '')
  return n.length > 0 && SECRET_NAME_ENDINGS.some((e) => n.endsWith(e))
}

/** Values that are not secrets even under a secret name: placeholders, references, flags, numbers. */
export function isPlaceholder(v: string): boolean {
  if (/^\d{1,20}$/.test(v)) return true
  if (/^(.)\1*$/.test(v)) return true
  return /^(?:\$|%|\{\{|<|\.\.\.|x{4,}|your[_-]|changeme|example|placeholder|redacted|masked|null|none|nil|undefined|true|false|string|required|optional|env\b|process\.env|os\.environ|bearer$|basic$|token$)/i.test(v)
}

// A secret-naming word, optional closing quote, `:` or `=`, optional opening quote, the value.
// Quotes may be escaped (`\"` in JSON text) or doubled (`""` in CSV). The match starts at the word
// (cheap to scan for); the whole name is read backwards from it.
const Q = `(?:\\\\{0,3}["']|"")?`
const ASSIGNMENT = new RegExp(
  `(?:api[_.-]?key|secret|token|passw(?:or)?d|pwd|passphrase|private[_.-]?key|access[_.-]?key|credentials?|encryption[_.-]?key|authorization|cookie)(${Q})[ \\t]*[:=][ \\t]*(${Q})([^\\s"'\`,;<>(){}[\\]\\\\•]{4,500})`,
  'gi',
)
const NAME_CHAR = /[A-Za-z0-9_.-]/

/** The words {@link ASSIGNMENT} starts at, as they end (`api_key` ends in `key`), anchored at the end of a short slice. */
const ASSIGNMENT_WORD_END = /(?:key|secret|token|passw(?:or)?d|pwd|passphrase|credentials?|authorization|cookie)$/i
/** Characters of the longest word of {@link ASSIGNMENT_WORD_END} (`authorization`). */
const LONGEST_WORD = 13
/**
 * 1 at the char codes a word of {@link ASSIGNMENT_WORD_END} can end with (the last letters of its
 * words, either case: `key` y, `secret` t, `token` n, `passwd`/`password`/`pwd` d, `passphrase`/`cookie`
 * e, `credential` l, `credentials` s, `authorization` n), so most `:`/`=` are passed over without
 * the slice and the regex (issue 15: they were a tenth of the masking in the rows pass). Exact: a
 * case-insensitive regex without the `u` flag matches an ASCII letter only with that letter in
 * either case (ECMAScript Canonicalize keeps a non-ASCII character that would upper-case to ASCII).
 */
const WORD_LAST = new Uint8Array(128)
for (const c of 'ytdelsn') WORD_LAST[c.charCodeAt(0)] = WORD_LAST[c.toUpperCase().charCodeAt(0)] = 1

/**
 * The cheap hint of {@link ASSIGNMENT} (as `hints` are for the format detectors): true when some
 * `:` or `=` of `text` has a secret word right before it, past spaces/tabs and an optional quote
 * (`\\{0,3}["']` or `""`). Every match of ASSIGNMENT is such a place: its word (ending in a letter)
 * is followed by the quote (only `\`, `"`, `'`), then `[ \t]*`, then the `:`/`=`; so stepping back
 * from the `:`/`=` over spaces/tabs, then over `\`/`"`/`'`, stops exactly at the word's end. When
 * this is false ASSIGNMENT cannot match, and `assignments` is skipped (it ran on every message).
 */
export function mayHaveAssignment(text: string): boolean {
  // Two cursors, each advanced only past itself: linear in the text.
  let colon = text.indexOf(':')
  let equals = text.indexOf('=')
  while (colon >= 0 || equals >= 0) {
    let i: number
    if (equals < 0 || (colon >= 0 && colon < equals)) {
      i = colon
      colon = text.indexOf(':', i + 1)
    } else {
      i = equals
      equals = text.indexOf('=', i + 1)
    }
    let k = i
    while (k > 0) {
      const c = text.charCodeAt(k - 1)
      if (c !== 0x20 && c !== 0x09) break
      k--
    }
    while (k > 0) {
      const c = text.charCodeAt(k - 1)
      if (c !== 0x5c && c !== 0x22 && c !== 0x27) break
      k--
    }
    if (k >= 3 && WORD_LAST[text.charCodeAt(k - 1)] === 1 && ASSIGNMENT_WORD_END.test(text.slice(Math.max(0, k - LONGEST_WORD), k))) return true
  }
  return false
}

function assignments(text: string, out: SecretMatch[], gated: boolean): void {
  if (gated && !mayHaveAssignment(text)) return
  ASSIGNMENT.lastIndex = 0
  for (let m = ASSIGNMENT.exec(text); m; m = ASSIGNMENT.exec(text)) {
    const [whole, , open = '', value = ''] = m
    let from = m.index
    while (from > 0 && m.index - from < 80 && NAME_CHAR.test(text[from - 1]!)) from--
    const keyEnd = m.index + whole.length - value.length - open.length
    const name = text.slice(from, keyEnd).replace(/["']?[ \t]*[:=][ \t]*$/, '')
    if (!isSecretName(name) || isPlaceholder(value)) continue
    const end = m.index + whole.length
    if (text[end] === '•') continue // already masked
    // Unquoted identifiers (`token = getToken`, `password: str`) are code, not values.
    if (open === '' && (value.length < 6 || /^[A-Za-z_$]+(?:\.[\w$]+)*$/.test(value) || /^[A-Za-z_$][\w$]*\.[A-Za-z_$]/.test(value))) continue
    out.push({ start: end - value.length, end, kind: 'assignment', label: 'secret', keep: 0 })
  }
}

/** An AWS secret key (40 base64 characters) written within 300 characters after an access key id. */
function awsPairs(text: string, found: SecretMatch[], out: SecretMatch[]): void {
  const near = /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g
  for (const key of found) {
    if (key.kind !== 'aws-access-key') continue
    near.lastIndex = key.end
    for (let m = near.exec(text); m && m.index < key.end + 300; m = near.exec(text)) {
      if (mixedBase64(m[0])) {
        out.push({ start: m.index, end: m.index + 40, kind: 'aws-secret', label: 'AWS secret key', keep: 0 })
        break
      }
    }
  }
}

/**
 * Every secret in `text`, sorted by start, without overlaps (the earliest start wins; on a tie,
 * the more specific detector). Pure; linear in the text for each detector.
 *
 * `options.ungated` (tests only): run every pattern on every text, ignoring the hints; the result
 * must be the same (`secrets.test.ts` compares both over every fixture text).
 */
export function findSecrets(text: string, options?: { ungated?: boolean }): SecretMatch[] {
  if (text.length < 8) return []
  const gated = options?.ungated !== true
  const raw: SecretMatch[] = []
  // One pass decides whether any format detector can match; most texts hold none of the hints.
  const lower = !gated || ANY_HINT.test(text) ? text.toLowerCase() : undefined
  for (const d of lower === undefined ? [] : DETECTORS) {
    if (gated && !d.hints.some((h) => lower!.includes(h))) continue
    d.pattern.lastIndex = 0
    for (let m = d.pattern.exec(text); m; m = d.pattern.exec(text)) {
      if (m[0].length === 0) {
        d.pattern.lastIndex++
        continue
      }
      const secret = d.group ? m[d.group] : m[0]
      if (!secret || (d.check && !d.check(secret))) continue
      const start = d.group ? m.index + m[0].lastIndexOf(secret) : m.index
      const label = typeof d.label === 'function' ? d.label(secret) : d.label
      raw.push({ start, end: start + secret.length, kind: d.kind, label, keep: d.keep ?? 0 })
    }
  }
  awsPairs(text, raw, raw)
  assignments(text, raw, gated)
  const order = new Map(DETECTORS.map((d, i) => [d.kind, i]))
  raw.sort((a, b) => a.start - b.start || (order.get(a.kind) ?? 99) - (order.get(b.kind) ?? 99) || b.end - a.end)
  const out: SecretMatch[] = []
  for (const m of raw) {
    const last = out[out.length - 1]
    if (last && m.start < last.end) {
      // Overlapping finds are hidden together, so no tail of either shows.
      if (m.end > last.end) last.end = m.end
      continue
    }
    out.push({ ...m })
  }
  return out
}
