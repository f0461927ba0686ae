/**
 * The contract every agent folder implements (`src/main/agents/<agent>/{discover,read}.ts`),
 * and the context readers get their I/O from (STYLE.md "Pure cores, injected I/O").
 */
import type { AgentCapabilities } from '../../shared/api'
import type { ConvertWarning } from '../../shared/convert'
import type { AgentId, Diagnostic, MessageNode, Session } from '../../shared/ir'
import type { NodeTotals } from '../ir/build'
import type { TimelineFilter, TimelineRow } from '../../shared/timeline'
import type { FreshnessDeps } from '../catalog/freshness'
import type { HomeLayout } from '../platform'

/**
 * One session found on disk, before it is read. Discovery is cheap (directory listings and
 * `stat`s); reading is where files are parsed.
 */
export interface StoreRef {
  agent: AgentId
  /** The agent's own session id. */
  sessionId: string
  /** Store generation, e.g. `claude-code-jsonl`, `cline-sdk`, `cline-legacy-task`. */
  format: string
  /** Absolute paths of the files that make up the session, primary first. */
  files: string[]
  /** Total size of `files` in bytes (cache key with `mtimeMs`). */
  size: number
  /** Newest modification time of `files`, ms since epoch. */
  mtimeMs: number
  /** The home this ref was found under. */
  home: string
  /** Parent session id when discovery already knows it (sub-agent files). */
  parentSessionId?: string
  /** Reader-specific hints found during discovery (e.g. a history index entry). */
  hints?: Record<string, unknown>
}

/**
 * I/O and services a reader may use. Tests pass a fixed clock; the same reader runs in main, a
 * worker or the CLI.
 */
export interface ReadContext {
  /** ms since epoch; readers use it only for diagnostics, never to invent a message time. */
  now(): number
  /**
   * Optional: project folders Sepia already knows under `home` (working directories the catalog
   * recorded for sessions of any agent), absolute paths. Agents whose store lives in the project
   * folder (Aider, Crush; `./project-folders.ts`) look there. Absent outside the catalog.
   */
  projectFolders?(home: string): readonly string[]
}

/** What discovery returns: the sessions it found and the problems it met (unreadable roots...). */
export interface DiscoverResult {
  refs: StoreRef[]
  diagnostics: Diagnostic[]
}

/**
 * One agent: its id, name, capabilities (as data, STYLE.md "Layout") and its functions.
 * Adding an agent is adding a folder and one line in `registry.ts`.
 */
export interface AgentDefinition {
  id: AgentId
  displayName: string
  capabilities: AgentCapabilities
  /** Find this agent's sessions under one home. Never throws: problems become diagnostics. */
  discover(layout: HomeLayout, ctx: ReadContext): Promise<DiscoverResult>
  /**
   * Read one session into the IR. Never throws for bad content (diagnostics on the session);
   * rejects only when the primary file cannot be opened at all (`READ_FAILED`).
   */
  read(ref: StoreRef, ctx: ReadContext): Promise<Session>
  /**
   * Optional: read a session for the catalog without keeping its nodes (memory bounded by ids,
   * not text): each node is handed to `out` once it can no longer change, and the session comes
   * back without nodes. The catalog uses it instead of `read` when present; what it hands over
   * must equal what `read` returns (tested in `src/main/catalog/stream.test.ts`).
   */
  readStream?(ref: StoreRef, ctx: ReadContext, out: NodeStream): Promise<StreamedSession>
  /**
   * Optional: after every ref of this agent in a home is read, link sessions to each other
   * (sub-agents to parents). Mutates the sessions in place.
   */
  link?(sessions: Session[]): void
  /**
   * Optional: write a session into this agent's store under a new id (convert target; set
   * `capabilities.canWrite`). `session` is the output of `prepareForTarget` (src/main/convert): the
   * main thread only, linear, every tool call in this agent's vocabulary and followed by its result.
   * Never touches an existing session; writes are atomic (see src/main/convert/README.md).
   * Rejects with `WRITE_FAILED` (nothing left behind) when the store cannot be written.
   */
  write?(session: Session, options: WriteOptions): Promise<WriteResult>
  /**
   * Optional: the timeline rows of this agent under one home, read from the stores (Cline and its
   * forks: seed 000 "Parser plan"). Agents without it are shown as a projection of their IR
   * sessions (`src/main/timeline/project.ts`). Never throws for bad content.
   */
  timeline?(layout: HomeLayout, ctx: ReadContext, filter: TimelineFilter): Promise<{ rows: TimelineRow[]; diagnostics: Diagnostic[] }>
  /**
   * Optional: every folder and side file `discover` depends on besides its refs' files (see
   * `src/main/catalog/freshness.ts`). With it a refresh skips this agent's discovery when none of
   * them and none of the sessions' files changed. Must be complete: a folder or file discovery
   * reads that is not named here would make a refresh miss a change. Synchronous and cheap.
   */
  freshness?(layout: HomeLayout): FreshnessDeps
  /**
   * Optional: how the reading-health census (`src/main/health/census.ts`, `sepia doctor`) counts
   * this agent's records by type. Agents without it have no census.
   */
  census?: RecordCensus
}

/**
 * The record-type census of one agent, as data on its definition: the types its reader models
 * and how to key one record. A census key not in `known` is counted as "of a kind Sepia does not
 * read" and named with its first file and line.
 */
export interface RecordCensus {
  /** Census keys the reader models. */
  known: ReadonlySet<string>
  /**
   * Census key of one JSONL record (one parsed line), or undefined when the line is not a record.
   * May set `state.version` from the record (the agent version that wrote the following lines).
   */
  keyOf(record: Record<string, unknown>, state: { version: string }): string | undefined
  /**
   * Optional: census keys of a whole-file JSON session (e.g. Gemini CLI's `.json` chats: one key
   * per message). Files ending `.jsonl` always go through `keyOf`; other files only through this.
   */
  keysOfJson?(json: unknown): string[]
  /**
   * Optional: the records of one JSONL line as the agent's reader reads them (glued records split,
   * NUL padding dropped), and whether the line holds something that is no readable record (cut
   * short, damaged). Without it a line is one `JSON.parse`, and a line that does not parse is not
   * counted.
   */
  lineRecords?(text: string): { records: Record<string, unknown>[]; unreadable: boolean }
}

/** Where a streaming read ({@link AgentDefinition.readStream}) hands its nodes. */
export interface NodeStream {
  /**
   * A finished node: `seq` is its index in the `nodes` that `read` returns; nodes arrive in that
   * order, every one once (per pass). Tool results are not paired yet (`toolName` unset).
   */
  node(n: MessageNode, seq: number): void
  /** Forget every node handed over: the reader starts another pass from the first node. */
  restart(): void
  /** Non-info diagnostics past this many are counted, not kept (`StreamedSession.droppedDiagnostics`). */
  readonly maxDiagnostics: number
}

/** What a streaming read returns besides its nodes. */
export interface StreamedSession {
  /** The session as `read` returns it, with `nodes` empty and diagnostics capped. */
  session: Session
  /** Nodes handed over (`read`'s `nodes.length`). */
  nodeCount: number
  /** What `finishSession`/`summarize` derive from the nodes (src/main/ir/build.ts). */
  totals: NodeTotals
  /** Non-info diagnostics counted but not kept (see {@link NodeStream.maxDiagnostics}). */
  droppedDiagnostics: number
  /** Of {@link droppedDiagnostics}, those that say something was left out (`isProblem`, src/shared/ir.ts); absent: none. */
  droppedProblems?: number
  /**
   * Tool call id → sub-agent session id: `subagentSessionId` values `read` sets on calls of
   * nodes already handed over (it learns them from later nodes).
   */
  callLinks?: Map<string, string>
}

/** How a writer is asked to write (STYLE.md "Pure cores, injected I/O": clock and ids injected). */
export interface WriteOptions {
  /** The home to write into (its layout gives the agent's folders). */
  layout: HomeLayout
  /** Tool calls were rendered as text (the session holds none); writers only note it. */
  textOnly: boolean
  /** Compute the output (id, files, resume command) without writing anything. */
  dryRun: boolean
  /** ms since epoch. */
  now(): number
  /** A fresh random UUID (v4, lower case); writers derive their own id format from it. */
  newId(): string
  /** Where the session came from; recorded where the target has a place for it. */
  sourceRef: { agent: AgentId; sessionId: string; path?: string }
  /** Test hook: called with the name of each write step; throwing there simulates a fault. */
  fault?: (step: string) => void
}

/** What a writer wrote. */
export interface WriteOutput {
  /** The new session's id, in the agent's own format. */
  sessionId: string
  /** Files created (absolute paths); databases a row was added to are listed too. */
  files: string[]
  /** The command that resumes the session, run in `cwd` (e.g. `claude --resume <id>`). */
  resumeCommand: string
  /** The folder to resume in, when the agent needs one. */
  cwd?: string
  /** Backup copies made before a database was changed (absolute paths). */
  backups: string[]
}

/** A writer's result: the output plus what the target could not hold (pandoc-style warnings). */
export interface WriteResult {
  output: WriteOutput
  warnings: ConvertWarning[]
}
