/**
 * Read a Cursor `agent-transcripts` JSONL file (shared/formats/cursor-devin-atif-acp.md §B4, §F27;
 * seed 002 "Cursor" A): one `{"role":"user"|"assistant","message":{"content":[…]}}` per line, with
 * `text` and `tool_use{name,input}` parts (no ids, no results, no model, usage or times), plus
 * non-message lines `{"type":"error","error":…}` and `{"type":"turn_ended","status":…}`.
 *
 * Node ids are reader-made (`L<line>`); tool calls get `<session id>:L<line>:<part>`. A
 * `turn_ended` line whose status is not `success`, and an `error` line, become `interrupted`
 * events; other non-message lines are counted in `metadata.recordTypes`. Bad JSON lines are one
 * diagnostic each, with their line number.
 */
import type { MessageNode, Session } from '../../../shared/ir'
import { addDiagnostic, skipRecord } from '../../ir/build'
import { readLines } from '../../util/lines'
import { type Json, obj, str, stripBom, text } from '../cursor/common/json'
import { messageNodes } from './messages'

/** Counts a transcript read leaves in session metadata. */
export interface TranscriptCounts {
  lines: number
  empty: number
  recordTypes: Record<string, number>
}

function errorText(r: Json): string {
  const e = r.error
  if (typeof e === 'string') return e
  return text(obj(e)?.message) ?? (e === undefined ? (str(r.status) ?? 'error') : JSON.stringify(e))
}

/**
 * Append the nodes of transcript `path` to `session.nodes`. Rejects with the file system error
 * when the file cannot be opened (callers decide whether that is fatal).
 */
export async function readTranscriptInto(session: Session, path: string): Promise<TranscriptCounts> {
  const counts: TranscriptCounts = { lines: 0, empty: 0, recordTypes: {} }
  for await (const { lineNo, text: line } of readLines(path)) {
    counts.lines = lineNo
    if (line.trim() === '') continue
    let r: Json | undefined
    try {
      r = obj(JSON.parse(stripBom(line)))
    } catch (e) {
      skipRecord(session, { severity: 'warning', path, line: lineNo, message: `line is not JSON (${(e as Error).message}); skipped` })
      continue
    }
    if (!r) {
      skipRecord(session, { severity: 'warning', path, line: lineNo, message: 'line is not a JSON object; skipped' })
      continue
    }
    const id = `L${lineNo}`
    const role = str(r.role)
    if (role === undefined) {
      const type = str(r.type) ?? '(none)'
      counts.recordTypes[type] = (counts.recordTypes[type] ?? 0) + 1
      const failed = type === 'error' || (type === 'turn_ended' && r.status !== undefined && r.status !== 'success')
      if (failed) session.nodes.push({ nodeId: id, role: 'system', content: errorText(r), event: 'interrupted', metadata: { type } })
      continue
    }
    const message: Json = { role, content: obj(r.message)?.content ?? r.content ?? '' }
    const out = messageNodes(id, message, (i) => `${session.id}:${id}:${i}`)
    if (out.problem) addDiagnostic(session, { severity: 'warning', path, line: lineNo, message: out.problem })
    if (out.empty) counts.empty++
    session.nodes.push(...(out.nodes as MessageNode[]))
  }
  return counts
}
