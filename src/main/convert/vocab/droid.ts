/**
 * Factory Droid's (0.225.2) tool vocabulary as a convert target. Tool names and parameters: the
 * tool schemas the real CLI sent to the model (its Chat Completions requests in the offline runs of
 * fixtures/real/droid and resume/drivers/droid.ts): Execute{command, summary (required: sentence
 * cased, 3-8 words, pattern `^[A-Z]\S*(?:\s+\S+){2,7}$`), riskLevel (low | medium | high),
 * riskLevelReason (both required), timeout (seconds)}, Read{file_path (absolute), offset (1-based
 * line), limit}, Create{file_path, content}, Edit{file_path, old_str, new_str, change_all},
 * Grep{pattern, path, glob_pattern}, Glob{patterns, folder}, LS{directory_path},
 * Task{subagent_type, description, prompt}; FetchUrl and WebSearch are deferred tools the context
 * names (loaded through ToolSearch), kept by name with `url` / `query`. Content: the writer keeps
 * text only (images and files become notes). Tool call ids: Droid sends them to whatever BYOK
 * provider is configured, so the common safe set.
 */
import type { TargetVocabulary } from '../vocabulary'
import { commandIn } from '../vocabulary'

/** A summary Execute's pattern accepts: `Run the <program> command` (4 words, sentence cased). */
function summaryOf(command: string): string {
  const program = (command.trim().split(/\s+/)[0] ?? '').replace(/[^A-Za-z0-9._/-]/g, '').split('/').pop() || 'shell'
  return `Run the ${program} command`
}

/** Droid as a convert target. */
export const droidVocabulary: TargetVocabulary = {
  agent: 'droid',
  format: 'droid-jsonl',
  blocks: { image: false, file: false, toolResultImages: false },
  validToolId: (id) => /^[A-Za-z0-9_-]{1,64}$/.test(id),
  encoders: {
    execute: (i, ctx) => {
      const command = commandIn(i.command, i.cwd, ctx.cwd)
      const input: Record<string, unknown> = { command, summary: summaryOf(command), riskLevel: 'low', riskLevelReason: 'Recorded in an earlier session by another agent.' }
      if (i.timeoutMs !== undefined) input.timeout = Math.max(1, Math.round(i.timeoutMs / 1000))
      return { name: 'Execute', input }
    },
    read: (i) => {
      const input: Record<string, unknown> = { file_path: i.path }
      if (i.offset !== undefined) input.offset = i.offset
      if (i.limit !== undefined) input.limit = i.limit
      return { name: 'Read', input }
    },
    write: (i) => ({ name: 'Create', input: { file_path: i.path, content: i.content } }),
    edit: (i) => ({ name: 'Edit', input: { file_path: i.path, old_str: i.oldText, new_str: i.newText, ...(i.replaceAll ? { change_all: true } : {}) } }),
    search: (i) => {
      const input: Record<string, unknown> = { pattern: i.pattern }
      if (i.path !== undefined) input.path = i.path
      if (i.include !== undefined) input.glob_pattern = i.include
      return { name: 'Grep', input }
    },
    glob: (i) => (i.path === undefined ? { name: 'Glob', input: { patterns: i.pattern } } : { name: 'Glob', input: { patterns: i.pattern, folder: i.path } }),
    list: (i) => ({ name: 'LS', input: { directory_path: i.path } }),
    fetch: (i) => ({ name: 'FetchUrl', input: { url: i.url } }),
    'web-search': (i) => ({ name: 'WebSearch', input: { query: i.query } }),
    subagent: (i) => ({ name: 'Task', input: { subagent_type: i.agentType ?? 'general-purpose', description: i.description ?? 'Sub-agent task', prompt: i.prompt } }),
  },
}
