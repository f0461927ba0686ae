/**
 * Goose (block/goose): `~/.local/share/goose/sessions/` — `sessions.db` (SQLite, newer) or one
 * `<name>.jsonl` per session (older). Read-only. Facts from the Goose source (files and commits in
 * read.ts and content.ts) and the public real sample fixtures/public-real/goose (one empty CLI
 * session). The SQLite and JSONL fixtures in fixtures/built/goose are built from those source
 * types, not recorded: Goose is a Rust binary, not installable from npm here.
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { discoverGoose } from './discover'

export { FORMAT_JSONL, FORMAT_SQLITE } from './discover'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readGooseSession = lazy(() => import('./read').then((m) => m.readGooseSession))

/** The Goose definition for the registry. */
export const goose: AgentDefinition = {
  id: 'goose',
  displayName: 'Goose',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: true },
  discover: discoverGoose,
  read: readGooseSession,
}
