/**
 * The OpenCode family's tool vocabulary as a convert target (OpenCode 1.18.33 and Kilo Code CLI
 * 7.7.7, which share it). Tool names and input schemas: the `tools` of the real CLIs' requests
 * (shared/samples/real/{opencode,kilo}/mock-requests.jsonl): bash{command, timeout (ms), workdir,
 * description (Kilo only)}, read{filePath, offset (1-indexed line), limit} (a folder too: "the
 * absolute path to the file or directory to read"), write{filePath, content}, edit{filePath,
 * oldString, newString, replaceAll}, grep{pattern, path, include}, glob{pattern, path},
 * webfetch{url, format, timeout}, task{description, prompt, subagent_type}. Neither CLI offered a
 * `list` tool (a folder listing is a `read` of the folder) nor `websearch` (it needs OpenCode's own
 * search provider): web searches keep their source tool. A call's working directory is bash's
 * `workdir` ("use this instead of 'cd' commands"). Tool call ids: the model API's (OpenAI-style
 * `call_...` in the stores; any provider may be configured, so only the common safe set).
 */
import type { AgentId } from '../../../shared/ir'
import type { TargetVocabulary } from '../vocabulary'

/** What tells the members' vocabularies apart. */
export interface FamilyVocabularyOptions {
  agent: AgentId
  /** The store format the writer produces (`opencode-db`, `kilo-db`). */
  format: string
  /** True when `bash` takes a `description` (Kilo Code 7.7.7; OpenCode 1.18.33 has none). */
  bashDescription: boolean
}

/** A short description from a prompt (task requires one): its first words. */
function summary(prompt: string): string {
  const words = prompt.replace(/\s+/g, ' ').trim().split(' ').slice(0, 6).join(' ')
  return words.length > 60 ? words.slice(0, 59) + '…' : words || 'Sub-agent'
}

/** The vocabulary of one member of the family. */
export function familyVocabulary(o: FamilyVocabularyOptions): TargetVocabulary {
  return {
    agent: o.agent,
    format: o.format,
    blocks: { image: true, file: false, toolResultImages: false },
    validToolId: (id) => /^[A-Za-z0-9_-]{1,200}$/.test(id),
    encoders: {
      execute: (i, ctx) => {
        const input: Record<string, unknown> = { command: i.command }
        if (i.cwd !== undefined && i.cwd !== ctx.cwd) input.workdir = i.cwd
        if (i.timeoutMs !== undefined) input.timeout = i.timeoutMs
        if (o.bashDescription && i.description !== undefined) input.description = i.description
        return { name: 'bash', input }
      },
      read: (i) => {
        const input: Record<string, unknown> = { filePath: i.path }
        if (i.offset !== undefined) input.offset = i.offset
        if (i.limit !== undefined) input.limit = i.limit
        return { name: 'read', input }
      },
      write: (i) => ({ name: 'write', input: { filePath: i.path, content: i.content } }),
      edit: (i) => {
        const input: Record<string, unknown> = { filePath: i.path, oldString: i.oldText, newString: i.newText }
        if (i.replaceAll) input.replaceAll = true
        return { name: 'edit', input }
      },
      search: (i) => {
        const input: Record<string, unknown> = { pattern: i.pattern }
        if (i.path !== undefined) input.path = i.path
        if (i.include !== undefined) input.include = i.include
        return { name: 'grep', input }
      },
      glob: (i) => (i.path === undefined ? { name: 'glob', input: { pattern: i.pattern } } : { name: 'glob', input: { pattern: i.pattern, path: i.path } }),
      list: (i) => ({ name: 'read', input: { filePath: i.path } }),
      fetch: (i) => ({ name: 'webfetch', input: { url: i.url, format: 'markdown' } }),
      'web-search': () => undefined,
      subagent: (i) => ({
        name: 'task',
        input: { description: i.description ?? summary(i.prompt), prompt: i.prompt, subagent_type: 'general' },
      }),
    },
  }
}

/** OpenCode (`opencode.db`) as a convert target. */
export const opencodeVocabulary: TargetVocabulary = familyVocabulary({ agent: 'opencode', format: 'opencode-db', bashDescription: false })

/** Kilo Code's CLI store (`kilo.db`) as a convert target (agent id `kilo-code`). */
export const kiloCodeVocabulary: TargetVocabulary = familyVocabulary({ agent: 'kilo-code', format: 'kilo-db', bashDescription: true })
