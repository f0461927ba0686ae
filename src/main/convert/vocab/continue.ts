/**
 * The Continue CLI's (`cn`, @continuedev/cli 1.5.47) tool vocabulary as a convert target. Tool names
 * and parameters: the built-in tools of the 1.5.47 package's `src/tools/*.ts` (`ALL_BUILT_IN_TOOLS`,
 * allBuiltIns.ts): Bash{command (required), timeout (seconds, at most 600)}, Read{filepath}
 * (the whole file: no range parameters), Write{filepath, content}, Edit{file_path, old_string,
 * new_string, replace_all} (the CLI refuses an Edit of a file not Read in the same run, which only
 * matters for new calls), Search{pattern, path, file_pattern} (ripgrep), List{dirpath},
 * Fetch{url}. It has no glob or web search tool; its `Subagent{description, prompt,
 * subagent_name}` names one of the user's configured sub-agent models, which a converted call
 * cannot know: those calls keep their source tool (the CLI sends any tool call it finds in the
 * history as it is). Content: a user message is a string or `MessagePart[]` (`{type: "text"}`,
 * `{type: "imageUrl", imageUrl: {url}}` with a data URL, core/index.d.ts); a tool result is the text
 * of its `ToolCallState.output` items only. Tool call ids go to whatever provider the user
 * configured, so the common safe set.
 */
import type { TargetVocabulary } from '../vocabulary'
import { commandIn } from '../vocabulary'

/** Continue's Bash timeout limit, in seconds (runTerminalCommand.ts: "max 600"). */
const MAX_TIMEOUT_S = 600

/** The Continue CLI as a convert target. */
export const continueVocabulary: TargetVocabulary = {
  agent: 'continue',
  format: 'continue-session-json',
  blocks: { image: true, file: false, toolResultImages: false },
  validToolId: (id) => /^[A-Za-z0-9_-]{1,64}$/.test(id),
  encoders: {
    execute: (i, ctx) => {
      const input: Record<string, unknown> = { command: commandIn(i.command, i.cwd, ctx.cwd) }
      if (i.timeoutMs !== undefined) input.timeout = Math.min(MAX_TIMEOUT_S, Math.max(1, Math.round(i.timeoutMs / 1000)))
      return { name: 'Bash', input }
    },
    read: (i) => ({ name: 'Read', input: { filepath: i.path } }),
    write: (i) => ({ name: 'Write', input: { filepath: i.path, content: i.content } }),
    edit: (i) => {
      const input: Record<string, unknown> = { file_path: i.path, old_string: i.oldText, new_string: i.newText }
      if (i.replaceAll) input.replace_all = true
      return { name: 'Edit', input }
    },
    search: (i) => {
      const input: Record<string, unknown> = { pattern: i.pattern }
      if (i.path !== undefined) input.path = i.path
      if (i.include !== undefined) input.file_pattern = i.include
      return { name: 'Search', input }
    },
    glob: () => undefined,
    list: (i) => ({ name: 'List', input: { dirpath: i.path } }),
    fetch: (i) => ({ name: 'Fetch', input: { url: i.url } }),
    'web-search': () => undefined,
    subagent: () => undefined,
  },
}
