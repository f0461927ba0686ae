/**
 * One-line summaries of tool-call arguments for the collapsed tool card: the command of an
 * execute call, the path of a read/edit, the pattern of a search, the URL of a fetch...
 *
 * Argument names come from the agents' own tool schemas: Claude Code (`command`, `file_path`,
 * `pattern`, `url`, `description`), Cline (`command`, `path`, `regex`; SDK `commands`,
 * `file_paths`), Codex (`command` as an argv array), Gemini CLI (`absolute_path`, `file_path`),
 * OpenCode (`filePath`). Unknown shapes fall back to the first short string argument.
 */
import type { ToolCall, ToolKind } from '../../shared/ir'
import { firstLine } from './format'

const PATH_KEYS = ['file_path', 'filePath', 'path', 'absolute_path', 'notebook_path', 'target_file', 'file', 'file_paths', 'paths', 'source', 'destination']
const COMMAND_KEYS = ['command', 'commands', 'cmd', 'script']
const SEARCH_KEYS = ['pattern', 'regex', 'query', 'glob', 'search']
const FETCH_KEYS = ['url', 'uri', 'query']
const TEXT_KEYS = ['description', 'prompt', 'thought', 'question', 'result', 'message', 'title', 'action']

/** Keys tried first for each kind, in order. */
const KEYS_BY_KIND: Record<ToolKind, string[]> = {
  execute: COMMAND_KEYS,
  read: PATH_KEYS,
  edit: PATH_KEYS,
  delete: PATH_KEYS,
  move: PATH_KEYS,
  search: [...SEARCH_KEYS, ...PATH_KEYS],
  fetch: FETCH_KEYS,
  think: ['thought', 'thinking', 'content'],
  switch_mode: ['mode', 'mode_slug', 'reason'],
  other: [...TEXT_KEYS, ...COMMAND_KEYS, ...PATH_KEYS, ...SEARCH_KEYS, ...FETCH_KEYS],
}

/** A value as one display string: strings as-is, arrays of strings joined by spaces. */
function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
    return (value as string[]).join(value.length > 1 && value.some((v) => v.includes('/')) ? ', ' : ' ')
  }
  if (Array.isArray(value) && value.length > 0 && value.every((v) => v && typeof v === 'object')) {
    // Cline SDK run_commands: [{command: "..."}] / read_files: [{path: "..."}]
    const parts = value.map((v) => asText((v as Record<string, unknown>).command ?? (v as Record<string, unknown>).path))
    if (parts.every((p) => p !== undefined)) return parts.join('; ')
  }
  return undefined
}

/** Parse a JSON-object string argument; other strings stay strings. */
function normalize(args: unknown): unknown {
  if (typeof args === 'string') {
    const t = args.trim()
    if (t.startsWith('{')) {
      try {
        return JSON.parse(t) as unknown
      } catch {
        return args
      }
    }
  }
  return args
}

/**
 * A one-line description of a call's arguments, at most `max` characters; empty when the call has
 * no arguments worth showing. For search calls with a path, "pattern in path".
 */
export function summarizeArguments(call: Pick<ToolCall, 'kind' | 'arguments' | 'locations'>, max = 160): string {
  const args = normalize(call.arguments)
  if (typeof args === 'string') return firstLine(args, max)
  if (args && typeof args === 'object' && !Array.isArray(args)) {
    const obj = args as Record<string, unknown>
    const keys = KEYS_BY_KIND[call.kind] ?? KEYS_BY_KIND.other
    for (const key of keys) {
      const text = asText(obj[key])
      if (text === undefined) continue
      if (call.kind === 'search' && SEARCH_KEYS.includes(key)) {
        const where = PATH_KEYS.map((k) => asText(obj[k])).find((v) => v !== undefined)
        return firstLine(where ? `${text}  in ${where}` : text, max)
      }
      return firstLine(text, max)
    }
    for (const value of Object.values(obj)) {
      const text = asText(value)
      if (text !== undefined && text.length <= 400) return firstLine(text, max)
    }
  }
  const loc = call.locations?.[0]?.path
  if (loc) return firstLine(loc, max)
  return ''
}

/** Arguments as pretty JSON (or the raw string) for the expanded card. */
export function formatArguments(args: unknown): string {
  const value = normalize(args)
  if (typeof value === 'string') return value
  if (value === undefined) return ''
  try {
    return JSON.stringify(value, null, 2)
  } catch {
    return String(value)
  }
}
