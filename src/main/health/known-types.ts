/**
 * The record types each reader models, in one place, for the reading-health census
 * (`census.ts`). A type not listed here is counted as "of a kind Sepia does not read".
 *
 * - Claude Code: `type` of each JSONL line. Messages (`user`, `assistant`, `system`) plus the
 *   metadata types the reader takes facts from (`METADATA_TYPES`, src/main/agents/claude-code/facts.ts).
 * - Codex: the top-level `type` of each rollout line; for `response_item` and `event_msg` the
 *   census key is `<type>/<payload.type>`. Items: message, reasoning, the call and result types
 *   of src/main/agents/codex/tools.ts, ghost_snapshot, compaction. Events: the ones
 *   src/main/agents/codex/items.ts reads or keeps as counts (`COUNTED_EVENTS` there).
 * - Gemini CLI: `type` of each message (`messages[]` of a JSON chat, or a JSONL line);
 *   src/main/agents/gemini/nodes.ts. JSONL lines that are not messages count as `header`, `$set`, `$rewindTo` (files.ts).
 * - Copilot CLI: `type` of each `events.jsonl` line (`KNOWN_EVENT_TYPES`, src/main/agents/copilot-cli/read.ts).
 * - Pi: `type` of each session line (`KNOWN_ENTRY_TYPES`, src/main/agents/pi/read.ts).
 */
import type { AgentId } from '../../shared/ir'
import { METADATA_TYPES } from '../agents/claude-code/facts'
import { COUNTED_EVENTS } from '../agents/codex/items'
import { CALL_TYPES, RESULT_TYPES } from '../agents/codex/tools'
import { KNOWN_EVENT_TYPES as COPILOT_EVENTS } from '../agents/copilot-cli/read'
import { KNOWN_RECORD_TYPES as QWEN_RECORDS } from '../agents/qwen-code/read'
import { KNOWN_ENTRY_TYPES as PI_ENTRIES } from '../agents/pi/read'

/** The events items.ts turns into nodes, usage or facts, then the ones it keeps as counts. */
const CODEX_EVENTS = [
  'user_message', 'agent_message', 'agent_reasoning', 'token_count', 'turn_aborted', 'item_completed', 'exec_command_end',
  ...COUNTED_EVENTS,
]
const CODEX_ITEMS = ['message', 'reasoning', 'ghost_snapshot', 'compaction', 'compaction_summary', ...CALL_TYPES, ...RESULT_TYPES]

/** Known census keys per agent (agents without a census are absent). */
export const KNOWN_RECORD_TYPES: Partial<Record<AgentId, ReadonlySet<string>>> = {
  'claude-code': new Set(['user', 'assistant', 'system', ...METADATA_TYPES]),
  codex: new Set([
    'session_meta', 'world_state', 'state', 'turn_context', 'compacted', 'token_usage_record',
    ...CODEX_ITEMS.map((t) => `response_item/${t}`),
    ...CODEX_EVENTS.map((t) => `event_msg/${t}`),
  ]),
  gemini: new Set(['user', 'gemini', 'info', 'warning', 'error', 'header', '$set', '$rewindTo']),
  'copilot-cli': new Set(COPILOT_EVENTS),
  'qwen-code': new Set(QWEN_RECORDS),
  pi: new Set(PI_ENTRIES),
}
