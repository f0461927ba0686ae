/**
 * Write a prepared session (src/main/convert/prepare.ts) as a new Claude Code transcript that
 * `claude --resume <id>` continues.
 *
 * Rules (realstores/README.md "Claude Code 2.1.332", from the hand-written probe, resumed for real):
 * - the file is `<claudeConfigDir>/projects/<project folder>/<session id>.jsonl`, where the project
 *   folder is the cwd the agent runs in with every UTF-16 code unit that is not an ASCII letter or
 *   digit replaced by `-`, cut to 200 characters + `-` + base36 of the absolute 32-bit Java string
 *   hash of the cwd when longer ({@link claudeProjectFolder}); the id must be a UUID;
 * - each record needs `type`, `uuid`, `parentUuid` (null on the first, the previous record's uuid
 *   after) and `message.content`; `sessionId`, `cwd`, `timestamp`... are optional but written;
 * - a `tool_use` without its `tool_result` is dropped by Claude Code and a result without its call
 *   is not sent: the prepared session pairs every call (each result is its own `user` record right
 *   after the call, as Claude Code writes parallel results);
 * - record shapes as Claude Code writes them (seed 002 "Claude Code"; fixtures/real/claude-code):
 *   assistant `message{id, type:"message", role, model, content[thinking|redacted_thinking|text|
 *   tool_use], stop_reason, stop_sequence, usage}`, user `message{role, content}` with a string,
 *   `text`/`image`/`document` blocks or `tool_result{tool_use_id, content, is_error}`; a
 *   `custom-title` record carries the title (fixtures/cases/claude-code/02-metadata-lines).
 * Claude Code has no field for where a session was imported from, nor for per-message cost.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { SepiaError } from '../../../shared/api'
import { type ConvertWarning, quoteArg } from '../../../shared/convert'
import type { ContentBlock, MessageNode, Session, ToolCall } from '../../../shared/ir'
import { FileTransaction } from '../../util/file-transaction'
import { assistantParts } from '../../convert-shared/part-order'
import type { WriteOptions, WriteResult } from '../types'

/** Longest project folder name before the hash suffix (Claude Code's rule). */
const MAX_FOLDER = 200

/** The Java-style 32-bit string hash over UTF-16 code units (`h = 31*h + c | 0`). */
export function javaStringHash(s: string): number {
  let h = 0
  for (let i = 0; i < s.length; i++) h = ((h << 5) - h + s.charCodeAt(i)) | 0
  return h
}

/**
 * The `~/.claude/projects/` folder name for a cwd: every UTF-16 code unit that is not
 * `[A-Za-z0-9]` becomes `-`; a name longer than 200 characters becomes its first 200 characters +
 * `-` + base36 of `abs(hash(cwd))` (realstores lib/store.py `claude_project_dir`).
 */
export function claudeProjectFolder(cwd: string): string {
  const name = cwd.replace(/[^a-zA-Z0-9]/g, '-')
  if (name.length <= MAX_FOLDER) return name
  return `${name.slice(0, MAX_FOLDER)}-${Math.abs(javaStringHash(cwd)).toString(36)}`
}

type Json = Record<string, unknown>

/** An IR block as an Anthropic content block. */
function anthropicBlock(b: ContentBlock): Json | undefined {
  switch (b.type) {
    case 'text':
      return b.text === '' ? undefined : { type: 'text', text: b.text }
    case 'image':
      return b.data ? { type: 'image', source: { type: 'base64', media_type: b.mediaType ?? 'image/png', data: b.data } } : undefined
    case 'file': {
      if (b.text === undefined) return undefined
      const doc: Json = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: b.text } }
      if (b.path) doc.title = b.path
      return doc
    }
    case 'unknown':
      return b.text ? { type: 'text', text: b.text } : undefined
  }
}

/** User-side content: a plain string, or blocks when the node keeps images or files. */
function userContent(n: MessageNode): string | Json[] {
  if (!n.blocks) return n.content
  return n.blocks.map(anthropicBlock).filter((x): x is Json => x !== undefined)
}

function usageOf(n: MessageNode): Json | undefined {
  const u = n.usage
  if (!u) return undefined
  const out: Json = {}
  if (u.inputTokens !== undefined) out.input_tokens = u.inputTokens
  if (u.outputTokens !== undefined) out.output_tokens = u.outputTokens
  if (u.cacheWriteTokens !== undefined) out.cache_creation_input_tokens = u.cacheWriteTokens
  if (u.cacheReadTokens !== undefined) out.cache_read_input_tokens = u.cacheReadTokens
  return Object.keys(out).length ? out : undefined
}

/**
 * An assistant message's content blocks: thinking, text/blocks, tool_use, or, when the node keeps
 * its parts' order (`partOrder`, issue 14), in that order (`assistantParts`, convert-shared/part-order.ts).
 */
function assistantContent(n: MessageNode): Json[] {
  const thinking = (): Json | undefined => {
    if (n.thinkingSignature === undefined) return undefined
    if (n.metadata?.redactedThinking === true) return { type: 'redacted_thinking', data: n.thinkingSignature }
    return { type: 'thinking', thinking: n.thinking ?? '', signature: n.thinkingSignature }
  }
  const toolUse = (c: ToolCall): Json => ({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments ?? {} })
  const out: Json[] = []
  for (const p of assistantParts(n)) {
    const b = p.kind === 'thinking' ? thinking() : p.kind === 'block' ? anthropicBlock(p.block) : toolUse(p.call)
    if (b) out.push(b)
  }
  return out
}

function toolResultBlock(n: MessageNode): Json {
  const block: Json = { type: 'tool_result', tool_use_id: n.toolCallId ?? '', content: n.blocks ? userContent(n) : n.content }
  if (n.isError) block.is_error = true
  return block
}

/** The transcript's records, one JSON line each (generated lazily: a long session is never one string). */
function* records(session: Session, id: string, cwd: string, options: WriteOptions): Generator<string> {
  const common: Json = { isSidechain: false, userType: 'external', cwd, sessionId: id }
  if (session.git?.branch) common.gitBranch = session.git.branch
  if (session.title) yield JSON.stringify({ type: 'custom-title', customTitle: session.title, sessionId: id }) + '\n'
  let parent: string | null = null
  let lastAt = session.createdAt ?? options.now()
  for (const n of session.nodes) {
    const at = n.createdAt ?? lastAt
    lastAt = at
    const uuid = options.newId()
    const base: Json = { parentUuid: parent, ...common }
    let record: Json
    if (n.role === 'assistant') {
      const message: Json = { id: `msg_${randomBytes(12).toString('hex')}`, type: 'message', role: 'assistant' }
      const model = n.model ?? session.model
      if (model !== undefined) message.model = model
      message.content = assistantContent(n)
      message.stop_reason = n.toolCalls?.length ? 'tool_use' : 'end_turn'
      message.stop_sequence = null
      const usage = usageOf(n)
      if (usage) message.usage = usage
      record = { ...base, type: 'assistant', message }
    } else if (n.role === 'tool') {
      record = { ...base, type: 'user', message: { role: 'user', content: [toolResultBlock(n)] } }
    } else {
      record = { ...base, type: 'user', message: { role: 'user', content: userContent(n) } }
    }
    record.uuid = uuid
    record.timestamp = new Date(at).toISOString()
    parent = uuid
    yield JSON.stringify(record) + '\n'
  }
}

/** Per-message cost has no field in a Claude Code transcript (it keeps only a session total, `cost-state`). */
function warningsFor(session: Session): ConvertWarning[] {
  const withCost = session.nodes.filter((n) => n.usage?.cost !== undefined).length
  return [{ kind: 'usage-not-representable', count: withCost }]
}

/**
 * Write `session` as a new Claude Code transcript under `options.layout` (see the module comment).
 * With `dryRun` nothing is written. Rejects `WRITE_FAILED` (nothing left behind) on any error.
 */
export async function writeClaudeSession(session: Session, options: WriteOptions): Promise<WriteResult> {
  const cwd = session.workingDirectory ?? options.layout.home
  const id = options.newId()
  const file = join(options.layout.claudeConfigDir, 'projects', claudeProjectFolder(cwd), `${id}.jsonl`)
  const output = { sessionId: id, files: [file], resumeCommand: `claude --resume ${quoteArg(id, options.layout.os)}`, cwd, backups: [] as string[] }
  const warnings = warningsFor(session)
  if (options.dryRun) return { output, warnings }
  const tx = new FileTransaction(options.fault)
  try {
    await tx.stage(file, records(session, id, cwd, options))
    await tx.commit()
  } catch (e) {
    await tx.rollback()
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the Claude Code session: ${(e as Error).message}. Nothing was left behind.`, path: file })
  }
  return { output, warnings }
}
