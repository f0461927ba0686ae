/**
 * ACP ToolKind for agent tool names (seed 002 "Cline (CLI)" tool vocabulary; Claude Code tool
 * names from its system prompt; legacy Cline XML tools from cline/cline src/core/prompts).
 * Unknown names are `other`. One table for every agent, so the renderer and writers agree.
 */
import type { ToolKind } from '../../shared/ir'

const KINDS: Record<string, ToolKind> = {
  // Claude Code
  bash: 'execute',
  bashoutput: 'execute',
  killshell: 'execute',
  read: 'read',
  write: 'edit',
  edit: 'edit',
  multiedit: 'edit',
  notebookedit: 'edit',
  glob: 'search',
  grep: 'search',
  ls: 'search',
  webfetch: 'fetch',
  websearch: 'fetch',
  todowrite: 'think',
  exitplanmode: 'switch_mode',
  enterplanmode: 'switch_mode',
  task: 'other',
  agent: 'other',
  // Cline SDK
  run_commands: 'execute',
  read_files: 'read',
  editor: 'edit',
  search_codebase: 'search',
  fetch_web_content: 'fetch',
  spawn_agent: 'other',
  // Cline legacy (XML tools) and forks
  execute_command: 'execute',
  read_file: 'read',
  write_to_file: 'edit',
  replace_in_file: 'edit',
  apply_diff: 'edit',
  insert_content: 'edit',
  search_and_replace: 'edit',
  search_files: 'search',
  list_files: 'search',
  list_code_definition_names: 'search',
  codebase_search: 'search',
  browser_action: 'fetch',
  web_fetch: 'fetch',
  use_mcp_tool: 'other',
  access_mcp_resource: 'fetch',
  ask_followup_question: 'other',
  attempt_completion: 'other',
  plan_mode_respond: 'switch_mode',
  new_task: 'other',
  // generic
  bash_command: 'execute',
  shell: 'execute',
  exec_command: 'execute',
  apply_patch: 'edit',
  delete_file: 'delete',
  move_file: 'move',
  rename_file: 'move',
}

/** The ACP kind of a tool by its agent name (case-insensitive); `other` when unknown. */
export function toolKind(name: string): ToolKind {
  return KINDS[name.toLowerCase()] ?? 'other'
}
