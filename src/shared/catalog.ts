/**
 * Shapes of the catalog-backed API methods (search, usage and cost, index progress, live changes,
 * paged transcripts). Plain JSON: they cross IPC and HTTP. No Node or Electron imports (the
 * renderer imports this file). Times are ms since epoch; tokens are integers; cost is US dollars.
 */
import type { AgentId, MessageNode, Role, Session, SessionSummary, Usage } from './ir'

/**
 * Progress of the catalog refresh (`getIndexStatus`). A refresh goes `discover` (listing the
 * stores) → `read` (re-reading the sessions whose files changed; `done`/`total` sessions,
 * `bytesDone`/`bytesTotal` bytes) → `link` (sub-agents to parents) → `search` (a cold index on
 * workers first writes the message rows its lighter first pass left, `catalog/rows.ts`, with
 * `textTotal` 0; then adds message text to the search index; `textDone`/`textTotal` messages) →
 * `idle`. The library is usable during every phase; search results are partial until the
 * `search` phase ends.
 */
export interface IndexStatus {
  phase: 'idle' | 'discover' | 'read' | 'link' | 'search'
  /** True while a refresh (or its search phase) runs. */
  running: boolean
  /** Sessions read so far / to read in this refresh. */
  done: number
  total: number
  /** Bytes of those sessions' files. */
  bytesDone: number
  bytesTotal: number
  /** Messages added to the search index so far / to add. */
  textDone: number
  textTotal: number
  /** ms since epoch. */
  startedAt?: number
  /** ms since epoch when the sessions were written (the search phase may go on). */
  finishedAt?: number
  /** Plain words when the last refresh or search indexing could not write the catalog (the command went on). */
  error?: string
}

/** Filters of `search` (all optional, combined with AND). */
export interface SearchFilters {
  /** One agent or several. */
  agent?: AgentId | AgentId[]
  /** Project folder: sessions whose working directory is this folder or under it. */
  project?: string
  /** Messages written at or after / before this time: ms since epoch or `YYYY-MM-DD` (UTC day start). */
  since?: number | string
  until?: number | string
  /** Model id, exact or a prefix (`claude-sonnet-4`): the message's model, for messages without one the session's. */
  model?: string
  role?: Role | Role[]
  /** Messages that call this tool, or results of it (the agent's own tool name, case-insensitive). */
  toolName?: string
  /** Hits to return (default 30, at most 500). */
  limit?: number
  /** Hits to skip (paging). */
  offset?: number
  /** `relevance` (default: best of the newest matches) or `recent` (newest first). */
  sort?: 'relevance' | 'recent'
}

/** One message that matches a search. */
export interface SearchHit {
  agent: AgentId
  sessionId: string
  nodeId: string
  role: Role
  createdAt?: number
  /** A short excerpt around the match (plain text, cut with `…`). */
  snippet: string
  /** Matched ranges in `snippet`: [start, end) character offsets. */
  highlights: [number, number][]
  sessionTitle?: string
  project?: string
  model?: string
  /** Tools the message calls (or the tool a result belongs to). */
  toolNames?: string[]
  /** Index of the node in the session's `nodes` (for `getSessionPage`). */
  nodeIndex: number
}

/** The answer of `search`. */
export interface SearchResult {
  query: string
  hits: SearchHit[]
  /** True when more hits exist past `offset + hits.length`. */
  more: boolean
  /** True while the search index is still being filled (results may be missing). */
  partial: boolean
  /** Time the search took, ms. */
  tookMs: number
}

/** How `getUsage` groups. */
export type UsageGroupBy = 'day' | 'project' | 'model' | 'session' | 'agent'

/** Arguments of `getUsage` / `exportUsageCsv`. */
export interface UsageQuery {
  by: UsageGroupBy
  /** First day (inclusive) as `YYYY-MM-DD` in `timeZone`, or ms since epoch. */
  since?: string | number
  /** Last day (inclusive) as `YYYY-MM-DD` in `timeZone`, or ms since epoch (exclusive). */
  until?: string | number
  /** IANA time zone for days (default: the machine's). */
  timeZone?: string
  agent?: AgentId
  /** Project folder (sessions in it or under it). */
  project?: string
}

/** Token and cost totals. */
export interface UsageTotals {
  inputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  /** Output tokens, reasoning included for every agent (see {@link thinkingTokens}). */
  outputTokens: number
  /**
   * Reasoning tokens as the stores report them: part of `outputTokens` (and so of `totalTokens`)
   * for every agent. Claude Code and Codex count them inside their output already; Gemini CLI
   * (`thoughts`) and OpenCode/Kilo (`reasoning`) report them apart, and the report adds them to
   * output, where they are also priced (src/shared/usage-rules.ts `THINKING_SEPARATE`).
   */
  thinkingTokens: number
  /** input + output (reasoning included) + cache read + cache write. */
  totalTokens: number
  /** USD: recorded by the store where it records one, else priced from the pricing table. */
  cost: number
  /** USD of `cost` that the stores recorded themselves. */
  recordedCost: number
  /** Messages with usage. */
  messages: number
  /** Messages whose model is not in the pricing table and whose store records no cost (counted as 0 USD). */
  unpricedMessages: number
  /**
   * Messages whose store keeps no token counts that add up (Crush: one per session, holding the
   * session's cost): their cost is in `cost`, their tokens in no column (src/shared/usage-rules.ts
   * `TOKENS_UNKNOWN`). When it is not 0 the token columns are short by an unknown amount.
   */
  tokensUnknownMessages: number
}

/** One group of `getUsage`. */
export interface UsageRow extends UsageTotals {
  /** Group key: `YYYY-MM-DD`, project path, model id, `<agent>/<session id>`, or agent id. */
  key: string
  /** Human label (session title, project folder name...). */
  label: string
  /** Models seen in the group. */
  models: string[]
  /** For `by: "session"`: the (root) session; sub-agent sessions are rolled into it. */
  agent?: AgentId
  sessionId?: string
  project?: string
  /** For `by: "session"`: number of sub-agent sessions rolled in. */
  subagentSessions?: number
}

/** The answer of `getUsage`. */
export interface UsageReport {
  by: UsageGroupBy
  timeZone: string
  rows: UsageRow[]
  totals: UsageTotals
  /** Models with usage that the pricing table does not know. */
  unpricedModels: string[]
  /**
   * Agents in the report whose tokens are unknown (counted in no token column), with their
   * messages and the cost (USD) they add: Crush stores only its last request's token counts.
   */
  tokensUnknown: { agent: AgentId; messages: number; cost: number }[]
  /** The pricing table used: its date and where it came from. */
  pricing: { updated: string; source: string }
}

/** The answer of `getChanges`. */
export interface ChangeSet {
  /** Pass it to the next `getChanges` call. */
  token: string
  /** Sessions added or changed since the token (their new summaries). */
  changedSessions: SessionSummary[]
  /** Sessions gone since the token. */
  removedSessions: { agent: AgentId; id: string }[]
  index: IndexStatus
}

/** Options of `getSessionPage`. */
export interface PageOptions {
  /** First node (0-based). Default 0. */
  offset?: number
  /** Nodes to return. Default 200, at most 2,000. */
  limit?: number
  /** Longer texts (content, thinking, text blocks, tool results) are cut to this many characters. Default 20,000. */
  maxChars?: number
  /**
   * Return the page that holds this node instead: `offset` becomes the multiple of `limit` at or
   * below the node's index (a search hit opened in a long transcript). Unknown ids are ignored.
   */
  nodeId?: string
}

/** Whole-session figures a paged view cannot sum from the pages it holds. */
export interface SessionStats {
  /** user + assistant messages, events and injected (`isMeta`) text not counted. */
  messages: number
  /** Tool calls over all nodes. */
  toolCalls: number
  /** Injected (`isMeta`) nodes, hidden by default in the transcript. */
  metaNodes: number
  /** Sum of the nodes' usage (tokens, cost in USD) when the session has no total of its own. */
  usage?: Usage
}

/** Options of `findInSession`. */
export interface FindOptions {
  /** Include injected (`isMeta`) nodes. Default false (they are hidden in the transcript). */
  includeMeta?: boolean
  /** Most matching nodes returned. Default 1,000, at most 10,000. */
  limit?: number
}

/** One node that holds the text looked for. */
export interface FindMatch {
  /** Index in the session's `nodes` (for `getSessionPage`). */
  nodeIndex: number
  nodeId: string
  /** Occurrences in the node (text, thinking, text blocks, tool call arguments). */
  count: number
}

/** The answer of `findInSession`: matching nodes in transcript order. */
export interface FindResult {
  query: string
  matches: FindMatch[]
  /** Occurrences over every matching node (also those past `limit`). */
  total: number
  /** True when more nodes matched than `limit`. */
  more: boolean
}

/**
 * One page of a session. `session` is the session without nodes (`nodes: []`). A cut node has
 * `metadata.sepiaTruncated = {field: chars, ...}` (the full length of each cut field); fetch it
 * whole with `getSessionNode` ("show all").
 */
export interface SessionPage {
  session: Session
  nodes: MessageNode[]
  offset: number
  totalNodes: number
  /** Whole-session counts (messages, tool calls, injected nodes, usage). */
  stats?: SessionStats
  /**
   * True when the page came from a prefix of a large transcript while the whole file is still
   * being read: its nodes are final (main answers so only when the prefix holds the page's tool
   * results and more nodes after it), but `totalNodes` is the count from the last index and the
   * header (`session`) and `stats` are the prefix's (`session.maskedSecrets` counts the secrets
   * of this page and the header only). Also true for a page of a session read whole whose masked
   * copy is still being made (a few seconds for 200 MB): nodes, `totalNodes` and `stats` are then
   * final, and `session.maskedSecrets` counts the header's and this page's secrets only. Ask again
   * for the final header and counts.
   */
  partial?: boolean
}
