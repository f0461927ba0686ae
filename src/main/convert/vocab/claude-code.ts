/**
 * Claude Code's tool vocabulary as a convert target. Tool names and input fields: the `tools` of
 * Claude Code 2.1.332's requests (fixtures/real/claude-code: Bash{command, timeout (ms),
 * description}, Read{file_path, offset, limit}, Write{file_path, content}, Edit{file_path,
 * old_string, new_string, replace_all}, Agent{description, prompt, subagent_type}) and its deferred
 * tools Grep{pattern, path, glob}, Glob{pattern, path}, WebFetch{url, prompt}, WebSearch{query}.
 * File paths must be absolute (its tool descriptions); a call's working directory becomes `cd`.
 * Tool use ids must match `^[a-zA-Z0-9_-]+$` (Anthropic Messages API).
 */
import type { TargetVocabulary } from '../vocabulary'
import { commandIn, shq } from '../vocabulary'

/** Claude Code as a convert target. */
export const claudeCodeVocabulary: TargetVocabulary = {
  agent: 'claude-code',
  format: 'claude-code-jsonl',
  blocks: { image: true, file: true, toolResultImages: true },
  validToolId: (id) => /^[A-Za-z0-9_-]{1,200}$/.test(id),
  encoders: {
    execute: (i, ctx) => {
      const input: Record<string, unknown> = { command: commandIn(i.command, i.cwd, ctx.cwd) }
      if (i.description !== undefined) input.description = i.description
      if (i.timeoutMs !== undefined) input.timeout = i.timeoutMs
      return { name: 'Bash', input }
    },
    read: (i) => {
      const input: Record<string, unknown> = { file_path: i.path }
      if (i.offset !== undefined) input.offset = i.offset
      if (i.limit !== undefined) input.limit = i.limit
      return { name: 'Read', input }
    },
    write: (i) => ({ name: 'Write', input: { file_path: i.path, content: i.content } }),
    edit: (i) => {
      const input: Record<string, unknown> = { file_path: i.path, old_string: i.oldText, new_string: i.newText }
      if (i.replaceAll) input.replace_all = true
      return { name: 'Edit', input }
    },
    search: (i) => {
      const input: Record<string, unknown> = { pattern: i.pattern }
      if (i.path !== undefined) input.path = i.path
      if (i.include !== undefined) input.glob = i.include
      return { name: 'Grep', input }
    },
    glob: (i) => (i.path === undefined ? { name: 'Glob', input: { pattern: i.pattern } } : { name: 'Glob', input: { pattern: i.pattern, path: i.path } }),
    list: (i) => ({ name: 'Bash', input: { command: `ls -la ${shq(i.path)}`, description: 'List the folder' } }),
    fetch: (i) => ({ name: 'WebFetch', input: { url: i.url, prompt: i.prompt ?? 'Return the content of the page.' } }),
    'web-search': (i) => ({ name: 'WebSearch', input: { query: i.query } }),
    subagent: (i) => ({
      name: 'Agent',
      input: { description: i.description ?? summary(i.prompt), prompt: i.prompt, subagent_type: 'general-purpose' },
    }),
  },
}

/** A short description from a prompt (Agent requires one): its first words. */
function summary(prompt: string): string {
  const words = prompt.replace(/\s+/g, ' ').trim().split(' ').slice(0, 6).join(' ')
  return words.length > 60 ? words.slice(0, 59) + '…' : words || 'Sub-agent'
}
