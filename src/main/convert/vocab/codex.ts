/**
 * Codex CLI's tool vocabulary as a convert target. Tool names and arguments: the `tools` of Codex
 * 0.171.0's requests with model `gpt-5.5` (fixtures/real/codex and shared/samples/real/codex
 * mock-requests.jsonl: `exec_command{cmd, workdir}`, `apply_patch` as a freeform `custom` tool whose
 * input is the patch text, `web_search` (hosted, no output item), `view_image`...) and the
 * `multi_agent_v1.spawn_agent{message}` of its fallback tool set (fixtures/real/codex agent
 * scenario). Codex reads and searches files through the shell, so reads, searches, globs and
 * listings become `exec_command` commands (`cat`/`sed -n`, `rg`, `rg --files`, `ls -la`), as the
 * model does itself, except reads of image files (`view_image{path}`); file writes and edits become `apply_patch` patches (grammar: codex-rs
 * `apply-patch/apply_patch_tool_instructions.md`, `src/main/agents/codex/patch.ts` reads them back),
 * with paths relative to the session folder when inside it (as Codex writes them). Web fetches and
 * searches have no counterpart with a tool result: they keep their names.
 *
 * The encoded `apply_patch` call is `{input: <patch text>}`; the writer stores it as a
 * `custom_tool_call` with that text as its `input`.
 */
import type { TargetVocabulary } from '../vocabulary'
import { shq } from '../vocabulary'

/** `path` relative to `cwd` when it lies inside it (Codex's patches name files that way), else unchanged. */
export function patchPath(path: string, cwd: string | undefined): string {
  if (!cwd) return path
  const base = cwd.endsWith('/') ? cwd : cwd + '/'
  return path.startsWith(base) && path.length > base.length ? path.slice(base.length) : path
}

/** Lines of a text for a patch: split on newlines, without the empty piece after a final newline. */
function patchLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

/** An `apply_patch` patch that creates `path` with `content` (`*** Add File:`, one `+` per line). */
export function addFilePatch(path: string, content: string): string {
  const body = patchLines(content).map((l) => `+${l}\n`).join('')
  return `*** Begin Patch\n*** Add File: ${path}\n${body}*** End Patch\n`
}

/** An `apply_patch` patch that replaces `oldText` by `newText` in `path` (one `@@` hunk of `-` then `+` lines). */
export function updateFilePatch(path: string, oldText: string, newText: string): string {
  const body = [...patchLines(oldText).map((l) => `-${l}\n`), ...patchLines(newText).map((l) => `+${l}\n`)].join('')
  return `*** Begin Patch\n*** Update File: ${path}\n@@\n${body}*** End Patch\n`
}

/** Files Codex opens with its `view_image{path}` tool rather than the shell. */
const IMAGE_FILE = /\.(png|jpe?g|gif|webp|bmp)$/i

/** Codex CLI as a convert target. */
export const codexVocabulary: TargetVocabulary = {
  agent: 'codex',
  format: 'codex-rollout',
  // Responses content items: `input_image` in user messages and in function outputs
  // (codex-rs `FunctionCallOutputContentItem`); there is no file block.
  blocks: { image: true, file: false, toolResultImages: true },
  validToolId: (id) => /^[A-Za-z0-9_-]{1,64}$/.test(id),
  encoders: {
    execute: (i, ctx) => {
      const input: Record<string, unknown> = { cmd: i.command }
      if (i.cwd !== undefined && i.cwd !== ctx.cwd) input.workdir = i.cwd
      return { name: 'exec_command', input }
    },
    read: (i) => {
      if (IMAGE_FILE.test(i.path) && i.offset === undefined && i.limit === undefined) return { name: 'view_image', input: { path: i.path } }
      const p = shq(i.path)
      const from = Math.max(1, i.offset ?? 1)
      let cmd = `cat ${p}`
      if (i.limit !== undefined) cmd = i.offset === undefined ? `head -n ${i.limit} ${p}` : `sed -n '${from},${from + i.limit - 1}p' ${p}`
      else if (i.offset !== undefined) cmd = `sed -n '${from},$p' ${p}`
      return { name: 'exec_command', input: { cmd } }
    },
    write: (i, ctx) => ({ name: 'apply_patch', input: { input: addFilePatch(patchPath(i.path, ctx.cwd), i.content) } }),
    edit: (i, ctx) => ({ name: 'apply_patch', input: { input: updateFilePatch(patchPath(i.path, ctx.cwd), i.oldText, i.newText) } }),
    search: (i) => {
      const parts = ['rg', '-n']
      if (i.include !== undefined) parts.push('--glob', shq(i.include))
      parts.push('--', shq(i.pattern))
      if (i.path !== undefined) parts.push(shq(i.path))
      return { name: 'exec_command', input: { cmd: parts.join(' ') } }
    },
    glob: (i) => ({ name: 'exec_command', input: { cmd: `rg --files -g ${shq(i.pattern)}${i.path === undefined ? '' : ` ${shq(i.path)}`}` } }),
    list: (i) => ({ name: 'exec_command', input: { cmd: `ls -la ${shq(i.path)}` } }),
    fetch: () => undefined,
    'web-search': () => undefined,
    subagent: (i) => ({ name: 'spawn_agent', input: { message: i.prompt } }),
  },
}
