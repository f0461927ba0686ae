/**
 * Cline's hook audit log `<clineDataDir>/logs/hooks.jsonl`, a secondary source: appended for every
 * session without runtime hooks, never rewritten or rotated, untouched by deletes, so it keeps the
 * tool calls, their inputs and outputs and the final reply of sessions whose transcripts are gone
 * (seed 000 "Hook audit log", "What survives a delete"; sdk/packages/core/src/hooks/
 * hook-file-hooks.ts:234-254, 629-756; session-manifest-store.ts:320-341).
 *
 * Line shape: {ts, timestamp (ISO 8601), clineVersion, taskId, sessionContext.rootSessionId,
 * workspaceRoots, userId, agent_id, parent_agent_id, hookName, …}. Rows (seed 000 "Past-use rows
 * and secondary sources"): session_id = sessionContext.rootSessionId, else taskId, else the
 * shutdown line's sessionId; project_path = the first workspaceRoots entry;
 * - prompt_submit → user row with userPromptSubmit.prompt;
 * - tool_call → tool_use row (tool_call.name, tool_call.id, the input as the transcript's row);
 * - tool_result → tool_result row with the call id and postToolUse.result, or `[error] <error>`;
 * - agent_end → assistant row with turn.outputText;
 * - every other line → system row `hook audit: <hookName>` with cline_version=, user=, agent=,
 *   parent_agent=, reason=, pid=, source= when present and `error=<name>: <message>` (never the
 *   stack);
 * - a line that is not a JSON object → its own system `parser:` row.
 */
import { stat } from 'node:fs/promises'
import type { AgentId } from '../../../../shared/ir'
import { isRecord } from '../../../util/json'
import { readLines } from '../../../util/lines'
import { str } from '../common'
import { isoToMs } from '../sdk-store'
import { contentText, inputText, makeSecondaryRow, pairs, type SecondaryRow } from '../timeline/rows'
import { openRegularFile } from '../../../util/regular-file'

/** The source name hook rows carry (`recovered.source`). */
export const HOOKS_SOURCE = 'hooks.jsonl'

/** Hook names whose line is a conversation turn (the rest are audit rows). */
export const TURN_HOOKS = new Set(['prompt_submit', 'tool_call', 'tool_result', 'agent_end'])

/** The session a hook line belongs to (seed 000: rootSessionId, else taskId, else sessionId). */
export function hookSessionId(rec: Record<string, unknown>): string {
  const ctx = isRecord(rec.sessionContext) ? rec.sessionContext : undefined
  return str(ctx?.rootSessionId) ?? str(rec.taskId) ?? str(rec.sessionId) ?? ''
}

/** The row of one parsed line (see the module comment). */
export function hookRow(rec: Record<string, unknown>, line: number, file: string, agent: AgentId): SecondaryRow {
  const sessionId = hookSessionId(rec)
  const roots = Array.isArray(rec.workspaceRoots) ? rec.workspaceRoots : []
  const projectPath = typeof roots[0] === 'string' ? roots[0] : ''
  const timestampUtc = isoToMs(rec.ts) ?? isoToMs(rec.timestamp)
  const base = { agent, sessionId, projectPath, timestampUtc, sourceFile: file, sourceLine: line, recovered: { source: HOOKS_SOURCE } }
  const hook = str(rec.hookName) ?? ''
  if (hook === 'prompt_submit') {
    const p = isRecord(rec.userPromptSubmit) ? rec.userPromptSubmit.prompt : undefined
    return makeSecondaryRow({ ...base, turnType: 'user', text: typeof p === 'string' ? p : inputText(p) })
  }
  if (hook === 'tool_call') {
    const call = isRecord(rec.tool_call) ? rec.tool_call : {}
    return makeSecondaryRow({ ...base, turnType: 'tool_use', toolName: str(call.name) ?? '', toolUseId: str(call.id) ?? '', text: inputText(call.input) }, { input: call.input })
  }
  if (hook === 'tool_result') {
    const call = isRecord(rec.tool_result) ? rec.tool_result : {}
    const post = isRecord(rec.postToolUse) ? rec.postToolUse : {}
    const error = call.error ?? (post.success === false ? post.error : undefined)
    const errorText = typeof error === 'string' ? error : isRecord(error) ? (str(error.message) ?? inputText(error)) : undefined
    const text = errorText !== undefined ? `[error] ${errorText}` : contentText(post.result ?? call.output)
    return makeSecondaryRow(
      { ...base, turnType: 'tool_result', toolName: str(call.name) ?? str(post.toolName) ?? '', toolUseId: str(call.id) ?? '', text },
      { input: call.input ?? post.parameters, isError: errorText !== undefined },
    )
  }
  if (hook === 'agent_end') {
    const turn = isRecord(rec.turn) ? rec.turn : {}
    return makeSecondaryRow({ ...base, turnType: 'assistant', text: typeof turn.outputText === 'string' ? turn.outputText : '' })
  }
  const err = isRecord(rec.error) ? rec.error : undefined
  const text = [
    `hook audit: ${hook || '(no hookName)'}`,
    pairs([
      ['cline_version', rec.clineVersion],
      ['user', rec.userId],
      ['agent', rec.agent_id],
      ['parent_agent', rec.parent_agent_id],
      ['reason', rec.reason],
      ['pid', rec.pid],
      ['source', rec.source],
    ]),
    err ? `error=${str(err.name) ?? 'Error'}: ${str(err.message) ?? ''}` : '',
  ].filter(Boolean).join(' ')
  return makeSecondaryRow({ ...base, turnType: 'system', text })
}

/** The `parser:` row of a line that is not a JSON object. */
export function badHookRow(text: string, line: number, file: string, agent: AgentId): SecondaryRow {
  const reason = text.trim() === '' ? 'empty line' : 'not a JSON object'
  return makeSecondaryRow({ agent, turnType: 'system', text: `parser: line ${line} of ${file} is ${reason}; skipped`, sourceFile: file, sourceLine: line, recovered: { source: HOOKS_SOURCE } })
}

/** Parse one line: its row, or a `parser:` row. Blank lines give nothing. */
export function hookLineRow(text: string, line: number, file: string, agent: AgentId): SecondaryRow | undefined {
  if (text.trim() === '') return undefined
  let rec: unknown
  try {
    rec = JSON.parse(text)
  } catch {
    return badHookRow(text, line, file, agent)
  }
  return isRecord(rec) ? hookRow(rec, line, file, agent) : badHookRow(text, line, file, agent)
}

/** Every row of the log, streamed line by line. Rejects only when the file cannot be opened. */
export async function* hookLogRows(path: string, agent: AgentId): AsyncGenerator<SecondaryRow> {
  for await (const { lineNo, text } of readLines(path)) {
    const row = hookLineRow(text, lineNo, path, agent)
    if (row) yield row
  }
}

/** Where one turn line sits in the file (for reading it again without scanning). */
export interface HookLineRef {
  line: number
  /** Byte offset of the line. */
  offset: number
  /** Length in bytes, without the line break. */
  bytes: number
}

/** Turn lines per session, and the sessions with any line (turn or audit). */
export interface HookLogIndex {
  turns: Map<string, HookLineRef[]>
  sessions: Set<string>
}

interface CachedIndex {
  size: number
  mtimeMs: number
  index: HookLogIndex
  /** Byte offset where the next scan starts: the end of the last complete line. */
  resume: number
  /** Complete lines before `resume`. */
  lines: number
}

const indexCache = new Map<string, CachedIndex>()

/**
 * Index the log for discovery: the byte ranges of turn lines per session (so a session's `read`
 * re-reads only its own lines) and every session id met. Memory grows with the number of turn
 * lines, not their size. Cached by size and mtime; the log is append-only (hook-file-hooks.ts:
 * 629-650), so a grown file is scanned from where the last scan stopped, a shrunk one again from
 * the start. Rejects when the file cannot be read.
 */
export async function indexHookLog(path: string): Promise<HookLogIndex> {
  const st = await stat(path)
  const hit = indexCache.get(path)
  if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.index
  const grown = hit && st.size > hit.size
  const index: HookLogIndex = grown
    ? { turns: new Map([...hit.index.turns].map(([k, v]) => [k, [...v]])), sessions: new Set(hit.index.sessions) }
    : { turns: new Map(), sessions: new Set() }
  const start = grown ? hit.resume : 0
  const base = grown ? hit.lines : 0
  let prev: { ref: HookLineRef; sessionId: string } | undefined
  const close = (nextOffset: number) => {
    if (!prev) return
    prev.ref.bytes = Math.max(0, nextOffset - prev.ref.offset - 1)
    const list = index.turns.get(prev.sessionId) ?? []
    list.push(prev.ref)
    index.turns.set(prev.sessionId, list)
    prev = undefined
  }
  let lines = base
  let lastStart = start
  let lastParsed = true
  for await (const { lineNo, text, offset } of readLines(path, { start })) {
    close(offset)
    lines = base + lineNo
    lastStart = offset
    lastParsed = false
    let rec: unknown
    try {
      rec = JSON.parse(text)
      lastParsed = true
    } catch {
      continue
    }
    if (!text.includes('"hookName"')) continue
    if (!isRecord(rec)) continue
    const sid = hookSessionId(rec)
    if (!sid) continue
    index.sessions.add(sid)
    if (TURN_HOOKS.has(String(rec.hookName))) prev = { ref: { line: base + lineNo, offset, bytes: 0 }, sessionId: sid }
  }
  // A last line cut short (no line break, not JSON) may still be being written: scan it again next time.
  const complete = st.size === 0 || lastParsed || (await lastByte(path, st.size)) === 0x0a
  close(st.size + 1)
  indexCache.set(path, { size: st.size, mtimeMs: st.mtimeMs, index, resume: complete ? st.size : lastStart, lines: complete ? lines : Math.max(base, lines - 1) })
  return index
}

async function lastByte(path: string, size: number): Promise<number | undefined> {
  const fh = await openRegularFile(path)
  try {
    const b = Buffer.alloc(1)
    await fh.read(b, 0, 1, size - 1)
    return b[0]
  } finally {
    await fh.close()
  }
}

/** Re-read the given lines of the log as rows (lines that no longer parse are skipped). */
export async function hookRowsAt(path: string, refs: HookLineRef[], agent: AgentId): Promise<SecondaryRow[]> {
  const out: SecondaryRow[] = []
  const fh = await openRegularFile(path)
  try {
    for (const ref of refs) {
      const buf = Buffer.alloc(ref.bytes)
      await fh.read(buf, 0, ref.bytes, ref.offset)
      const row = hookLineRow(buf.toString('utf8').replace(/\r$/, ''), ref.line, path, agent)
      if (row && !row.text.startsWith('parser:')) out.push(row)
    }
  } finally {
    await fh.close()
  }
  return out
}
