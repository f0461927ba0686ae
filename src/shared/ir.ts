/**
 * Sepia's intermediate representation (IR) of an agent session.
 *
 * Every reader turns an agent's store into a {@link Session}; every writer turns a Session into
 * another agent's store; the renderer shows a Session. The shapes follow the design card
 * (`shared/DESIGN.md` "The IR") and seed 002 "IR v2 — recommended additions".
 *
 * Rules that hold for every field:
 * - Times are milliseconds since the Unix epoch, UTC (`...At`, `...Ms` names).
 * - Token counts are integers; cost is US dollars.
 * - A value the store does not record stays absent (`undefined`): a reader never invents one.
 * - What a reader could not parse becomes a {@link Diagnostic} on the session, not an exception.
 * - Agent-specific data with no IR field survives in `metadata` (and `raw` where a writer needs it).
 *
 * This file is imported by the renderer too: no Node or Electron imports.
 */
import type { ArchivedMark } from './archive'

/** Version of the IR's JSON shape. Bump on any incompatible change; goldens record it. */
export const IR_VERSION = 1

/**
 * Agent ids used by the CLI, the API and the registry (issue "first light", item 7).
 * Forks of Cline (roo-code, kilo-code, pearai) have ids of their own.
 */
export const AGENT_IDS = [
  'claude-code',
  'cline',
  'roo-code',
  'kilo-code',
  'pearai',
  'cursor',
  'cursor-agent',
  'devin',
  'codex',
  'opencode',
  'gemini',
  'copilot-cli',
  'goose',
  'qwen-code',
  'pi',
  'openhands',
  'aider',
  'crush',
  'vscode-copilot-chat',
  'continue',
  'zed',
  'kiro',
  'droid',
  'amp',
  'letta-code',
] as const

/** One of {@link AGENT_IDS}. */
export type AgentId = (typeof AGENT_IDS)[number]

/** True when `value` names a known agent. */
export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && (AGENT_IDS as readonly string[]).includes(value)
}

/** Operating system whose layout a home folder follows (may differ from the machine's own OS). */
export type HomeOs = 'linux' | 'darwin' | 'win32'

/** Lifecycle of a session as the agent recorded it (Cline manifest `status`, seed 000 "SDK manifest"). */
export type SessionStatus = 'running' | 'idle' | 'pending' | 'completed' | 'failed' | 'cancelled'

/** Message roles, Anthropic/OpenAI terms. `tool` carries one tool result. */
export type Role = 'system' | 'user' | 'assistant' | 'tool'

/**
 * ACP `ToolKind` (Agent Client Protocol, `shared/formats/cursor-devin-atif-acp.md` section on ACP):
 * what a tool call does, independent of the agent's own tool name.
 */
export type ToolKind =
  | 'read'
  | 'edit'
  | 'delete'
  | 'move'
  | 'search'
  | 'execute'
  | 'think'
  | 'fetch'
  | 'switch_mode'
  | 'other'

/** ACP `ToolCallStatus`. */
export type ToolCallStatus = 'pending' | 'in_progress' | 'completed' | 'failed'

/** A file a tool call touched (ACP `ToolCallLocation`). `line` is 1-based. */
export interface ToolCallLocation {
  /** Absolute path when the store gives one, else as recorded. */
  path: string
  /** 1-based line number, when recorded. */
  line?: number
}

/** A before/after payload of a file change (ACP diff content). Absent text = file absent on that side. */
export interface ToolCallDiff {
  path: string
  /** Text before the change; absent for a new file. */
  oldText?: string
  /** Text after the change; absent for a deletion. */
  newText?: string
}

/**
 * One tool invocation by the assistant. Its result is a separate `role: "tool"` {@link MessageNode}
 * whose `toolCallId` equals `id` (seed 002 "What the IR captures today").
 */
export interface ToolCall {
  /** The agent's call id (`toolu_...`, `call_...`). Unique within a session. */
  id: string
  /** The agent's own tool name (`Bash`, `run_commands`, `execute_command`, ...). */
  name: string
  /**
   * The namespace the agent lists the tool under, when it records one (Codex
   * `function_call.namespace`: `collaboration`, `multi_agent_v1`, an MCP server or a dynamic tool
   * group; codex-rs `protocol/src/models.rs`). Kept so a writer of the same agent writes it back.
   */
  namespace?: string
  /** ACP kind derived from the name and arguments. */
  kind: ToolKind
  /** Arguments as the agent recorded them (parsed JSON object, or the raw string). */
  arguments: unknown
  /** Final status: `completed`/`failed` once a result is paired, `pending` when none was found. */
  status?: ToolCallStatus
  /** True when the paired result reports an error (Claude `is_error`, Cline `success:false`). */
  isError?: boolean
  /** Process exit code, for execute calls whose store records it. */
  exitCode?: number
  /** Wall time of the call in milliseconds, when recorded. */
  durationMs?: number
  /** Files the call touched. */
  locations?: ToolCallLocation[]
  /** File changes the call made or proposed. */
  diffs?: ToolCallDiff[]
  /** Id of a session spawned by this call (a sub-agent), once linked. */
  subagentSessionId?: string
  /**
   * How a call that did not run ended, when the store says so: `{ refused: true }` when the agent
   * refused it (Cline "Tool [x] was not executed because ..."; its result node holds that text),
   * `{ interrupted: true }` when the user or an error stopped the turn before any result was
   * recorded (no result node exists). Absent for calls that ran.
   */
  metadata?: Record<string, unknown>
}

/** Token usage of one model response. Integers; `cost` in US dollars. */
export interface Usage {
  /** Input tokens billed at the full rate (excludes cache reads and writes). */
  inputTokens?: number
  outputTokens?: number
  cacheReadTokens?: number
  cacheWriteTokens?: number
  /** Reasoning tokens, when the provider reports them separately. */
  thinkingTokens?: number
  /** Cost in US dollars, when the store records it. */
  cost?: number
}

/** Ordered content of a message when it holds more than plain text. */
export type ContentBlock =
  | { type: 'text'; text: string }
  | {
      type: 'image'
      /** MIME type, e.g. `image/png`. */
      mediaType?: string
      /** Base64 payload, when stored inline. */
      data?: string
      /** Location, when the store points to the image instead. */
      uri?: string
    }
  | { type: 'file'; path?: string; mediaType?: string; text?: string }
  | {
      /** A block the reader does not model; kept so nothing is lost (pandoc's RawBlock). */
      type: 'unknown'
      /** The store's own block type name. */
      originalType: string
      /** Text it carries, when any (shown as an "unknown event" row). */
      text?: string
      raw?: unknown
    }

/** The kinds of {@link ContentBlock}, for exhaustive dispatch tables. */
export type ContentBlockType = ContentBlock['type']

/**
 * One message in the session forest. `parentNodeId` links it to the message it follows, so
 * branches and rewinds survive; the main thread is the path a reader marks in `Session.mainThread`
 * (or the nodes in order when absent).
 */
export interface MessageNode {
  /** Unique within the session (the store's uuid/id, or a reader-made stable id). */
  nodeId: string
  /** The node this one follows; absent for a root. */
  parentNodeId?: string
  role: Role
  /** Text projection of the message (all text blocks joined by blank lines). */
  content: string
  /** Ordered blocks when the message holds non-text content; `content` stays the text projection. */
  blocks?: ContentBlock[]
  /** Tool calls the assistant made in this message. */
  toolCalls?: ToolCall[]
  /** For `role: "tool"`: the call this result answers. */
  toolCallId?: string
  /** For `role: "tool"`: the called tool's name. */
  toolName?: string
  /** For `role: "tool"`: the result reports an error. */
  isError?: boolean
  /** Reasoning text, when readable. */
  thinking?: string
  /** Opaque provider seal of the thinking block(s), kept verbatim (seed 002 gap #4). */
  thinkingSignature?: string
  /** When the message was written, ms since epoch. */
  createdAt?: number
  /** Model that produced this message. */
  model?: string
  /** Provider request id. */
  requestId?: string
  /** Why generation stopped (`end_turn`, `tool_use`, `stop`, ...). */
  finishReason?: string
  usage?: Usage
  /**
   * A marker rather than a conversation turn: `compaction` (context was compacted here),
   * `model-change`, `unknown-event` (a record type the reader does not model, shown when it has text),
   * `interrupted`, and what the agent's CLI wrote in the user's place (issue 14): `command` (a slash
   * command; `content` is `/name args`, with ` → ` and its output's first line when it printed one),
   * `notification` (a background task reported back; `content` is its summary, then its report;
   * `metadata.status`), `hook` (a hook stopped the operation; `content` is its reason), `api-error`
   * (the request failed; `content` is the error), `notice` (another line the CLI wrote). `content` is
   * plain text (no tags, no escape codes); such a node has `role: "system"` and is never a prompt.
   */
  event?: EventKind
  /**
   * True for text the agent injected (system reminders, environment details), hidden by default.
   * A meta user node with `metadata.commandPrompt: true` ({@link COMMAND_PROMPT}) is the prompt a
   * slash command or skill expanded into (Claude Code's `isMeta` user record after a command): the
   * model saw it as the task, so a conversion keeps it as a user message.
   */
  isMeta?: boolean
  /**
   * The order of an assistant message's parts as the store wrote them, set only when it is not
   * "thinking, then `blocks` (or `content`), then `toolCalls`": Claude Code stores one record per
   * content block, so a reply may be [text, tool_use, text] or [text, thinking, text, tool_use]
   * (fixtures/public-real/claude-code entire-2141; issue 14). When set, `blocks` holds every
   * content block (text too) and the entries name every part once: see {@link PartRef}.
   */
  partOrder?: PartRef[]
  /** Agent-specific fields with no IR home. */
  metadata?: Record<string, unknown>
  /**
   * Set when this turn is not in the session's transcript but was recovered from a secondary
   * source (the transcript lost it, or the transcript is gone). Absent for transcript turns.
   */
  recovered?: RecoveredFrom
}

/**
 * One part of an assistant message in {@link MessageNode.partOrder}: `block` is `blocks[index]`;
 * `thinking` is the node's `thinking`/`thinkingSignature` (one part, at its first block's place);
 * `tool-call` is the call of `toolCalls` with that `id`.
 */
export type PartRef = { part: 'block'; index: number } | { part: 'thinking' } | { part: 'tool-call'; id: string }

/**
 * `metadata` key of a meta user node that holds the prompt a slash command or skill expanded into
 * (see {@link MessageNode.isMeta}).
 */
export const COMMAND_PROMPT = 'commandPrompt'

/** True for the expanded prompt of a slash command or skill ({@link COMMAND_PROMPT}). */
export function isCommandPrompt(n: Pick<MessageNode, 'role' | 'isMeta' | 'metadata'>): boolean {
  return n.role === 'user' && n.isMeta === true && n.metadata?.[COMMAND_PROMPT] === true
}

/** Kinds of {@link MessageNode.event}. */
export type EventKind = 'compaction' | 'model-change' | 'unknown-event' | 'interrupted' | 'command' | 'notification' | 'hook' | 'api-error' | 'notice'

/**
 * Where a turn or a session came from when no primary store holds it any more: a secondary source
 * the agent keeps beside its transcripts (Cline's search index `db/session-search.db`, hook audit
 * log `logs/hooks.jsonl`; seed 000 "Past-use rows and secondary sources", "What survives a delete").
 * Shown with a "recovered" badge naming `source`.
 */
export interface RecoveredFrom {
  /** The secondary source's file name, e.g. `session-search.db`, `hooks.jsonl`. */
  source: string
  /** Absolute path of that file. */
  path: string
  /** 1-based line (JSONL) or position (a search-index document's ordinal + 1), when known. */
  line?: number
}

/** A workspace snapshot the agent recorded: a reference, never the payload (seed 002 "Checkpoints"). */
export interface Checkpoint {
  /** Store-specific reference: a git sha (Cline) or a message id (Claude Code file history). */
  ref: string
  /** `stash` / `commit` (Cline), `file-history` (Claude Code), ... */
  kind?: string
  /** ms since epoch. */
  createdAt?: number
  /** Agent run the checkpoint was taken before (Cline `runCount`). */
  runCount?: number
  /** Node this checkpoint precedes, when known. */
  nodeId?: string
  /** Files it covers, when the store lists them (Claude Code `trackedFileBackups` keys). */
  files?: string[]
}

/** A problem a reader met; the rest of the store still loads. */
export interface Diagnostic {
  /** `error`: data was lost; `warning`: data was odd but kept, or a record was skipped (`skipped`); `info`: worth knowing. */
  severity: 'error' | 'warning' | 'info'
  /** Absolute path of the file. */
  path: string
  /** 1-based line number, when the file is line-oriented. */
  line?: number
  /** Plain words: what is wrong and what was done about it. */
  message: string
  /**
   * How many records (lines, messages, events, rows, files of a session) the reader dropped, on a
   * `warning` that lost them while the rest of the session reads as usual (an `error` says data
   * was lost by itself). Set through `skipRecord` (src/main/ir/build.ts), or on a problem a
   * reader gathers before it has a session (Codex, Gemini), so nothing matches `message`;
   * `sepia doctor` counts such a session as read only in part. On a discovery `warning` (no
   * session yet) it is 1: a file or folder that was not read at all (a FIFO, a folder named like a
   * session file, a symbolic link loop, a folder that cannot be listed), which `sepia doctor`
   * counts as a skipped file (health/report.ts `isUnreadFile`).
   */
  skipped?: number
  /** Session the problem belongs to, when known. */
  sessionId?: string
  agent?: AgentId
}

/**
 * Whether `d` tells of something lost though it may be only a `warning`: records a reader skipped,
 * or a file or folder discovery did not read (`Diagnostic.skipped`). `sepia doctor`, the CLI, the
 * app's diagnostics panel and convert's read-back check count such a diagnostic like an `error`.
 */
export function isSkipped(d: { skipped?: number | undefined }): boolean {
  return (d.skipped ?? 0) > 0
}

/**
 * Whether `d` says something was left out: an `error`, or a `warning` of records or files skipped
 * ({@link isSkipped}). The library banner calls these problems, the Health view lists their
 * sessions as read only in part (src/main/health/report.ts), and a session row badges them. Every
 * other `warning` is a note: odd data kept whole (a branch that starts anew), nothing left out.
 */
export function isProblem(d: { severity: string; skipped?: number | undefined }): boolean {
  return d.severity === 'error' || isSkipped(d)
}

/**
 * Whether `n` is a message of the conversation: a user or assistant message that is not an event
 * or injected context (`isMeta`). `SessionSummary.messageCount` counts these; a session with none
 * (a Gemini CLI chat holding only a hook warning, a Goose session row with no messages) has no
 * conversation to show or to continue in another agent.
 */
export function isConversationMessage(n: Pick<MessageNode, 'role' | 'event' | 'isMeta'>): boolean {
  return (n.role === 'user' || n.role === 'assistant') && !n.event && !n.isMeta
}

/**
 * What a session row says of its diagnostics: `problems` (something was left out, as the library
 * banner and the Health view count them) and `notes` (the other warnings: nothing was left out).
 */
export function rowDiagnostics(s: Pick<SessionSummary, 'diagnosticCount' | 'problemCount'>): { problems: number; notes: number } {
  const problems = Math.min(s.problemCount ?? s.diagnosticCount, s.diagnosticCount)
  return { problems, notes: s.diagnosticCount - problems }
}

/** Where a session was read from. */
export interface SessionSource {
  /** Store generation, e.g. `claude-code-jsonl`, `cline-sdk`, `cline-legacy-task`. */
  format: string
  /** Files read, primary first (absolute paths). */
  files: string[]
  /** The home folder this session was found under. */
  home?: string
}

/** A session as Sepia shows, searches and converts it. */
export interface Session {
  /** IR JSON version ({@link IR_VERSION}). */
  irVersion: number
  /** The agent's own session id. */
  id: string
  agent: AgentId
  title?: string
  /** Project path as the agent recorded it (in the home's own OS syntax). */
  workingDirectory?: string
  /** Main model of the session (the first assistant model, else the configured one). */
  model?: string
  /** ms since epoch. */
  createdAt?: number
  /** ms since epoch. */
  lastActivityAt?: number
  status?: SessionStatus
  exitCode?: number
  /** The session that spawned this one (sub-agent), when linked. */
  parentSessionId?: string
  /** Tool call in the parent that spawned this session. */
  parentToolCallId?: string
  /** Sub-agent sessions spawned from this one. */
  childSessionIds?: string[]
  /** Sub-agent / teammate name (Cline `agent_id`, Claude `agentId`). */
  agentName?: string
  teamName?: string
  git?: { branch?: string; sha?: string }
  checkpoints: Checkpoint[]
  /** Messages in file order (a forest via `parentNodeId`). */
  nodes: MessageNode[]
  /** Prompts the user typed, oldest first (input recall logs). */
  promptHistory?: string[]
  source: SessionSource
  /** Problems met while reading this session. */
  diagnostics: Diagnostic[]
  /** Session totals the store records (Claude `cost-state`, Cline `metadata.usage`). */
  usage?: Usage
  /** Agent-specific data with no IR field (record types kept as metadata, manifest extras). */
  metadata: Record<string, unknown>
  /**
   * Set for a whole session whose transcript is gone and which was rebuilt from a secondary
   * source (`source.format` is then e.g. `cline-recovered`). Absent for ordinary sessions.
   */
  recovered?: { source: string; path: string }
  /**
   * Secrets masked in this copy (set by main when it masks a session for the renderer, an export
   * or a convert; absent when there were none, and on a revealed session). Readers never set it.
   */
  maskedSecrets?: number
}

/** A short description of a session for lists (derived from a read {@link Session}). */
export interface SessionSummary {
  id: string
  agent: AgentId
  title?: string
  workingDirectory?: string
  model?: string
  createdAt?: number
  lastActivityAt?: number
  status?: SessionStatus
  /** user + assistant messages (tool results and events not counted). */
  messageCount: number
  toolCallCount: number
  parentSessionId?: string
  childSessionIds?: string[]
  agentName?: string
  /** The first thing the user typed, trimmed to 500 characters. */
  firstPrompt?: string
  usage?: Usage
  format: string
  files: string[]
  home: string
  /** Diagnostics met reading the session: its `error` and `warning` ones (`info` notes are not counted). */
  diagnosticCount: number
  /**
   * Of {@link diagnosticCount}, those that say something was left out ({@link isProblem}: an
   * `error`, or records or files skipped); the rest are notes that lost nothing. Absent on a
   * summary recorded before this field existed: {@link rowDiagnostics} then counts every one as a
   * problem, as the row did before.
   */
  problemCount?: number
  /** Copied from {@link Session.recovered}: the session was rebuilt from a secondary source. */
  recovered?: { source: string; path: string }
  /**
   * The agent hides this session from its own list (Devin CLI `sessions.hidden = 1`, read as
   * `Session.metadata.hidden`; formats/cursor-devin-atif-acp.md C3). The library lists it only
   * when the user shows hidden sessions.
   */
  hidden?: true
  /**
   * The session's files are gone from the agent's store; it is read from Sepia's archive
   * (issue 19, `src/main/archive/`) and can be put back.
   */
  archived?: ArchivedMark
}
