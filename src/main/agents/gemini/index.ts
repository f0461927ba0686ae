/**
 * Gemini CLI: reads `~/.gemini/tmp/<project>/chats/` sessions (JSONL logs and older single-object
 * `.json` files) and their sub-agent chats (fixtures/real/gemini/README.md, Gemini CLI 0.61.0;
 * google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts); the store keeps
 * `thoughtSignature`s on model parts, no workspace checkpoints a session points at. Convert target:
 * `write.ts` writes a new chat that `gemini --resume <id>` continues (Google models replay it).
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { geminiCensus } from './census'
import { discoverSessions } from './discover'
import { linkSessions } from './link'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readSession = lazy(() => import('./read').then((m) => m.readSession))
const writeGeminiSession = lazy(() => import('./write').then((m) => m.writeGeminiSession))

/** The Gemini CLI agent definition for the registry. */
export const gemini: AgentDefinition = {
  id: 'gemini',
  displayName: 'Gemini CLI',
  capabilities: { canWrite: true, hasCheckpoints: false, hasThinkingSignatures: true, providerFamily: 'google' },
  discover: discoverSessions,
  read: readSession,
  link: linkSessions,
  write: writeGeminiSession,
  census: geminiCensus,
}
