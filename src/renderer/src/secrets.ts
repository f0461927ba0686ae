/**
 * Masks credentials in transcript text before it is shown (DESIGN.md "Rules that hold everywhere":
 * API keys in transcripts are masked in the UI). Pure; applied to every text the transcript renders.
 *
 * Token shapes are the providers' documented prefixes: Anthropic `sk-ant-`, OpenAI `sk-`/`sk-proj-`,
 * AWS access key ids `AKIA…`, GitHub `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_`/`github_pat_`, Slack `xox?-`,
 * Google `AIza…`, GitLab `glpat-`, plus `Bearer <token>` headers and PEM private key blocks.
 */
import { ref } from 'vue'
import { stripAnsi } from '../../shared/ansi'

/**
 * True while the user has revealed the open session's secrets (stores/reveal.ts): `maskSecrets`
 * then returns texts as they are. Reactive, so rendered texts follow it.
 */
export const secretsRevealed = ref(false)

const PATTERNS: RegExp[] = [
  /\bsk-ant-[A-Za-z0-9_-]{16,}/g,
  /\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
]

const BEARER = /\b(Bearer\s+)([A-Za-z0-9._~+/=-]{20,})/g
const PEM = /(-----BEGIN [A-Z ]*PRIVATE KEY-----)[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----)/g

/** What a masked secret becomes: its first characters (to recognise which key it was) and a mark. */
export function maskToken(token: string): string {
  const keep = Math.min(8, Math.floor(token.length / 4))
  return `${token.slice(0, keep)}••••••[hidden]`
}

/** `text` with every recognised credential replaced by {@link maskToken}. */
export function maskSecrets(text: string): string {
  if (secretsRevealed.value || text.length < 20) return text
  return mask(text)
}

function mask(text: string): string {
  let out = text.replace(PEM, (_m, begin: string, end: string) => `${begin}\n••••••[hidden]\n${end}`)
  out = out.replace(BEARER, (_m, prefix: string, token: string) => prefix + maskToken(token))
  for (const re of PATTERNS) out = out.replace(re, (m) => maskToken(m))
  return out
}

/**
 * The first line of a tool result as its folded card shows it, at most `max` characters (an
 * ellipsis when cut): the same text as `firstLine(maskSecrets(stripAnsi(text)), max)` (format.ts),
 * without masking a whole result of hundreds of KB for it (issue 15: a card mounting while
 * scrolling masked its whole result). Only the first line, and of a long line its start, is
 * masked: no credential pattern crosses a line end, and PEM blocks, escape codes and lines whose
 * masking pulls the cut near the shown part take the whole-text path.
 */
export function resultPreview(text: string, max: number): string {
  const whole = (): string => cutLine(maskSecrets(stripAnsi(text)), max)
  if (text.length < 4096 || secretsRevealed.value || text.includes('PRIVATE KEY-----')) return whole()
  const start = text.search(/\S/)
  if (start < 0) return ''
  let end = text.indexOf('\n', start)
  if (end < 0 || text.lastIndexOf('\x1b', end) >= 0) return whole()
  if (text[end - 1] === '\r') end--
  const span = max + 400
  const cut = end - start > span
  const masked = mask(text.slice(start, cut ? start + span : end))
  if (cut && masked.length < max + 64) return whole()
  return ellipsis(masked, max)
}

/** `firstLine` of format.ts (the first line of the trimmed text, cut to `max` with an ellipsis). */
function cutLine(text: string, max: number): string {
  return ellipsis(text.trim().split(/\r?\n/, 1)[0] ?? '', max)
}
function ellipsis(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
