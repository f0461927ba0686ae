/**
 * Gemini CLI's (0.61) tool vocabulary as a convert target. Tool names and parameter schemas: the
 * `functionDeclarations` of Gemini CLI 0.61.0's requests (shared/samples/real/gemini
 * mock-requests.jsonl; realstores/README.md "Gemini CLI 0.61.0"):
 * run_shell_command{command, description, dir_path}, read_file{file_path, start_line, end_line}
 * (1-based, inclusive), write_file{file_path, content}, replace{file_path, instruction (required),
 * old_string, new_string, allow_multiple}, grep_search{pattern, dir_path, include_pattern},
 * glob{pattern, dir_path}, list_directory{dir_path}, web_fetch{prompt} (the prompt must hold the
 * URL), google_web_search{query}, invoke_agent{agent_name, prompt} (agents `generalist`,
 * `codebase_investigator`, `cli_help`).
 * Content: `inlineData` parts hold images and text files in messages; an image in a tool result is
 * a part next to the `functionResponse` (packages/core coreToolScheduler `convertToFunctionResponse`,
 * models without multimodal function responses). Function call ids are free strings in the store
 * and the API; the CLI's own look like `run_shell_command__run_shell_command_1796022525267_0`.
 */
import type { TargetVocabulary } from '../vocabulary'

/** Sub-agents Gemini CLI 0.61 starts with `invoke_agent` (realstores/README.md "Gemini CLI 0.61.0"). */
const GEMINI_AGENTS = new Set(['generalist', 'codebase_investigator', 'cli_help'])

/** Gemini CLI as a convert target. */
export const geminiVocabulary: TargetVocabulary = {
  agent: 'gemini',
  format: 'gemini-jsonl',
  blocks: { image: true, file: true, toolResultImages: true },
  validToolId: (id) => /^[A-Za-z0-9_.:-]{1,200}$/.test(id),
  encoders: {
    execute: (i, ctx) => {
      const input: Record<string, unknown> = { command: i.command }
      if (i.description !== undefined) input.description = i.description
      if (i.cwd !== undefined && i.cwd !== ctx.cwd) input.dir_path = i.cwd
      return { name: 'run_shell_command', input }
    },
    read: (i) => {
      const input: Record<string, unknown> = { file_path: i.path }
      if (i.offset !== undefined || i.limit !== undefined) {
        const start = Math.max(1, i.offset ?? 1)
        input.start_line = start
        if (i.limit !== undefined) input.end_line = start + i.limit - 1
      }
      return { name: 'read_file', input }
    },
    write: (i) => ({ name: 'write_file', input: { file_path: i.path, content: i.content } }),
    edit: (i) => {
      const input: Record<string, unknown> = { file_path: i.path, instruction: `Edit ${i.path}.`, old_string: i.oldText, new_string: i.newText }
      if (i.replaceAll) input.allow_multiple = true
      return { name: 'replace', input }
    },
    search: (i) => {
      const input: Record<string, unknown> = { pattern: i.pattern }
      if (i.path !== undefined) input.dir_path = i.path
      if (i.include !== undefined) input.include_pattern = i.include
      return { name: 'grep_search', input }
    },
    glob: (i) => (i.path === undefined ? { name: 'glob', input: { pattern: i.pattern } } : { name: 'glob', input: { pattern: i.pattern, dir_path: i.path } }),
    list: (i) => ({ name: 'list_directory', input: { dir_path: i.path } }),
    fetch: (i) => ({ name: 'web_fetch', input: { prompt: fetchPrompt(i.url, i.prompt) } }),
    'web-search': (i) => ({ name: 'google_web_search', input: { query: i.query } }),
    subagent: (i) => ({
      name: 'invoke_agent',
      input: { agent_name: i.agentType !== undefined && GEMINI_AGENTS.has(i.agentType) ? i.agentType : 'generalist', prompt: i.prompt },
    }),
  },
}

/** `web_fetch` takes one prompt that names the URL (its schema); the URL is added when the prompt lacks it. */
function fetchPrompt(url: string, prompt: string | undefined): string {
  if (prompt === undefined) return `Fetch ${url} and return its content.`
  return prompt.includes(url) ? prompt : `${prompt}\n\nURL: ${url}`
}
