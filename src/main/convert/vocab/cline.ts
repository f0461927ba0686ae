/**
 * Cline's (SDK store, CLI 3.x) tool vocabulary as a convert target. Tool names and input schemas:
 * the `tools` of Cline 3.0.65's requests (samples/real/cline mock-requests.jsonl; seed 002 "Tool
 * vocabulary"): run_commands{commands[]}, read_files{files[{path, start_line, end_line}]},
 * search_codebase{queries[]}, fetch_web_content{requests[{url, prompt}]}, editor{path, old_text,
 * new_text} (no old_text = create), spawn_agent{systemPrompt, task}. Each call here carries one
 * item; its result is one `{query, result, success}` entry (the writer builds it).
 */
import type { TargetVocabulary } from '../vocabulary'
import { commandIn, shq } from '../vocabulary'

/** Cline (SDK store) as a convert target. */
export const clineVocabulary: TargetVocabulary = {
  agent: 'cline',
  format: 'cline-sdk',
  blocks: { image: true, file: true, toolResultImages: false },
  validToolId: (id) => /^[A-Za-z0-9_.:-]{1,200}$/.test(id),
  encoders: {
    execute: (i, ctx) => ({ name: 'run_commands', input: { commands: [commandIn(i.command, i.cwd, ctx.cwd)] } }),
    read: (i) => {
      const file: Record<string, unknown> = { path: i.path }
      if (i.offset !== undefined) file.start_line = i.offset
      if (i.offset !== undefined && i.limit !== undefined) file.end_line = i.offset + i.limit - 1
      return { name: 'read_files', input: { files: [file] } }
    },
    write: (i) => ({ name: 'editor', input: { path: i.path, new_text: i.content } }),
    edit: (i) => ({ name: 'editor', input: { path: i.path, old_text: i.oldText, new_text: i.newText } }),
    search: (i) => ({ name: 'search_codebase', input: { queries: [i.pattern] } }),
    glob: () => undefined,
    list: (i) => ({ name: 'run_commands', input: { commands: [`ls -la ${shq(i.path)}`] } }),
    fetch: (i) => ({ name: 'fetch_web_content', input: { requests: [{ url: i.url, prompt: i.prompt ?? 'Return the content of the page.' }] } }),
    'web-search': () => undefined,
    subagent: (i) => ({
      name: 'spawn_agent',
      input: { systemPrompt: i.systemPrompt ?? 'You are a helpful sub-agent.', task: i.prompt },
    }),
  },
}
