/**
 * Kilo Code CLI 7.7.7 (`@kilocode/cli`, native binary, an OpenCode fork) against the mock's Chat
 * Completions API: the OpenCode driver (`opencode.ts`) with Kilo's names — `KILO_CONFIG_CONTENT`,
 * `KILO_DISABLE_*`, and from the shared kit (`realstores/lib/agents.sh`) `KILO_NO_DAEMON=1
 * KILO_TELEMETRY_LEVEL=off KILO_DISABLE_SESSION_INGEST=1 KILO_DISABLE_PRESENCE=1`. Resume:
 * `kilo run --format json -s <id> "<prompt>"` in the session's project folder; the session is in
 * `~/.local/share/kilo/kilo.db` (Sepia agent `kilo-code`).
 */
import { familyDriver } from './opencode'
import type { Driver } from './types'

/** Kilo Code CLI 7.7.7. */
export const kiloDriver: Driver = familyDriver({
  agent: 'kilo-code',
  cli: 'kilo',
  pkg: '@kilocode/cli',
  version: process.env.KILO_VERSION || '7.7.7',
  env: { KILO_NO_DAEMON: '1', KILO_TELEMETRY_LEVEL: 'off', KILO_DISABLE_SESSION_INGEST: '1', KILO_DISABLE_PRESENCE: '1' },
})
