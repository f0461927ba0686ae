/**
 * Compare a written session, read back with the target agent's own reader
 * (`../agents/read-back.ts`), with what was written: turn counts, tool pairs and texts;
 * and, when the source's own files record its tool calls ({@link SourceToolRecord}), with the
 * source: every result the source recorded must be in the read-back as a real result, not the
 * placeholder written for a call without one. The read-back's `error` diagnostics and its skipped
 * records (`Diagnostic.skipped`) are differences.
 */
import type { ConvertVerification } from '../../shared/convert'
import { isSkipped, type Session } from '../../shared/ir'
import { plural } from '../../shared/plural'
import { NO_RESULT_TEXT } from './prepare'
import type { SourceToolRecord } from './source-record'
import { compareTranscripts, normText, transcriptOf } from './transcript'

/**
 * Compare `written` with the read-back (undefined: the reader did not find the session), with
 * `source`, the source's own tool record when there is one, and with `original`, the session that
 * was converted: fewer user messages written than its main thread holds is a difference (a
 * conversion that left the person's requests out is not "the same", however well it reads back).
 */
export function verifyWritten(written: Session, back: Session | undefined, targetName: string, source?: SourceToolRecord, original?: Session): ConvertVerification {
  const expected = transcriptOf(written)
  const lostUsers = original ? transcriptOf(original).counts.userMessages - expected.counts.userMessages : 0
  const userDifference = lostUsers > 0 ? [`the source session has ${plural(expected.counts.userMessages + lostUsers, 'user message')}; ${plural(lostUsers, 'user message')} ${lostUsers === 1 ? 'was' : 'were'} not written.`] : []
  if (!back) {
    return {
      ok: false,
      differences: [`${targetName}'s reader did not find the new session; the agent may not list it either.`, ...userDifference],
      written: expected.counts,
      readBack: { userMessages: 0, assistantMessages: 0, toolCalls: 0, toolResults: 0, pairedCalls: 0 },
    }
  }
  const actual = transcriptOf(back)
  const differences = [...userDifference, ...compareTranscripts(expected, actual)]
  // A record the target's reader skipped is lost though only a warning (`Diagnostic.skipped`), as `sepia doctor` counts it.
  for (const d of back.diagnostics) {
    if (d.severity === 'error') differences.push(`reading it back: ${d.message}`)
    else if (isSkipped(d)) differences.push(`reading it back, ${plural(d.skipped!, 'record')} skipped: ${d.message}`)
  }
  if (source) differences.push(...compareWithSource(back, source, targetName))
  return { ok: differences.length === 0, differences, written: expected.counts, readBack: actual.counts }
}

const PLACEHOLDER = normText(NO_RESULT_TEXT)

/** Calls of `s` answered by a real result (not the placeholder), counted per call. */
function realResults(s: Session): number {
  const real = new Set<string>()
  for (const n of s.nodes) if (n.role === 'tool' && n.toolCallId && !normText(n.content).endsWith(PLACEHOLDER)) real.add(n.toolCallId)
  let count = 0
  for (const n of s.nodes) for (const c of n.toolCalls ?? []) if (real.has(c.id)) count++
  // Text-only targets carry results as "[Tool result: name]" user texts.
  for (const n of s.nodes) if (n.role === 'user' && /^\[Tool result: /.test(n.content) && !normText(n.content).endsWith(PLACEHOLDER)) count++
  return count
}

/** Differences between the read-back and the source's own record (empty when it carries every recorded result). */
export function compareWithSource(back: Session, source: SourceToolRecord, targetName: string): string[] {
  const carried = realResults(back)
  const recorded = source.answered.length
  if (carried >= recorded) return []
  return [
    `the source (${source.file}) records a result for ${recorded} of its ${source.calls.length} tool calls; ${targetName} reads back ${carried}: ${plural(recorded - carried, 'recorded result')} ${recorded - carried === 1 ? 'was' : 'were'} lost in reading or writing.`,
  ]
}
