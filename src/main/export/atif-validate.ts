/**
 * A validator for ATIF documents (Agent Trajectory Interchange Format, Harbor RFC 0001, v1.0 to
 * v1.7), checking what `shared/formats/cursor-devin-atif-acp.md` section D lists as required and
 * validated: root `schema_version` (enum `ATIF-v1.0` … `ATIF-v1.7`), `agent{name, version}`,
 * `steps[]`; `session_id` required up to v1.6; each step's `step_id` (sequential from 1),
 * `source` (`system`|`user`|`agent`), `message` (string or ContentPart[]), ISO 8601 `timestamp`;
 * agent-only fields (`model_name`, `reasoning_effort`, `reasoning_content`, `tool_calls`,
 * `metrics`) only on agent steps; ToolCall `{tool_call_id, function_name, arguments: object}`;
 * ObservationResult `{source_call_id?, content?, subagent_trajectory_ref?}`; a
 * SubagentTrajectoryRef names `trajectory_id` or `trajectory_path` (v1.7: a ref with only
 * `session_id` is invalid); embedded `subagent_trajectories` are each valid, carry a
 * `trajectory_id` unique within the array, and number their own steps from 1.
 */

/** The schema versions a validator accepts. */
export const ATIF_VERSIONS = ['ATIF-v1.0', 'ATIF-v1.1', 'ATIF-v1.2', 'ATIF-v1.3', 'ATIF-v1.4', 'ATIF-v1.5', 'ATIF-v1.6', 'ATIF-v1.7'] as const

const SOURCES = new Set(['system', 'user', 'agent'])
const AGENT_ONLY = ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics'] as const
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v)

/**
 * Check an ATIF document. Returns the problems found, each `<json path>: <what is wrong>`; an
 * empty array means the document is valid. Never throws.
 */
export function validateAtif(doc: unknown): string[] {
  const errors: string[] = []
  const ids = new Set<string>()
  collectTrajectoryIds(doc, ids)
  trajectory(doc, '$', errors, false, ids)
  return errors
}

/** Every embedded trajectory id, at any depth (a ref may name one embedded anywhere in the document). */
function collectTrajectoryIds(doc: unknown, into: Set<string>): void {
  if (!isObj(doc) || !Array.isArray(doc.subagent_trajectories)) return
  for (const t of doc.subagent_trajectories) {
    if (isObj(t) && typeof t.trajectory_id === 'string') into.add(t.trajectory_id)
    collectTrajectoryIds(t, into)
  }
}

function trajectory(doc: unknown, at: string, errors: string[], embedded: boolean, allIds: Set<string>): void {
  if (!isObj(doc)) {
    errors.push(`${at}: must be an object`)
    return
  }
  const version = doc.schema_version
  if (typeof version !== 'string' || !(ATIF_VERSIONS as readonly string[]).includes(version)) {
    errors.push(`${at}.schema_version: must be one of ${ATIF_VERSIONS.join(', ')}`)
  }
  const minor = typeof version === 'string' ? Number(version.slice('ATIF-v1.'.length)) : 7
  if (minor <= 6 && typeof doc.session_id !== 'string') errors.push(`${at}.session_id: required (string) up to ATIF-v1.6`)
  if (doc.session_id !== undefined && typeof doc.session_id !== 'string') errors.push(`${at}.session_id: must be a string`)
  if (embedded && typeof doc.trajectory_id !== 'string') errors.push(`${at}.trajectory_id: required on an embedded subagent trajectory`)
  if (doc.trajectory_id !== undefined && typeof doc.trajectory_id !== 'string') errors.push(`${at}.trajectory_id: must be a string`)
  for (const k of ['notes', 'continued_trajectory_ref'] as const) if (doc[k] !== undefined && typeof doc[k] !== 'string') errors.push(`${at}.${k}: must be a string`)
  optionalObject(doc, 'extra', at, errors)
  agent(doc.agent, `${at}.agent`, errors)
  if (doc.final_metrics !== undefined) finalMetrics(doc.final_metrics, `${at}.final_metrics`, errors)

  const embeddedIds = new Set<string>()
  if (doc.subagent_trajectories !== undefined) {
    if (!Array.isArray(doc.subagent_trajectories)) errors.push(`${at}.subagent_trajectories: must be an array`)
    else
      doc.subagent_trajectories.forEach((t, i) => {
        const p = `${at}.subagent_trajectories[${i}]`
        trajectory(t, p, errors, true, allIds)
        const id = isObj(t) ? t.trajectory_id : undefined
        if (typeof id === 'string') {
          if (embeddedIds.has(id)) errors.push(`${p}.trajectory_id: "${id}" is used twice in this array`)
          embeddedIds.add(id)
        }
      })
  }

  if (!Array.isArray(doc.steps)) {
    errors.push(`${at}.steps: required (array)`)
    return
  }
  doc.steps.forEach((s, i) => step(s, i, `${at}.steps[${i}]`, errors, allIds))
}

function agent(a: unknown, at: string, errors: string[]): void {
  if (!isObj(a)) {
    errors.push(`${at}: required (object with name and version)`)
    return
  }
  if (typeof a.name !== 'string' || a.name === '') errors.push(`${at}.name: required (non-empty string)`)
  if (typeof a.version !== 'string' || a.version === '') errors.push(`${at}.version: required (non-empty string)`)
  if (a.model_name !== undefined && typeof a.model_name !== 'string') errors.push(`${at}.model_name: must be a string`)
  if (a.tool_definitions !== undefined) {
    if (!Array.isArray(a.tool_definitions)) errors.push(`${at}.tool_definitions: must be an array`)
    else
      a.tool_definitions.forEach((d, i) => {
        const fn = isObj(d) ? d.function : undefined
        if (!isObj(d) || d.type !== 'function' || !isObj(fn) || typeof fn.name !== 'string') {
          errors.push(`${at}.tool_definitions[${i}]: must be {type: "function", function: {name, ...}}`)
        }
      })
  }
  optionalObject(a, 'extra', at, errors)
}

function step(s: unknown, index: number, at: string, errors: string[], embeddedIds: Set<string>): void {
  if (!isObj(s)) {
    errors.push(`${at}: must be an object`)
    return
  }
  if (!isInt(s.step_id)) errors.push(`${at}.step_id: required (integer)`)
  else if (s.step_id !== index + 1) errors.push(`${at}.step_id: must be ${index + 1} (steps are numbered from 1 without gaps)`)
  if (typeof s.source !== 'string' || !SOURCES.has(s.source)) errors.push(`${at}.source: must be "system", "user" or "agent"`)
  if (s.timestamp !== undefined && (typeof s.timestamp !== 'string' || !ISO_8601.test(s.timestamp) || Number.isNaN(Date.parse(s.timestamp)))) {
    errors.push(`${at}.timestamp: must be an ISO 8601 date-time`)
  }
  if (s.message === undefined) errors.push(`${at}.message: required (string or ContentPart[]; may be "")`)
  else content(s.message, `${at}.message`, errors)
  if (s.source !== 'agent') for (const k of AGENT_ONLY) if (s[k] !== undefined) errors.push(`${at}.${k}: only allowed on agent steps`)
  if (s.model_name !== undefined && typeof s.model_name !== 'string') errors.push(`${at}.model_name: must be a string`)
  if (s.reasoning_content !== undefined && typeof s.reasoning_content !== 'string') errors.push(`${at}.reasoning_content: must be a string`)
  if (s.reasoning_effort !== undefined && typeof s.reasoning_effort !== 'string' && typeof s.reasoning_effort !== 'number') errors.push(`${at}.reasoning_effort: must be a string or a number`)
  if (s.llm_call_count !== undefined && (!isInt(s.llm_call_count) || s.llm_call_count < 0)) errors.push(`${at}.llm_call_count: must be a non-negative integer`)
  if (s.is_copied_context !== undefined && typeof s.is_copied_context !== 'boolean') errors.push(`${at}.is_copied_context: must be a boolean`)
  optionalObject(s, 'extra', at, errors)
  if (s.tool_calls !== undefined) {
    if (!Array.isArray(s.tool_calls)) errors.push(`${at}.tool_calls: must be an array`)
    else
      s.tool_calls.forEach((c, i) => {
        const p = `${at}.tool_calls[${i}]`
        if (!isObj(c)) return void errors.push(`${p}: must be an object`)
        if (typeof c.tool_call_id !== 'string' || c.tool_call_id === '') errors.push(`${p}.tool_call_id: required (non-empty string)`)
        if (typeof c.function_name !== 'string' || c.function_name === '') errors.push(`${p}.function_name: required (non-empty string)`)
        if (!isObj(c.arguments)) errors.push(`${p}.arguments: required (object; may be {})`)
        optionalObject(c, 'extra', p, errors)
      })
  }
  if (s.observation !== undefined) observation(s.observation, `${at}.observation`, errors, embeddedIds)
  if (s.metrics !== undefined) metrics(s.metrics, `${at}.metrics`, errors)
}

function observation(o: unknown, at: string, errors: string[], embeddedIds: Set<string>): void {
  if (!isObj(o) || !Array.isArray(o.results)) {
    errors.push(`${at}: must be {results: ObservationResult[]}`)
    return
  }
  o.results.forEach((r, i) => {
    const p = `${at}.results[${i}]`
    if (!isObj(r)) return void errors.push(`${p}: must be an object`)
    if (r.source_call_id !== undefined && r.source_call_id !== null && typeof r.source_call_id !== 'string') errors.push(`${p}.source_call_id: must be a string or null`)
    if (r.content !== undefined && r.content !== null) content(r.content, `${p}.content`, errors)
    optionalObject(r, 'extra', p, errors)
    if (r.subagent_trajectory_ref !== undefined) {
      if (!Array.isArray(r.subagent_trajectory_ref)) errors.push(`${p}.subagent_trajectory_ref: must be an array`)
      else
        r.subagent_trajectory_ref.forEach((ref, j) => {
          const q = `${p}.subagent_trajectory_ref[${j}]`
          if (!isObj(ref)) return void errors.push(`${q}: must be an object`)
          const id = ref.trajectory_id
          const path = ref.trajectory_path
          if (typeof id !== 'string' && typeof path !== 'string') errors.push(`${q}: needs trajectory_id or trajectory_path (a ref with only session_id is invalid in v1.7)`)
          if (typeof id === 'string' && typeof path !== 'string' && !embeddedIds.has(id)) errors.push(`${q}.trajectory_id: "${id}" names no embedded subagent trajectory`)
        })
    }
  })
}

function content(c: unknown, at: string, errors: string[]): void {
  if (typeof c === 'string') return
  if (!Array.isArray(c)) return void errors.push(`${at}: must be a string or an array of content parts`)
  c.forEach((part, i) => {
    const p = `${at}[${i}]`
    if (!isObj(part)) return void errors.push(`${p}: must be an object`)
    if (part.type === 'text') {
      if (typeof part.text !== 'string') errors.push(`${p}.text: required (string)`)
    } else if (part.type === 'image') {
      const src = part.source
      if (!isObj(src) || typeof src.path !== 'string' || typeof src.media_type !== 'string' || !IMAGE_TYPES.has(src.media_type)) {
        errors.push(`${p}.source: must be {media_type: image/jpeg|png|gif|webp, path}`)
      }
    } else errors.push(`${p}.type: must be "text" or "image"`)
  })
}

function metrics(m: unknown, at: string, errors: string[]): void {
  if (!isObj(m)) return void errors.push(`${at}: must be an object`)
  for (const k of ['prompt_tokens', 'completion_tokens', 'cached_tokens'] as const) {
    if (m[k] !== undefined && (!isInt(m[k]) || (m[k] as number) < 0)) errors.push(`${at}.${k}: must be a non-negative integer`)
  }
  if (m.cost_usd !== undefined && typeof m.cost_usd !== 'number') errors.push(`${at}.cost_usd: must be a number`)
  for (const k of ['prompt_token_ids', 'completion_token_ids', 'logprobs'] as const) if (m[k] !== undefined && !Array.isArray(m[k])) errors.push(`${at}.${k}: must be an array`)
  optionalObject(m, 'extra', at, errors)
}

function finalMetrics(m: unknown, at: string, errors: string[]): void {
  if (!isObj(m)) return void errors.push(`${at}: must be an object`)
  for (const k of ['total_prompt_tokens', 'total_completion_tokens', 'total_cached_tokens', 'total_steps'] as const) {
    if (m[k] !== undefined && (!isInt(m[k]) || (m[k] as number) < 0)) errors.push(`${at}.${k}: must be a non-negative integer`)
  }
  if (m.total_cost_usd !== undefined && typeof m.total_cost_usd !== 'number') errors.push(`${at}.total_cost_usd: must be a number`)
  optionalObject(m, 'extra', at, errors)
}

function optionalObject(o: Obj, key: string, at: string, errors: string[]): void {
  if (o[key] !== undefined && !isObj(o[key])) errors.push(`${at}.${key}: must be an object`)
}
