/**
 * The contract every agent folder implements (`src/main/agents/<agent>/{discover,read}.ts`),
 * and the context readers get their I/O from (STYLE.md "Pure cores, injected I/O").
 */
import type { AgentCapabilities } from '../../shared/api'
import type { AgentId, Diagnostic, Session } from '../../shared/ir'
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
   * Optional: after every ref of this agent in a home is read, link sessions to each other
   * (sub-agents to parents). Mutates the sessions in place.
   */
  link?(sessions: Session[]): void
}
