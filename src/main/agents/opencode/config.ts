/**
 * What tells the members of the OpenCode family apart: the agent id, the folder under the XDG data
 * home and the database name. OpenCode: `<xdg data>/opencode/opencode.db` (channel builds
 * `opencode-<channel>.db`, packages/opencode/src/storage/db.ts) and `storage/`; Kilo Code CLI (an
 * OpenCode fork): `<xdg data>/kilo/kilo.db` (fixtures/real/kilo/README.md). Both resolve the data
 * home with `xdg-basedir`, so it is `~/.local/share` on every OS unless `XDG_DATA_HOME` is set
 * (HomeLayout `xdgDataHome`).
 */
import type { AgentId } from '../../../shared/ir'

/** One member of the family. */
export interface OpencodeFamilyConfig {
  id: AgentId
  displayName: string
  /** Folder under the data home: `opencode`, `kilo`. */
  dataDirName: string
  /** Database base name: `opencode` → `opencode.db`, `opencode-<channel>.db`. */
  dbName: string
  /** Prefix of the store formats: `opencode` → `opencode-db`, `opencode-json`, `opencode-export`. */
  formatPrefix: string
}

/** The store formats (`StoreRef.format`) of one member. */
export interface FamilyFormats {
  /** A session row of the SQLite database. */
  db: string
  /** A session of the JSON file storage (`storage/session/<project>/<id>.json`). */
  json: string
  /** An `opencode export` file `{info, messages: [{info, parts}]}`. */
  export: string
}

/** The formats of `config`. */
export function formatsOf(config: OpencodeFamilyConfig): FamilyFormats {
  return { db: `${config.formatPrefix}-db`, json: `${config.formatPrefix}-json`, export: `${config.formatPrefix}-export` }
}

/** OpenCode (sst/opencode, npm `opencode-ai`). */
export const OPENCODE_CONFIG: OpencodeFamilyConfig = {
  id: 'opencode',
  displayName: 'OpenCode',
  dataDirName: 'opencode',
  dbName: 'opencode',
  formatPrefix: 'opencode',
}

/** Kilo Code's CLI and its current extension store (npm `@kilocode/cli`). */
export const KILO_CONFIG: OpencodeFamilyConfig = {
  id: 'kilo-code',
  displayName: 'Kilo Code',
  dataDirName: 'kilo',
  dbName: 'kilo',
  formatPrefix: 'kilo',
}
