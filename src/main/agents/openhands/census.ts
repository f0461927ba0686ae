/**
 * OpenHands' record-type census (`sepia doctor`, src/main/health/census.ts). Every event is its
 * own JSON file, so the census goes through `keysOfJson`: a V0 event
 * (`sessions/<sid>/events/<n>.json`, ./read.ts) is keyed `action:<action>` or
 * `observation:<observation>`, a V1 event (`conversations/<hex>/events/event-*.json`,
 * ./read-v1.ts) by its `kind`. `metadata.json` and `base_state.json` hold no records.
 */
import type { RecordCensus } from '../types'
import { HIDDEN_V1_KINDS, SHOWN_V1_KINDS } from './format'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)

/** V0 action and observation names the reader models (openhands/core/schema/{action,observation}.py). */
const V0_ACTIONS = ['message', 'system', 'finish', 'reject', 'condensation', 'recall', 'change_agent_state', 'null', 'pause', 'resume', 'stop', 'condensation_request', 'run', 'run_ipython', 'read', 'write', 'edit', 'think', 'browse', 'browse_interactive', 'call_tool_mcp', 'delegate', 'task_tracking']
const V0_OBSERVATIONS = ['run', 'run_ipython', 'read', 'write', 'edit', 'think', 'browse', 'error', 'user_rejected', 'agent_state_changed', 'recall', 'null', 'mcp', 'delegate', 'task_tracking']

export const openhandsCensus: RecordCensus = {
  known: new Set([...V0_ACTIONS.map((a) => `action:${a}`), ...V0_OBSERVATIONS.map((o) => `observation:${o}`), ...SHOWN_V1_KINDS, ...HIDDEN_V1_KINDS]),
  keyOf: (r) => (typeof r.kind === 'string' ? r.kind : undefined),
  keysOfJson(json) {
    const e = obj(json)
    if (!e) return []
    if (typeof e.action === 'string') return [`action:${e.action}`]
    if (typeof e.observation === 'string') return [`observation:${e.observation}`]
    if (typeof e.kind === 'string' && typeof e.id === 'string' && 'timestamp' in e) return [e.kind]
    return []
  },
}
