/**
 * Round trip for every writer on every real sample session: read(write(read(x))) keeps the turn
 * counts, the tool pairs and the texts (STYLE.md "round-trip properties"). Writes go to a temp home;
 * the written session is read back with the target's own reader through discovery, like the app.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Session } from '../../shared/ir'
import { agentById } from '../agents/registry'
import { layoutForHome } from '../platform'
import { runConversion } from './convert'
import { recordedQueries, splitResult } from './fanout'
import { FIXTURE_SOURCES, readFixtureSessions } from '../../../tests/builders/fixture-sources'
import { selectThread } from './thread'
import { normText, transcriptOf } from './transcript'
import { readBack } from '../agents/read-back'

const WRITERS = ['claude-code', 'cline', 'codex', 'gemini', 'opencode', 'kilo-code', 'devin', 'qwen-code', 'pi'] as const
/** Writers added since (one line each, so parallel additions merge). */
const MORE_WRITERS = ['copilot-cli', 'droid', 'continue'] as const
const ctx = { now: () => 1_800_000_000_000 }

/** User and assistant texts of the source's main thread, as the projection normalizes them. */
function sourceTexts(s: Session): { user: string[]; assistant: string[]; results: string[]; calls: number } {
  const user: string[] = []
  const assistant: string[] = []
  const results: string[] = []
  let calls = 0
  const nodes = selectThread(s).nodes
  const callIds = new Set(nodes.flatMap((n) => (n.toolCalls ?? []).map((c) => c.id)))
  for (const n of nodes) {
    if (n.event || n.isMeta || n.role === 'system') continue
    if (n.role === 'tool' && n.toolCallId && callIds.has(n.toolCallId)) {
      const parts = recordedQueries(n)?.length ?? 1
      for (const r of parts > 1 ? splitResult(n, parts) : [{ text: n.content }]) results.push(normText(r.text))
    }
    if (n.role === 'user' && normText(n.content)) user.push(normText(n.content))
    if (n.role === 'assistant') {
      if (normText(n.content)) assistant.push(normText(n.content))
      calls += n.toolCalls?.length ?? 0
    }
  }
  return { user, assistant, results, calls }
}

/** True when every item of `want` appears in `have` in the same order (others may sit between). */
function inOrder(want: string[], have: string[]): boolean {
  let i = 0
  for (const h of have) if (i < want.length && h.includes(want[i]!)) i++
  return i === want.length
}

for (const source of FIXTURE_SOURCES) {
  describe(`round trip: ${source.label} sessions`, async () => {
    const sessions = await readFixtureSessions(source)
    it('has sessions to convert', () => expect(sessions.length).toBeGreaterThan(0))
    for (const target of [...WRITERS, ...MORE_WRITERS]) {
      for (const s of sessions) {
        it(`${s.id} → ${target}: same turns, tool pairs and texts`, async () => {
          const home = mkdtempSync(join(tmpdir(), `sepia-rt-${target}-`))
          const layout = await layoutForHome({ home })
          const r = await runConversion({ session: s, target: agentById(target), layout, textOnly: false, now: ctx.now, ctx })
          expect(r.verification.differences).toEqual([])
          expect(r.verification.ok).toBe(true)

          const back = await readBack(agentById(target), layout, r.sessionId, ctx)
          expect(back).toBeDefined()
          const t = transcriptOf(back!)
          // Every call of the read-back is paired; the source's calls all arrive (fan-outs may add calls).
          expect(t.counts.pairedCalls).toBe(t.counts.toolCalls)
          const src = sourceTexts(s)
          expect(t.counts.toolCalls).toBeGreaterThanOrEqual(src.calls)
          expect(t.counts.toolResults).toBe(t.counts.toolCalls)
          // Turn counts and texts of the source survive, in order.
          expect(t.counts.userMessages).toBeGreaterThanOrEqual(src.user.length)
          expect(t.counts.assistantMessages).toBe(src.assistant.length + t.entries.filter((e) => e.role === 'assistant' && e.text === '').length)
          expect(inOrder(src.user, t.entries.filter((e) => e.role === 'user').map((e) => e.text))).toBe(true)
          expect(inOrder(src.assistant, t.entries.filter((e) => e.role === 'assistant').map((e) => e.text))).toBe(true)
          expect(inOrder(src.results, t.entries.filter((e) => e.role === 'tool').map((e) => e.text))).toBe(true)
          expect(r.counts).toEqual(r.verification.readBack)
          expect(back!.id).toBe(r.sessionId)
        })
      }
    }
  })
}
