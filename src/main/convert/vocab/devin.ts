/**
 * Devin CLI's tool vocabulary as a convert target. No Devin CLI runs here, so names and arguments
 * come from the documents, most certain first:
 * - `exec{command}`, `edit{file_path, old_string, new_string}`, `run_subagent`: the tool names
 *   Devin stores (`shared/formats/cursor-devin-atif-acp.md` C4 "Tool names seen", the ACP example
 *   of E with `rawInput` = the call's arguments);
 * - `write`, `read`, `grep`, `glob`: docs.devin.ai cli/reference/permissions ("File edits via
 *   `edit`/`write`", read-only "file reads, grep, glob"); their arguments are not documented: `write`
 *   takes `file_path` like `edit` (and `content`), `read` a `path` (the `rawInput` public Devin store
 *   readers record for `read` calls), `grep`/`glob` a `pattern` and an optional `path` — all
 *   decoded back by `intents.ts`;
 * - `run_subagent{title, task, profile}`: the `rawInput` public Devin store readers record;
 * - a listing is an `exec` of `ls -la`; fetch and web search have no documented tool: kept as they were.
 * Content blocks: images and files ride as ACP blocks in `chisel/acp-content-blocks` (seed 002
 * "Attachments / content blocks"); none in tool results. Call ids: Devin's own look like
 * `exec_0_9f2c#a1` (C4), so `#`, `.` and `:` are accepted.
 */
import type { TargetVocabulary } from '../vocabulary'
import { commandIn, shq } from '../vocabulary'

/** Devin CLI (`sessions.db`) as a convert target. */
export const devinVocabulary: TargetVocabulary = {
  agent: 'devin',
  format: 'devin-sqlite',
  blocks: { image: true, file: true, toolResultImages: false },
  validToolId: (id) => /^[A-Za-z0-9_.:#-]{1,200}$/.test(id),
  encoders: {
    execute: (i, ctx) => ({ name: 'exec', input: { command: commandIn(i.command, i.cwd, ctx.cwd) } }),
    read: (i) => {
      const input: Record<string, unknown> = { path: i.path }
      if (i.offset !== undefined) input.offset = i.offset
      if (i.limit !== undefined) input.limit = i.limit
      return { name: 'read', input }
    },
    write: (i) => ({ name: 'write', input: { file_path: i.path, content: i.content } }),
    edit: (i) => {
      const input: Record<string, unknown> = { file_path: i.path, old_string: i.oldText, new_string: i.newText }
      if (i.replaceAll) input.replace_all = true
      return { name: 'edit', input }
    },
    search: (i) => {
      const input: Record<string, unknown> = { pattern: i.pattern }
      if (i.path !== undefined) input.path = i.path
      if (i.include !== undefined) input.include = i.include
      return { name: 'grep', input }
    },
    glob: (i) => (i.path === undefined ? { name: 'glob', input: { pattern: i.pattern } } : { name: 'glob', input: { pattern: i.pattern, path: i.path } }),
    list: (i) => ({ name: 'exec', input: { command: `ls -la ${shq(i.path)}` } }),
    fetch: () => undefined,
    'web-search': () => undefined,
    subagent: (i) => {
      const input: Record<string, unknown> = { title: i.description ?? title(i.prompt), task: i.prompt }
      if (i.agentType !== undefined) input.profile = i.agentType
      return { name: 'run_subagent', input }
    },
  },
}

/** A short title from a prompt: its first words. */
function title(prompt: string): string {
  const words = prompt.replace(/\s+/g, ' ').trim().split(' ').slice(0, 6).join(' ')
  return words.length > 60 ? words.slice(0, 59) + '…' : words || 'Sub-agent'
}
