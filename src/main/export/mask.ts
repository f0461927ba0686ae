/**
 * Secrets in exports (issue "Exports": "Secrets masked as in the safety issue"; DESIGN.md "Rules
 * that hold everywhere": API keys in transcripts are masked in the UI and in exports).
 *
 * Every export goes through this one hook, which uses the safety feature's `maskSession`
 * (`src/main/secrets/mask.ts`): API keys, tokens and private keys in every string of the session
 * (content, thinking, tool arguments and results, diffs, metadata) become a marker such as
 * `sk-a•••• (Anthropic API key)`; ids and paths are kept.
 */
import type { Session } from '../../shared/ir'
import { maskSession } from '../secrets'

/** A masked copy of `session` for an export (the session passed in is not changed). */
export function maskForExport(session: Session): Session {
  return maskSession(session)
}
