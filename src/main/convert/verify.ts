/**
 * Read a written session back with the target agent's own reader (discover the target home, pick
 * the new id, read it) and compare it with what was written: turn counts, tool pairs and texts.
 */
import type { ConvertVerification } from '../../shared/convert'
import type { Session } from '../../shared/ir'
import type { AgentDefinition, ReadContext } from '../agents/types'
import type { HomeLayout } from '../platform'
import { compareTranscripts, transcriptOf } from './transcript'

/** The session `sessionId` as `target`'s reader sees it under `layout`, or undefined when not found. */
export async function readBack(target: AgentDefinition, layout: HomeLayout, sessionId: string, ctx: ReadContext): Promise<Session | undefined> {
  const { refs } = await target.discover(layout, ctx)
  const ref = refs.find((r) => r.sessionId === sessionId)
  return ref ? target.read(ref, ctx) : undefined
}

/** Compare `written` with the read-back (undefined: the reader did not find the session). */
export function verifyWritten(written: Session, back: Session | undefined, targetName: string): ConvertVerification {
  const expected = transcriptOf(written)
  if (!back) {
    return {
      ok: false,
      differences: [`${targetName}'s reader did not find the new session; the agent may not list it either.`],
      written: expected.counts,
      readBack: { userMessages: 0, assistantMessages: 0, toolCalls: 0, toolResults: 0, pairedCalls: 0 },
    }
  }
  const actual = transcriptOf(back)
  const differences = compareTranscripts(expected, actual)
  for (const d of back.diagnostics) if (d.severity === 'error') differences.push(`reading it back: ${d.message}`)
  return { ok: differences.length === 0, differences, written: expected.counts, readBack: actual.counts }
}
