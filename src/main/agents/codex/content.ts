/**
 * Codex response-item content → IR text, blocks, injected-context flags and tool-result facts.
 *
 * Shapes: codex-rs `protocol/src/models.rs` `ContentItem` (`input_text{text}`,
 * `output_text{text}`, `input_image{image_url}`), `FunctionCallOutputPayload` (a string, an
 * object `{content, success}`, or a list of content items), as seen in fixtures/real/codex
 * (Codex 0.171.0) and fixtures/public/codex (claude-code-log samples: custom tool output as
 * `[{type:"output_text",text}]`). Exec output headers (`Process exited with code N`,
 * `Exit code: N`, `Wall time: S seconds`) are the text Codex itself wrote in
 * fixtures/real/codex; older `shell` results were the JSON string
 * `{"output", "metadata":{"exit_code","duration_seconds"}}` (codex-rs `exec.rs`, 2025).
 */
import type { ContentBlock } from '../../../shared/ir'
import { type Json, arr, num, obj, str, tryJson } from './records'

/** Text and (when it holds more than text) the ordered blocks of one content list. */
export interface ContentParts {
  /** All text items joined by blank lines. */
  text: string
  /** Present only when a non-text item (image, unknown) is in the list. */
  blocks?: ContentBlock[]
}

/** A `data:<mime>;base64,<data>` URL split, or a plain URI. */
function imageBlock(url: string | undefined): ContentBlock {
  const m = url === undefined ? null : /^data:([^;,]+);base64,(.*)$/s.exec(url)
  if (m) return { type: 'image', mediaType: m[1]!, data: m[2]! }
  return url === undefined ? { type: 'image' } : { type: 'image', uri: url }
}

/** A content item list (or a bare string) → text projection and blocks. */
export function contentParts(content: unknown): ContentParts {
  if (typeof content === 'string') return { text: content }
  const blocks: ContentBlock[] = []
  let rich = false
  for (const item of arr(content)) {
    const o = obj(item)
    if (!o) continue
    const type = str(o.type) ?? '(none)'
    const text = str(o.text) ?? (type === 'refusal' ? str(o.refusal) : undefined)
    if (text !== undefined && (type === 'input_text' || type === 'output_text' || type === 'text' || type === 'refusal')) {
      blocks.push({ type: 'text', text })
    } else if (type === 'input_image' || type === 'image') {
      rich = true
      blocks.push(imageBlock(str(o.image_url) ?? str(o.url)))
    } else {
      rich = true
      blocks.push(text === undefined ? { type: 'unknown', originalType: type, raw: o } : { type: 'unknown', originalType: type, text, raw: o })
    }
  }
  const text = blocks
    .map((b) => (b.type === 'text' || b.type === 'unknown' ? b.text : undefined))
    .filter((t): t is string => t !== undefined && t !== '')
    .join('\n\n')
  return rich ? { text, blocks } : { text }
}

/**
 * Openings of user-role text Codex injects rather than the user typing it (codex-rs
 * `core/src/environment_context.rs`, `user_instructions.rs`, `AGENTS.md` loader; fixtures/real/codex;
 * fixtures/public-real/codex: `<user_action>` review results 0.144, `<recommended_plugins>` 0.145).
 */
const INJECTED_PREFIXES: [string, string][] = [
  ['<environment_context>', 'environment-context'],
  ['<user_instructions>', 'user-instructions'],
  ['# AGENTS.md instructions', 'agents-md'],
  ['<INSTRUCTIONS>', 'agents-md'],
  ['<permissions instructions>', 'permissions'],
  ['<skills_instructions>', 'skills'],
  ['<turn_aborted>', 'turn-aborted'],
  ['<collaboration_mode>', 'collaboration-mode'],
  ['<model_switch>', 'model-switch'],
  ['<personality_spec>', 'personality'],
  ['<user_shell_command>', 'user-shell-command'],
  ['<subagent_notification>', 'subagent-notification'],
  ['<user_action>', 'user-action'],
  ['<recommended_plugins>', 'recommended-plugins'],
]

/**
 * A whole message wrapped in one snake_case tag (`<x>...</x>`): the shape of every contextual
 * fragment newer Codex builds inject as a user item (codex-rs `ContextualUserFragment`
 * START/END markers), including tags newer than this reader.
 */
const WRAPPED = /^<([a-z][a-z0-9_]*)>[\s\S]*<\/\1>\s*$/

/**
 * What kind of injected context a user-role text is (`environment-context`, `agents-md`,
 * `subagent-notification`, the tag name of a newer fragment...), or undefined when the person
 * typed it. See {@link INJECTED_PREFIXES} and {@link WRAPPED}.
 */
export function injectedKind(text: string): string | undefined {
  const t = text.trimStart()
  for (const [prefix, kind] of INJECTED_PREFIXES) if (t.startsWith(prefix)) return kind
  const m = WRAPPED.exec(t)
  return m ? m[1]!.replace(/_/g, '-') : undefined
}

/** True when a user message is context Codex injected (see {@link injectedKind}). */
export function isInjectedText(text: string): boolean {
  return injectedKind(text) !== undefined
}

/** The heading after which an IDE or Desktop wrapper puts the person's own words. */
const REQUEST_HEADING = /^## My request for Codex:[ \t]*\r?\n?/m

/**
 * A prompt the VS Code extension or Codex Desktop wrapped with context (`# Context from my IDE
 * setup:` with `## Active file:`/`## Open tabs:`, or `# Files mentioned by the user:`; the
 * person's text follows `## My request for Codex:`; fixtures/public-real/codex vscode-windows-041
 * and gitsync-0126-desktop-dynamic) → the context part and the request. Undefined when the text
 * is not wrapped.
 */
export function splitIdeWrapper(text: string): { context: string; request: string } | undefined {
  const t = text.trimStart()
  if (!t.startsWith('# Context from my IDE setup:') && !t.startsWith('# Files mentioned by the user:')) return undefined
  const m = REQUEST_HEADING.exec(t)
  if (!m) return undefined
  return { context: t.slice(0, m.index).trimEnd(), request: t.slice(m.index + m[0].length).trim() }
}

/**
 * Provenance Codex 0.171 records on message items (`internal_chat_message_metadata_passthrough.
 * content_item_metadata[].provenance.type`: `user`, `harness`, `skills`, `tool`): true when every
 * item names a provenance and none is `user` or `tool` (tool notifications stay visible).
 */
export function isHarnessProvenance(payload: Json): boolean {
  const meta = arr(obj(payload.internal_chat_message_metadata_passthrough)?.content_item_metadata)
  const kinds = meta.map((m) => str(obj(obj(m)?.provenance)?.type))
  if (kinds.length === 0 || kinds.some((k) => k === undefined)) return false
  return kinds.every((k) => k !== 'user' && k !== 'tool')
}

/** The opening tag of a tool notification Codex sends as a user message (fixtures/real/codex agent scenario). */
export function notificationOrigin(text: string): string | undefined {
  const m = /^<(subagent_notification)>/.exec(text.trimStart())
  return m ? m[1]!.replace(/_/g, '-') : undefined
}

/** Facts about one tool result. */
export interface ToolOutput extends ContentParts {
  isError?: boolean
  exitCode?: number
  durationMs?: number
  /** Agent/thread id a `spawn_agent` result names (`{"agent_id": ...}`). */
  agentId?: string
}

/** Exit code and wall time from the header Codex puts before `Output:` in exec results. */
function execHeader(text: string): Pick<ToolOutput, 'exitCode' | 'durationMs'> {
  const cut = text.indexOf('\nOutput:')
  const head = cut === -1 ? text.slice(0, 300) : text.slice(0, cut)
  const out: Pick<ToolOutput, 'exitCode' | 'durationMs'> = {}
  const code = /^(?:Process exited with code|Exit code:) (-?\d+)$/m.exec(head)
  if (code) out.exitCode = Number(code[1])
  const wall = /^Wall time: ([0-9.]+) seconds?$/m.exec(head)
  if (wall) out.durationMs = Math.round(Number(wall[1]) * 1000)
  return out
}

/** A string result: legacy `shell` JSON, a `spawn_agent` reply, or plain text with an exec header. */
function stringOutput(text: string): ToolOutput {
  const parsed = obj(tryJson(text))
  if (parsed) {
    const meta = obj(parsed.metadata)
    if (typeof parsed.output === 'string' && meta) {
      const out: ToolOutput = { text: parsed.output }
      const code = num(meta.exit_code)
      if (code !== undefined) out.exitCode = code
      const secs = num(meta.duration_seconds)
      if (secs !== undefined) out.durationMs = Math.round(secs * 1000)
      return out
    }
    const agentId = str(parsed.agent_id) ?? str(parsed.thread_id)
    if (agentId !== undefined) return { text, agentId }
  }
  return { text, ...execHeader(text) }
}

/** `function_call_output.output` / `custom_tool_call_output.output` → tool result facts. */
export function toolOutput(output: unknown): ToolOutput {
  if (typeof output === 'string') return stringOutput(output)
  if (Array.isArray(output)) return contentParts(output)
  const o = obj(output)
  if (!o) return { text: output === undefined || output === null ? '' : JSON.stringify(output) }
  const inner = o.content ?? o.content_items
  const out: ToolOutput = typeof inner === 'string' ? stringOutput(inner) : contentParts(inner)
  if (o.success === false) out.isError = true
  return out
}
