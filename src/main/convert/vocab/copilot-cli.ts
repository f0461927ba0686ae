/**
 * GitHub Copilot CLI's (1.0.102) tool vocabulary as a convert target. Tool names and parameters:
 * the tool schemas the real CLI sent to the model (fixtures/real/copilot-cli/mock-requests.jsonl,
 * `tools`): bash{command, description (both required), shellId, mode, initial_wait (seconds)},
 * view{path (absolute), view_range [start, end] (1-based, inclusive; end -1 reads to the end)},
 * create{path, file_text}, edit{path, old_str, new_str} (exactly one occurrence), grep{pattern,
 * paths, glob, ...}, glob{pattern, paths}, task{name, prompt, agent_type (one of explore, task, general-purpose, code-review, research,
 * security-review), description (all required)}. `view` also lists a directory ("Directories list non-hidden entries up to 2 levels
 * deep"). `web_fetch`{url} is a Copilot tool too (the public real sessions name it; offline mode
 * drops web tools from the request); Copilot has a web search only as a server-side tool, so a
 * web search keeps its source tool. An edit's `replaceAll` has no counterpart. Content: the writer
 * keeps text only (images and files become notes). Tool call ids: Copilot sends them to whatever
 * provider is configured (BYOK: OpenAI- or Anthropic-compatible), so the common safe set.
 */
import type { TargetVocabulary } from '../vocabulary'
import { commandIn } from '../vocabulary'

/** A short description (bash and task ask for one): the first words of `s`. */
function summary(s: string, fallback: string): string {
  const words = s.replace(/\s+/g, ' ').trim().split(' ').slice(0, 6).join(' ')
  return (words.length > 80 ? words.slice(0, 79) + '…' : words) || fallback
}

/** `task`'s `agent_type` enum (the schema the CLI sent); another agent's type becomes `general-purpose`. */
const AGENT_TYPES = ['explore', 'task', 'general-purpose', 'code-review', 'research', 'security-review']

/** Copilot CLI as a convert target. */
export const copilotCliVocabulary: TargetVocabulary = {
  agent: 'copilot-cli',
  format: 'copilot-cli-events',
  blocks: { image: false, file: false, toolResultImages: false },
  validToolId: (id) => /^[A-Za-z0-9_-]{1,64}$/.test(id),
  encoders: {
    execute: (i, ctx) => {
      const command = commandIn(i.command, i.cwd, ctx.cwd)
      const input: Record<string, unknown> = { command, description: i.description ?? summary(command, 'Run a command') }
      if (i.timeoutMs !== undefined) input.initial_wait = Math.min(600, Math.max(30, Math.round(i.timeoutMs / 1000)))
      return { name: 'bash', input }
    },
    read: (i) => {
      const input: Record<string, unknown> = { path: i.path }
      if (i.offset !== undefined || i.limit !== undefined) {
        const start = Math.max(1, i.offset ?? 1)
        input.view_range = [start, i.limit !== undefined ? start + i.limit - 1 : -1]
      }
      return { name: 'view', input }
    },
    write: (i) => ({ name: 'create', input: { path: i.path, file_text: i.content } }),
    edit: (i) => (i.replaceAll ? undefined : { name: 'edit', input: { path: i.path, old_str: i.oldText, new_str: i.newText } }),
    search: (i) => {
      const input: Record<string, unknown> = { pattern: i.pattern }
      if (i.path !== undefined) input.paths = i.path
      if (i.include !== undefined) input.glob = i.include
      return { name: 'grep', input }
    },
    glob: (i) => (i.path === undefined ? { name: 'glob', input: { pattern: i.pattern } } : { name: 'glob', input: { pattern: i.pattern, paths: i.path } }),
    list: (i) => ({ name: 'view', input: { path: i.path } }),
    fetch: (i) => ({ name: 'web_fetch', input: { url: i.url } }),
    'web-search': () => undefined,
    subagent: (i) => {
      const description = i.description ?? summary(i.prompt, 'Sub-agent')
      return { name: 'task', input: { name: description, description, prompt: i.prompt, agent_type: AGENT_TYPES.find((t) => t === i.agentType?.toLowerCase()) ?? 'general-purpose' } }
    },
  },
}
