/**
 * The catalog's streaming read of a Claude Code transcript (`AgentDefinition.readStream`): the
 * same pass as `readSession` (`scan.ts`), but every node is handed to the catalog as soon as it
 * can no longer change and is then forgotten (`transcript-stream.ts`), so a transcript of any size
 * is indexed with memory bounded by its ids. The session comes back without nodes, with the
 * totals `finishSession`/`summarize` would have taken from them.
 *
 * A reply continued far away from its first record (see `StreamTranscript`) makes the pass start
 * again with that reply held open; after two such passes everything is held (the reader's memory).
 */
import { addDiagnostic, finishSession, newSession, NodeTotalsBuilder } from '../../ir/build'
import type { NodeStream, ReadContext, StoreRef, StreamedSession } from '../types'
import { isProblem } from '../../../shared/ir'
import { inlineCallLinks, isRealModel, isSubagentRef, noteChildCall, subagentFields, subagentIdsOf } from './read'
import { inlineThreadsHint } from './sidechain'
import { scanTranscript } from './scan'
import { DEFAULT_WINDOW, StreamTranscript, type StreamWindow } from './transcript-stream'

/** Passes before every reply is held open to the end of the file. */
const MAX_PASSES = 3

/** One pass; `late` lists the replies that were continued after their node was handed over. */
async function pass(ref: StoreRef, out: NodeStream, window: StreamWindow, holdUntil: ReadonlyMap<string, number>): Promise<{ result: StreamedSession; late: Map<string, number> }> {
  const isSub = isSubagentRef(ref)
  const inline = isSub ? new Map<string, string>() : inlineCallLinks(ref)
  const session = newSession('claude-code', ref.sessionId, ref.format, ref.files, ref.home)
  const totals = new NodeTotalsBuilder()
  const children = isSub ? undefined : subagentIdsOf(ref)
  const byCall = new Map<string, string>()
  let model: string | undefined
  const t = new StreamTranscript(
    (n, seq) => {
      // Once a reply came back late this pass is only looking for more: nothing is handed over.
      if (t.late.size > 0) return
      totals.add(n)
      if (model === undefined && isRealModel(n)) model = n.model
      if (children) noteChildCall(byCall, n, children)
      if (inline.size > 0) for (const c of n.toolCalls ?? []) {
        const child = inline.get(c.id)
        if (child !== undefined) c.subagentSessionId = child
      }
      out.node(n, seq)
    },
    window,
    holdUntil,
  )
  let kept = 0
  let dropped = 0
  let droppedProblems = 0
  const facts = await scanTranscript(ref, session, t, {
    isSub,
    diag: (d) => {
      if (d.severity !== 'info' && kept++ >= out.maxDiagnostics) {
        dropped++
        if (isProblem(d)) droppedProblems++
      } else addDiagnostic(session, d)
    },
    beforeLine: (lineNo, offset) => t.advance(lineNo, offset),
    model: () => model,
  })
  if (isSub) await subagentFields(ref, session, facts.sessionId)
  else {
    const kids = [...(children ?? []), ...(inlineThreadsHint(ref.hints) ?? []).map((t) => t.id)]
    if (kids.length) session.childSessionIds = kids
  }
  finishSession(session, totals.totals)
  const result: StreamedSession = { session, nodeCount: t.released, totals: totals.totals, droppedDiagnostics: dropped }
  if (droppedProblems > 0) result.droppedProblems = droppedProblems
  if (byCall.size > 0) result.callLinks = byCall
  return { result, late: t.late }
}

/**
 * Read one session for the catalog, handing its nodes to `out` (see the module comment). Rejects
 * like `readSession` (`READ_FAILED` when the transcript cannot be opened).
 */
export async function readSessionStream(ref: StoreRef, _ctx: ReadContext, out: NodeStream, window: StreamWindow = DEFAULT_WINDOW): Promise<StreamedSession> {
  const hold = new Map<string, number>()
  for (let n = 1; ; n++) {
    const all = n > MAX_PASSES
    const { result, late } = await pass(ref, out, all ? { bytes: Infinity, nodes: Infinity } : window, hold)
    if (late.size === 0 || all) return result
    for (const [mid, line] of late) hold.set(mid, Math.max(line, hold.get(mid) ?? 0))
    out.restart()
  }
}
