/**
 * Masks credentials in transcript text before it is shown (DESIGN.md "Rules that hold everywhere":
 * API keys in transcripts are masked in the UI). Pure; applied to every text the transcript renders.
 *
 * Token shapes are the providers' documented prefixes: Anthropic `sk-ant-`, OpenAI `sk-`/`sk-proj-`,
 * AWS access key ids `AKIA…`, GitHub `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_`/`github_pat_`, Slack `xox?-`,
 * Google `AIza…`, GitLab `glpat-`, plus `Bearer <token>` headers and PEM private key blocks.
 */
import { ref } from 'vue'

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
  let out = text.replace(PEM, (_m, begin: string, end: string) => `${begin}\n••••••[hidden]\n${end}`)
  out = out.replace(BEARER, (_m, prefix: string, token: string) => prefix + maskToken(token))
  for (const re of PATTERNS) out = out.replace(re, (m) => maskToken(m))
  return out
}
