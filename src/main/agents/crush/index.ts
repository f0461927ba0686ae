/**
 * Crush (npm `@charmland/crush`, charmbracelet): the SQLite store `crush.db` in the project's
 * `.crush` data folder and in the global data dir. Read-only. Built from Crush's source
 * (github:charmbracelet/crush `internal/db`, `internal/message`, `internal/config`,
 * `internal/projects`), the public real stores in fixtures/public-real/crush (Crush, Aug 2025) and
 * the home built from that source in fixtures/built/crush (the current schema). No offline run of
 * the CLI here: its npm package downloads the binary at install time (fixtures/real/crush/README.md).
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { discoverCrush } from './discover'

export { DATA_DIR, DB_FILE, FORMAT_CRUSH_DB, crushGlobalDir } from './discover'
export { KNOWN_PART_TYPES } from './format'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readCrushSession = lazy(() => import('./read').then((m) => m.readCrushSession))

/** The Crush definition for the registry. */
export const crush: AgentDefinition = {
  id: 'crush',
  displayName: 'Crush',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: true },
  discover: discoverCrush,
  read: readCrushSession,
}
