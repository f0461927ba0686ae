/**
 * Zed's agent threads (the native agent panel): `threads/threads.db` (SQLite; each row's thread
 * is JSON, zstd-compressed by current Zed) in Zed's data dir. Read-only. Built from Zed's source
 * (github:zed-industries/zed `crates/agent/src/db.rs` at 0642ec7e49e2d2c06f55db8c5bb2d4eca0f5223b,
 * `crates/agent/src/legacy_thread.rs` at 4410b97021c7c3c6bb81d744c55ddd8866cffa7f,
 * `crates/agent/src/thread.rs`); Zed is not run here, so the fixture (fixtures/built/zed) is
 * built from those shapes.
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { discoverZed } from './discover'

export { FORMAT_ZED_THREADS_DB, zedDataDir, zedThreadsDb } from './discover'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readZedThread = lazy(() => import('./read').then((m) => m.readZedThread))

/** The Zed definition for the registry. */
export const zed: AgentDefinition = {
  id: 'zed',
  displayName: 'Zed',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: true },
  discover: discoverZed,
  read: readZedThread,
}
