/**
 * The archive (issue 19): Sepia keeps a copy of every session file of the user's own home in its
 * data folder, so a session the agent deletes stays listed and can be put back. These are the
 * shapes that cross the bridge. No Node or Electron imports: the renderer imports this file.
 */
import type { AgentId } from './ir'

/** The archive's settings, kept in `<appDataDir>/archive/settings.json`. */
export interface ArchiveSettings {
  /** Keep copies. Off until the user answers the first-start question. */
  enabled: boolean
  /** True once the user answered the first-start question (either way). */
  answered: boolean
  /** Size cap of the stored (compressed) copies, bytes. New copies beyond it are not stored. */
  capBytes: number
  /** Agents whose sessions are never archived. */
  excludedAgents: AgentId[]
  /** Project folders (a session's working directory, or any folder above it) never archived. */
  excludedProjects: string[]
}

/** What is in the archive (see `SepiaApi.getArchiveStatus`). */
export interface ArchiveStatus {
  settings: ArchiveSettings
  /** The archive folder (inside Sepia's data folder). */
  dir: string
  /** Bytes on disk of the stored (compressed, deduplicated) chunks. */
  storedBytes: number
  /** Bytes of every archived file version, before compression and deduplication. */
  rawBytes: number
  /** Distinct file versions kept. */
  versions: number
  /** Sessions with at least one archived version. */
  sessions: number
  /** Archived sessions whose source files are gone from the agent's store. */
  goneSessions: number
  /** File versions not stored by the last archive pass because the cap was reached. */
  skippedForCap: number
  /**
   * Bytes of the session files of the user's own home as the catalog lists them (what the
   * first-start question says the archive would use, before compression). Absent when unknown.
   */
  sourceBytes?: number
  /** True when the user's own home is open (the only home the archive covers). */
  ownHomeOpen: boolean
}

/** Marks a listed session whose source is gone: it is read from the archive. */
export interface ArchivedMark {
  /** When Sepia saw the source missing, ms since epoch. */
  goneAt: number
  /** The agent's display name (the one that deleted it). */
  agentName: string
  /** When the last copy was taken, ms since epoch. */
  archivedAt: number
}

/** What `putBack` did. */
export interface PutBackResult {
  agent: AgentId
  sessionId: string
  /** Files written back (absolute paths). */
  written: string[]
  /** Files left as they are, with the reason (already there, a shared database that exists...). */
  skipped: { path: string; reason: string }[]
  /** Index rows added back (e.g. `sessions.db: sessions row`), with the backup of the database. */
  rows: { table: string; dbPath: string; backup?: string }[]
  /** True when every written file was read back and matched the archived bytes (sha256). */
  verified: boolean
  /** The command that resumes it in the agent, when known (`claude --resume <id>`). */
  resumeCommand?: string
}

/** What `pruneArchive` did. */
export interface PruneResult {
  removedVersions: number
  freedBytes: number
  storedBytes: number
}

/** A warning that an agent will delete sessions soon (see `SepiaApi.getRetentionWarnings`). */
export interface RetentionWarning {
  agent: AgentId
  agentName: string
  /** The setting, in the agent's words (`cleanupPeriodDays`, `general.sessionRetention.maxAge`). */
  setting: string
  /** The settings file it was read from. */
  settingsFile: string
  /** Retention in days (the agent's default when the setting is absent: `defaulted`). */
  days: number
  defaulted: boolean
  /** The window looked at, days from now. */
  withinDays: number
  /** Sessions the agent will delete within the window (already due ones included). */
  due: number
  /** Of those, how many have their latest version in Sepia's archive. */
  archived: number
  /** The earliest deletion date among them, ms since epoch. */
  firstDueAt?: number
  /** Ids of the sessions due (at most 50). */
  sessionIds: string[]
}
