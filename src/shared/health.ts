/**
 * Reading health (issue 14): how much of each home Sepia understood. Computed in main
 * (`src/main/health/`) from what the readers already produce (session diagnostics, discovery
 * diagnostics, `source`) plus a per-agent census of record types (`src/main/health/census.ts`).
 * Shown by `sepia doctor` and the renderer's Health view. No Node imports: the renderer uses it.
 */
import type { AgentId } from './ir'

/** Where a problem sits: enough to open the file at the line, and the session when known. */
export interface HealthLocation {
  /** Absolute path of the file. */
  path: string
  /** 1-based line, when the file is line-oriented. */
  line?: number
  sessionId?: string
  agent?: AgentId
}

/** Record types seen in one agent's files, counted by type and agent version. */
export interface RecordTypeCount {
  /** The record's type as the agent writes it (Claude Code `type`, Codex `type` or `type/payload.type`). */
  type: string
  /** The agent version that wrote it (Claude Code `version`, Codex `session_meta.payload.cli_version`), when recorded. */
  version?: string
  count: number
  /** True when the reader models this type (`AgentDefinition.census.known`, `src/main/agents/<agent>/census.ts`). */
  known: boolean
}

/** A record type the reader does not know: how many there were and where the first one is. */
export interface UnknownRecordType {
  type: string
  count: number
  /** The first record of this type (file order, sessions in discovery order). */
  first: HealthLocation
}

/** A file discovery or reading left out, and why (a discovery or session diagnostic of severity error). */
export interface SkippedFile extends HealthLocation {
  /** Plain words from the reader. */
  reason: string
}

/** A session some of whose content was lost (it has `error` diagnostics, or a record its reader skipped: `Diagnostic.skipped`, `isSkippedRecord` in src/main/ir/build.ts). */
export interface PartialSession {
  sessionId: string
  title?: string
  /** The problems, as the reader worded them. */
  problems: (HealthLocation & { message: string })[]
}

/** A tool call no result was recorded for (per session). */
export interface UnansweredCalls {
  sessionId: string
  title?: string
  /** Calls without a result node (`countPairedToolCalls`: calls - paired). */
  count: number
  /** Names of the first few such calls (the agent's own tool names). */
  names: string[]
}

/** Health of one agent under one home. */
export interface AgentHealth {
  agent: AgentId
  displayName: string
  sessions: number
  /** Session files read (distinct paths in `source.files`). */
  filesRead: number
  /** Records counted by the census (JSONL lines / JSON messages; 0 for stores it does not count). */
  records: number
  /** Records skipped: of a type the reader does not know (sum of `unknownTypes[].count`), plus `recordsUnreadable`. */
  recordsSkipped: number
  /**
   * Lines (or parts of a line) that hold no readable record: cut short, damaged (counted by an
   * agent whose census reads lines as its reader does, `RecordCensus.lineRecords`; else 0).
   */
  recordsUnreadable?: number
  recordTypes: RecordTypeCount[]
  unknownTypes: UnknownRecordType[]
  skippedFiles: SkippedFile[]
  partialSessions: PartialSession[]
  unansweredCalls: UnansweredCalls[]
  /** Total tool calls and those without a result. */
  toolCalls: number
  toolCallsWithoutResult: number
}

/** A store of an agent Sepia cannot read yet, found by its path (src/main/health/unread.ts). */
export interface UnreadStore {
  /** The agent's name as users know it ("Copilot CLI"). */
  agentName: string
  /** Files or folders found (absolute paths, at most a few). */
  paths: string[]
  /** How many were found in all. */
  count: number
  /**
   * Why Sepia does not read them: `not-yet` (no reader; the default when absent) or `encrypted`
   * (the agent encrypts its local chats, so Sepia can list them but not read them).
   */
  reason?: 'not-yet' | 'encrypted'
  /** Oldest and newest modification time of the files found, ms since epoch (encrypted stores). */
  oldestMs?: number
  newestMs?: number
}

/** Health of one home folder. */
export interface HomeHealth {
  home: string
  agents: AgentHealth[]
  unreadStores: UnreadStore[]
}

/**
 * What Sepia did, on a start, with a write job a killed Sepia left unfinished (its journal in the
 * data folder; src/main/util/write-recovery.ts).
 */
export interface InterruptedWrite {
  jobId: string
  kind: 'convert' | 'restore' | 'undo' | 'export' | 'collect'
  /** When the job started and when it was recovered (ms since epoch). */
  startedAt: number
  recoveredAt: number
  /** `cleaned`: put back as before the job; `finished`: its result was complete and kept; `kept`: something was left in place (`kept`). */
  outcome: 'cleaned' | 'finished' | 'kept'
  /** Plain words. */
  message: string
  /** Paths left in place because Sepia could not be sure they are safe to remove. */
  kept?: string[]
}

/** The whole report over the open homes. */
export interface HealthReport {
  /** ms since epoch. */
  generatedAt: number
  homes: HomeHealth[]
  totals: {
    sessions: number
    filesRead: number
    records: number
    recordsSkipped: number
    /** Of `recordsSkipped`, those cut short or damaged ({@link AgentHealth.recordsUnreadable}). */
    recordsUnreadable?: number
    skippedFiles: number
    partialSessions: number
    toolCallsWithoutResult: number
  }
  /** The report in one plain sentence ("We read 99.7% of your 48,211 records; ..."). */
  summary: string
  /** Interrupted writes recovered on recent starts, newest first (absent when none). */
  interruptedWrites?: InterruptedWrite[]
}

/** Where "Report a problem" wrote a masked copy of one file. */
export interface ProblemReport {
  /** The masked copy (absolute path). */
  path: string
  /** The file it was made from. */
  source: string
  /** Secrets masked, and user names / home paths replaced. */
  maskedSecrets: number
  replacedPaths: number
}
