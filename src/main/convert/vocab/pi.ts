/**
 * Pi's (0.73.1) tool vocabulary as a convert target. Tool names and parameters: the TypeBox schemas
 * of @mariozechner/pi-coding-agent 0.73.1 `dist/core/tools/*.js`: read{path, offset (1-indexed
 * line), limit}, bash{command, timeout (seconds)}, edit{path, edits[{oldText, newText}]},
 * write{path, content}, grep{pattern, path, glob, ignoreCase, literal, context, limit},
 * find{pattern, path, limit}, ls{path, limit}. Only read, bash, edit and write are active by
 * default (`agent-session.js` `defaultActiveToolNames`); grep, find and ls are Pi's own tools all
 * the same, so a converted call keeps a name Pi knows. Pi has no fetch, web search or sub-agent
 * tool: those calls keep their source tool. An edit's `replaceAll` has no counterpart (Pi replaces
 * one unique match per edit). Content: user and tool result messages hold text and image blocks
 * (`ImageContent{data, mimeType}`), no file blocks. Tool call ids: Pi sends them to whatever
 * provider is configured (and normalizes them for Anthropic, pi-ai `transform-messages.js`), so the
 * common safe set.
 */
import type { TargetVocabulary } from '../vocabulary'
import { commandIn } from '../vocabulary'

/** Pi as a convert target. */
export const piVocabulary: TargetVocabulary = {
  agent: 'pi',
  format: 'pi-jsonl',
  blocks: { image: true, file: false, toolResultImages: true },
  validToolId: (id) => /^[A-Za-z0-9_-]{1,64}$/.test(id),
  encoders: {
    execute: (i, ctx) => {
      const input: Record<string, unknown> = { command: commandIn(i.command, i.cwd, ctx.cwd) }
      if (i.timeoutMs !== undefined) input.timeout = Math.max(1, Math.round(i.timeoutMs / 1000))
      return { name: 'bash', input }
    },
    read: (i) => {
      const input: Record<string, unknown> = { path: i.path }
      if (i.offset !== undefined) input.offset = i.offset
      if (i.limit !== undefined) input.limit = i.limit
      return { name: 'read', input }
    },
    write: (i) => ({ name: 'write', input: { path: i.path, content: i.content } }),
    edit: (i) => (i.replaceAll ? undefined : { name: 'edit', input: { path: i.path, edits: [{ oldText: i.oldText, newText: i.newText }] } }),
    search: (i) => {
      const input: Record<string, unknown> = { pattern: i.pattern }
      if (i.path !== undefined) input.path = i.path
      if (i.include !== undefined) input.glob = i.include
      return { name: 'grep', input }
    },
    glob: (i) => (i.path === undefined ? { name: 'find', input: { pattern: i.pattern } } : { name: 'find', input: { pattern: i.pattern, path: i.path } }),
    list: (i) => ({ name: 'ls', input: { path: i.path } }),
    fetch: () => undefined,
    'web-search': () => undefined,
    subagent: () => undefined,
  },
}
