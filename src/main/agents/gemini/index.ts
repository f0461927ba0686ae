/**
 * Gemini CLI: reads `~/.gemini/tmp/<project>/chats/` sessions (JSONL logs and older single-object
 * `.json` files) and their sub-agent chats (fixtures/real/gemini/README.md, Gemini CLI 0.61.0;
 * google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts). Read-only; the
 * store keeps `thoughtSignature`s on model parts, no workspace checkpoints a session points at.
 */
import type { AgentDefinition } from '../types'
import { discoverSessions } from './discover'
import { linkSessions } from './link'
import { readSession } from './read'

/** The Gemini CLI agent definition for the registry. */
export const gemini: AgentDefinition = {
  id: 'gemini',
  displayName: 'Gemini CLI',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: true },
  discover: discoverSessions,
  read: readSession,
  link: linkSessions,
}
