/**
 * Tool calls of any agent → neutral intents (what the call did), the pivot of vocabulary mapping:
 * `decodeCall` (source vocabulary → intents) here, `TargetVocabulary.encode` (intent → the target's
 * tool name and arguments) in `vocab/<agent>.ts`.
 *
 * Tool names and argument names per agent: Claude Code (fixtures/real/claude-code request tools:
 * Bash{command, description, timeout}, Read{file_path, offset, limit}, Write{file_path, content},
 * Edit{file_path, old_string, new_string, replace_all}, Agent{description, prompt, subagent_type};
 * Grep/Glob/WebFetch/WebSearch/MultiEdit from its tool docs); Cline SDK (seed 002 "Tool vocabulary":
 * run_commands{commands}, read_files{files[{path, start_line, end_line}]}, search_codebase{queries},
 * fetch_web_content{requests[{url, prompt}]}, editor{path, old_text, new_text, insert_line},
 * spawn_agent{systemPrompt, task}); legacy Cline XML tools (execute_command, read_file,
 * write_to_file, replace_in_file, search_files, list_files); Codex (exec_command{cmd, workdir},
 * shell{command[]}, apply_patch, view_image); Gemini CLI 0.61 (run_shell_command{command, dir_path},
 * read_file{file_path, start_line, end_line}, write_file, replace, grep_search{pattern, dir_path,
 * include_pattern}, glob, list_directory{dir_path}, web_fetch{prompt}, google_web_search{query},
 * invoke_agent{agent_name, prompt}); OpenCode/Kilo (bash{command, workdir}, read{filePath, offset,
 * limit}, write{filePath, content}, edit{filePath, oldString, newString, replaceAll}, grep, glob,
 * list, webfetch{url}, websearch, task); Pi 0.73.1 (read{path, offset, limit}, bash{command}, edit{path,
 * edits[{oldText, newText}]}, write{path, content}, grep{pattern, path, glob}, find{pattern (a glob),
 * path}, ls{path}: its dist/core/tools/*.js schemas); Devin (exec{command}, edit{file_path, old_string,
 * new_string}, write{file_path, content}, read{path}, grep, glob, run_subagent{agent|profile,
 * prompt|task, title}); Cursor (run_terminal_cmd, read_file{target_file,
 * start_line_one_indexed, end_line_one_indexed_inclusive}, search_replace, edit_file_v2_search_replace,
 * ripgrep_raw_search, list_dir, glob_file_search, web_search, task_v2; agent CLI Shell, Read/ReadFile,
 * Write, StrReplace, Grep, Glob, Task; arg keys targetFile, relativeWorkspacePath, targetDirectory:
 * shared/formats/cursor-devin-atif-acp.md §A5.3.1, §B4). Cursor's `edit_file{target_file, instructions,
 * code_edit}` is not decoded: `code_edit` is a sketch with elided parts that a model applies.
 *
 * A call fanning out to several items (Cline `run_commands` with two commands, `read_files` with
 * three files, a patch or SEARCH/REPLACE with several hunks) decodes to several intents; the
 * result is re-paired per item by `fanout.ts`.
 */
import type { ToolCall } from '../../shared/ir'

/** What a tool call did, independent of any agent's vocabulary. Paths are absolute when the cwd is known. */
export type Intent =
  | { type: 'execute'; command: string; cwd?: string; description?: string; timeoutMs?: number }
  | { type: 'read'; path: string; offset?: number; limit?: number }
  | { type: 'write'; path: string; content: string }
  | { type: 'edit'; path: string; oldText: string; newText: string; replaceAll?: boolean }
  | { type: 'search'; pattern: string; path?: string; include?: string }
  | { type: 'glob'; pattern: string; path?: string }
  | { type: 'list'; path: string }
  | { type: 'fetch'; url: string; prompt?: string }
  | { type: 'web-search'; query: string }
  | { type: 'subagent'; prompt: string; description?: string; agentType?: string; systemPrompt?: string }

/** The intent types (exhaustive tables in vocabularies). */
export type IntentType = Intent['type']

/** What decoding may use: the session's working directory (relative paths are resolved against it). */
export interface DecodeContext {
  cwd?: string
}

type Args = Record<string, unknown>
type Decoder = (a: Args, call: ToolCall, ctx: DecodeContext) => Intent[] | undefined

const isObj = (v: unknown): v is Args => typeof v === 'object' && v !== null && !Array.isArray(v)
const s = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const n = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const first = (a: Args, ...keys: string[]): string | undefined => {
  for (const k of keys) {
    const v = s(a[k])
    if (v !== undefined) return v
  }
  return undefined
}

/** `p` made absolute against `cwd` (POSIX or Windows syntax); unchanged when absolute or cwd unknown. */
export function absolutePath(p: string, cwd: string | undefined): string {
  if (!cwd || p.startsWith('/') || p.startsWith('~') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\')) return p
  const sep = cwd.includes('\\') && !cwd.includes('/') ? '\\' : '/'
  const rel = p === '.' ? '' : p.startsWith('./') || p.startsWith('.\\') ? p.slice(2) : p
  if (rel === '') return cwd
  return cwd.endsWith(sep) ? cwd + rel : cwd + sep + rel
}

/** A shell command from a string, or an argv array (`["bash","-lc","ls"]` → `ls`). */
function commandOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() === '' ? undefined : v
  if (Array.isArray(v) && v.every((x) => typeof x === 'string') && v.length > 0) {
    const argv = v as string[]
    if (argv.length === 3 && /(^|\/)(ba|z|)sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2]
    return argv.map((x) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(x) ? x : `'${x.replace(/'/g, `'\\''`)}'`)).join(' ')
  }
  return undefined
}

const execute: Decoder = (a, _c, ctx) => {
  const command = commandOf(a.command) ?? commandOf(a.cmd)
  if (command === undefined) return undefined
  const out: Intent & { type: 'execute' } = { type: 'execute', command }
  const dir = first(a, 'workdir', 'dir_path', 'cwd', 'directory', 'working_directory')
  if (dir !== undefined) out.cwd = absolutePath(dir, ctx.cwd)
  const description = s(a.description)
  if (description !== undefined) out.description = description
  const timeout = n(a.timeout) ?? n(a.timeout_ms)
  if (timeout !== undefined) out.timeoutMs = timeout
  return [out]
}

const runCommands: Decoder = (a) => {
  const list = Array.isArray(a.commands) ? a.commands : s(a.command) ? [a.command] : undefined
  if (!list || list.length === 0) return undefined
  const out: Intent[] = []
  for (const c of list) {
    const command = typeof c === 'string' ? c : isObj(c) ? s(c.command) : undefined
    if (command === undefined) return undefined
    out.push({ type: 'execute', command })
  }
  return out
}

const pathOf = (a: Args) => first(a, 'file_path', 'filePath', 'path', 'absolute_path', 'target_file', 'notebook_path', 'targetFile', 'relativeWorkspacePath', 'filepath')

const read: Decoder = (a, _c, ctx) => {
  const path = pathOf(a)
  if (path === undefined) return undefined
  const out: Intent & { type: 'read' } = { type: 'read', path: absolutePath(path, ctx.cwd) }
  // Cursor read_file: start_line_one_indexed / end_line_one_indexed_inclusive, unless the whole file was read.
  const whole = a.should_read_entire_file === true
  const start = n(a.start_line) ?? (whole ? undefined : n(a.start_line_one_indexed))
  const end = n(a.end_line) ?? (whole ? undefined : n(a.end_line_one_indexed_inclusive))
  const offset = n(a.offset) ?? start
  const limit = n(a.limit) ?? (end !== undefined && start !== undefined ? end - start + 1 : undefined)
  if (offset !== undefined) out.offset = offset
  if (limit !== undefined && limit > 0) out.limit = limit
  return [out]
}

/**
 * Copilot CLI `view{path, view_range [start, end]}` (1-based, inclusive; end -1 reads to the end);
 * Crush `view{file_path, offset, limit}`, whose offset is 0-based (public-real dbos-api-error: a
 * `view` with `offset: 2000` returned lines from 2001 on).
 */
const view: Decoder = (a, c, ctx) => {
  if (a.path === undefined && typeof a.file_path === 'string') {
    const offset = n(a.offset)
    return read({ file_path: a.file_path, ...(offset !== undefined ? { offset: offset + 1 } : {}), ...(n(a.limit) !== undefined ? { limit: a.limit } : {}) }, c, ctx)
  }
  const r = Array.isArray(a.view_range) ? a.view_range : undefined
  const start = n(r?.[0])
  const end = n(r?.[1])
  return read({ path: a.path, ...(start !== undefined ? { offset: start } : {}), ...(start !== undefined && end !== undefined && end >= start ? { limit: end - start + 1 } : {}) }, c, ctx)
}

const readFiles: Decoder = (a, c, ctx) => {
  const list = Array.isArray(a.files) ? a.files : Array.isArray(a.paths) ? a.paths : undefined
  if (!list) return read(a, c, ctx)
  const out: Intent[] = []
  for (const f of list) {
    const one = typeof f === 'string' ? read({ path: f }, c, ctx) : isObj(f) ? read(f, c, ctx) : undefined
    if (!one) return undefined
    out.push(...one)
  }
  return out.length ? out : undefined
}

const write: Decoder = (a, _c, ctx) => {
  const path = pathOf(a)
  const content = text(a.content) ?? text(a.contents) ?? text(a.file_text)
  if (path === undefined || content === undefined) return undefined
  return [{ type: 'write', path: absolutePath(path, ctx.cwd), content }]
}

const edit: Decoder = (a, _c, ctx) => {
  const path = pathOf(a)
  const oldText = text(a.old_string) ?? text(a.oldString) ?? text(a.old_text) ?? text(a.old_str) ?? text(a.oldText)
  const newText = text(a.new_string) ?? text(a.newString) ?? text(a.new_text) ?? text(a.new_str) ?? text(a.newText)
  if (path === undefined || oldText === undefined || newText === undefined) return undefined
  const out: Intent & { type: 'edit' } = { type: 'edit', path: absolutePath(path, ctx.cwd), oldText, newText }
  if (a.replace_all === true || a.replaceAll === true || a.allow_multiple === true) out.replaceAll = true
  return [out]
}

/** Cline's `editor`: an edit with `old_text`, a file creation without it; `insert_line` has no counterpart. */
const editor: Decoder = (a, c, ctx) => {
  if (a.insert_line !== undefined && a.insert_line !== null) return undefined
  if (typeof a.old_text === 'string') return edit(a, c, ctx)
  const path = s(a.path)
  const content = text(a.new_text)
  return path !== undefined && content !== undefined ? [{ type: 'write', path: absolutePath(path, ctx.cwd), content }] : undefined
}

const multiEdit: Decoder = (a, c, ctx) => {
  const path = pathOf(a)
  if (path === undefined || !Array.isArray(a.edits) || a.edits.length === 0) return undefined
  const out: Intent[] = []
  for (const e of a.edits) {
    const one = isObj(e) ? edit({ ...e, file_path: path }, c, ctx) : undefined
    if (!one) return undefined
    out.push(...one)
  }
  return out
}

/** `edit`: one replacement, or Pi's `edits[{oldText, newText}]` (one intent each, as `multiEdit`). */
const editOrEdits: Decoder = (a, c, ctx) => (Array.isArray(a.edits) ? multiEdit(a, c, ctx) : edit(a, c, ctx))

/**
 * Patches and SEARCH/REPLACE edits, from the diffs the reader already parsed (`ToolCall.diffs`:
 * Codex/OpenCode `apply_patch`, legacy Cline `replace_in_file`): a diff without old text creates a
 * file, one with old text is an edit. Deletions and moves have no counterpart.
 */
const fromDiffs: Decoder = (a, call, ctx) => {
  const raw = typeof call.arguments === 'string' ? call.arguments : (s(a.input) ?? s(a.patch) ?? s(a.patchText) ?? '')
  if (/^\*\*\* (Delete File|Move to):/m.test(raw)) return undefined
  const diffs = call.diffs ?? []
  if (diffs.length === 0) return undefined
  const out: Intent[] = []
  for (const d of diffs) {
    if (d.newText === undefined) return undefined
    const path = absolutePath(d.path, ctx.cwd)
    out.push(d.oldText === undefined ? { type: 'write', path, content: d.newText } : { type: 'edit', path, oldText: d.oldText, newText: d.newText })
  }
  return out
}

const search: Decoder = (a, _c, ctx) => {
  const pattern = first(a, 'pattern', 'regex', 'query')
  if (pattern === undefined) return undefined
  const out: Intent & { type: 'search' } = { type: 'search', pattern }
  const path = first(a, 'path', 'dir_path', 'directory', 'target_directory', 'targetDirectory')
  if (path !== undefined) out.path = absolutePath(path, ctx.cwd)
  const include = first(a, 'include', 'include_pattern', 'glob', 'file_pattern')
  if (include !== undefined) out.include = include
  return [out]
}

const searchCodebase: Decoder = (a) => {
  const list = Array.isArray(a.queries) ? a.queries : s(a.query) ? [a.query] : undefined
  if (!list || list.length === 0 || !list.every((q) => typeof q === 'string' && q !== '')) return undefined
  return (list as string[]).map((pattern) => ({ type: 'search', pattern }))
}

const glob: Decoder = (a, _c, ctx) => {
  const pattern = first(a, 'pattern', 'glob_pattern', 'glob')
  if (pattern === undefined) return undefined
  const out: Intent & { type: 'glob' } = { type: 'glob', pattern }
  const path = first(a, 'path', 'dir_path', 'target_directory', 'directory', 'targetDirectory')
  if (path !== undefined) out.path = absolutePath(path, ctx.cwd)
  return [out]
}

const list: Decoder = (a, _c, ctx) => {
  const path = first(a, 'path', 'dir_path', 'target_directory', 'directory', 'relative_workspace_path', 'targetDirectory', 'dirpath', 'dirPath') ?? ctx.cwd
  return path === undefined ? undefined : [{ type: 'list', path: absolutePath(path, ctx.cwd) }]
}

const URL_RE = /https?:\/\/[^\s"'<>)\]]+/

const fetch: Decoder = (a) => {
  if (Array.isArray(a.requests)) {
    const out: Intent[] = []
    for (const r of a.requests) {
      const url = isObj(r) ? s(r.url) : undefined
      if (url === undefined) return undefined
      const prompt = isObj(r) ? s(r.prompt) : undefined
      out.push(prompt === undefined ? { type: 'fetch', url } : { type: 'fetch', url, prompt })
    }
    return out.length ? out : undefined
  }
  const url = first(a, 'url', 'uri') ?? URL_RE.exec(s(a.prompt) ?? '')?.[0]
  if (url === undefined) return undefined
  const prompt = s(a.prompt)
  return [prompt === undefined ? { type: 'fetch', url } : { type: 'fetch', url, prompt }]
}

const webSearch: Decoder = (a) => {
  const query = first(a, 'query', 'search_term', 'q') ?? (isObj(a.action) ? s(a.action.query) : undefined)
  return query === undefined ? undefined : [{ type: 'web-search', query }]
}

const subagent: Decoder = (a) => {
  const prompt = first(a, 'prompt', 'task', 'message', 'instructions')
  if (prompt === undefined) return undefined
  const out: Intent & { type: 'subagent' } = { type: 'subagent', prompt }
  const description = first(a, 'description', 'name', 'title')
  if (description !== undefined) out.description = description
  const agentType = first(a, 'subagent_type', 'agent_name', 'agent', 'agent_type', 'profile')
  if (agentType !== undefined) out.agentType = agentType
  const systemPrompt = s(a.systemPrompt)
  if (systemPrompt !== undefined) out.systemPrompt = systemPrompt
  return [out]
}

/** Decoders by lower-cased tool name (one table for every agent; argument names are read leniently). */
const DECODERS: Record<string, Decoder> = {
  // execute
  bash: execute,
  exec: execute,
  exec_command: execute,
  shell: execute,
  shell_command: execute,
  local_shell: execute,
  'container.exec': execute,
  run_shell_command: execute,
  run_command: execute,
  execute_command: execute,
  run_terminal_cmd: execute,
  run_terminal_command_v2: execute,
  run_commands: runCommands,
  run_terminal_command: execute, // Continue IDE
  // read
  read: read,
  read_file: read,
  readfile: read,
  read_file_v2: read,
  view_image: read,
  read_files: readFiles,
  view: view,
  // write / edit
  write: write,
  write_file: write,
  write_to_file: write,
  create: write,
  create_new_file: write, // Continue IDE (filepath, contents)
  edit: editOrEdits,
  replace: edit,
  search_replace: edit,
  edit_file_v2_search_replace: edit,
  strreplace: edit,
  str_replace: edit,
  single_find_and_replace: edit, // Continue IDE (filepath, old_string, new_string)
  editor: editor,
  multiedit: multiEdit,
  apply_patch: fromDiffs,
  edit_file_v2_apply_patch: fromDiffs,
  applypatch: fromDiffs,
  patch: fromDiffs,
  replace_in_file: fromDiffs,
  apply_diff: fromDiffs,
  // search
  grep: search,
  grep_search: search,
  search_file_content: search,
  search_files: search,
  ripgrep: search,
  rg: search,
  grep_files: search,
  ripgrep_raw_search: search,
  search_codebase: searchCodebase,
  glob: glob,
  glob_file_search: glob,
  file_glob_search: glob, // Continue IDE
  find: glob,
  ls: list,
  list: list,
  list_dir: list,
  list_directory: list,
  list_files: list,
  // web
  webfetch: fetch,
  web_fetch: fetch,
  fetch: fetch,
  fetch_web_content: fetch,
  websearch: webSearch,
  web_search: webSearch,
  google_web_search: webSearch,
  // sub-agents
  task: subagent,
  agent: subagent,
  task_v2: subagent,
  subagent: subagent,
  spawn_agent: subagent,
  invoke_agent: subagent,
  run_subagent: subagent,
}

/**
 * The intents of one tool call, or undefined when its tool has no decoder or its arguments do not
 * fit (the call is then kept as it is). Several intents = a fan-out call.
 */
export function decodeCall(call: ToolCall, ctx: DecodeContext): Intent[] | undefined {
  const decoder = DECODERS[call.name.toLowerCase()]
  if (!decoder) return undefined
  const args = isObj(call.arguments) ? call.arguments : typeof call.arguments === 'string' ? { input: call.arguments } : {}
  try {
    const out = decoder(args, call, ctx)
    return out && out.length > 0 ? out : undefined
  } catch {
    return undefined
  }
}

/** True when an intent starts a sub-agent (its own conversation is a separate session). */
export function isSubagentIntent(i: Intent): boolean {
  return i.type === 'subagent'
}
