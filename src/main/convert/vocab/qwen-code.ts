/**
 * Qwen Code's (0.15.10) tool vocabulary as a convert target. Tool names: `ToolNames` of
 * @qwen-code/qwen-code 0.15.10 `cli.js` (packages/core/src/tools/tool-names.ts); parameters: each
 * tool's schema and `validateToolParamValues` in the same bundle:
 * run_shell_command{command (required), description, directory (absolute, inside the workspace),
 * timeout, is_background}, read_file{file_path (absolute), offset (0-based line, "requires
 * limit"), limit}, write_file{file_path, content}, edit{file_path, old_string, new_string,
 * replace_all} (Gemini CLI's `replace`, renamed, no `instruction`), grep_search{pattern, path,
 * glob}, glob{pattern, path}, list_directory{path (required)}, web_fetch{url, prompt (both
 * required)}, agent{description, prompt (required), subagent_type}. Where it differs from Gemini
 * CLI (vocab/gemini.ts): `edit` instead of `replace`, `directory`/`path` instead of `dir_path`,
 * `glob` instead of `include_pattern`, read by offset/limit instead of start/end lines, `web_fetch`
 * takes the URL, no web search tool (0.15.10 registers none), sub-agents through `agent`.
 * Content: the store keeps Gemini API `Part`s (`inlineData` images and files; an image next to a
 * `functionResponse`), so the blocks are Gemini's. Call ids are free strings (the CLI's own are
 * OpenAI-style `call_...`: it speaks Chat Completions to OpenAI-compatible providers).
 */
import type { TargetVocabulary } from '../vocabulary'

/** Lines Qwen Code's read_file returns when no limit is given (its default page). */
const QWEN_DEFAULT_LIMIT = 2000

/** A short description from a prompt (`agent` asks for one): its first words. */
function summary(prompt: string): string {
  const words = prompt.replace(/\s+/g, ' ').trim().split(' ').slice(0, 5).join(' ')
  return words.length > 60 ? words.slice(0, 59) + '…' : words || 'Sub-agent'
}

/** Qwen Code as a convert target. */
export const qwenCodeVocabulary: TargetVocabulary = {
  agent: 'qwen-code',
  format: 'qwen-code-chats-jsonl',
  blocks: { image: true, file: true, toolResultImages: true },
  validToolId: (id) => /^[A-Za-z0-9_.:-]{1,200}$/.test(id),
  encoders: {
    execute: (i, ctx) => {
      const input: Record<string, unknown> = { command: i.command }
      if (i.description !== undefined) input.description = i.description
      if (i.cwd !== undefined && i.cwd !== ctx.cwd) input.directory = i.cwd
      if (i.timeoutMs !== undefined) input.timeout = i.timeoutMs
      return { name: 'run_shell_command', input }
    },
    read: (i) => {
      const input: Record<string, unknown> = { file_path: i.path }
      if (i.offset !== undefined || i.limit !== undefined) {
        input.offset = Math.max(0, (i.offset ?? 1) - 1)
        input.limit = i.limit ?? QWEN_DEFAULT_LIMIT
      }
      return { name: 'read_file', input }
    },
    write: (i) => ({ name: 'write_file', input: { file_path: i.path, content: i.content } }),
    edit: (i) => {
      const input: Record<string, unknown> = { file_path: i.path, old_string: i.oldText, new_string: i.newText }
      if (i.replaceAll) input.replace_all = true
      return { name: 'edit', input }
    },
    search: (i) => {
      const input: Record<string, unknown> = { pattern: i.pattern }
      if (i.path !== undefined) input.path = i.path
      if (i.include !== undefined) input.glob = i.include
      return { name: 'grep_search', input }
    },
    glob: (i) => (i.path === undefined ? { name: 'glob', input: { pattern: i.pattern } } : { name: 'glob', input: { pattern: i.pattern, path: i.path } }),
    list: (i) => ({ name: 'list_directory', input: { path: i.path } }),
    fetch: (i) => ({ name: 'web_fetch', input: { url: i.url, prompt: i.prompt ?? `Return the content of ${i.url}.` } }),
    'web-search': () => undefined,
    subagent: (i) => {
      const input: Record<string, unknown> = { description: i.description ?? summary(i.prompt), prompt: i.prompt }
      if (i.agentType !== undefined) input.subagent_type = i.agentType
      return { name: 'agent', input }
    },
  },
}
