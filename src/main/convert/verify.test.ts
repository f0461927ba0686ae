/**
 * Issue 14 "Conversion of real sessions": a Cline 3.x legacy task converts from the corrected
 * reading, and the verification compares the read-back with the source's OWN api history
 * (tool_use / tool_result pairs), so a conversion that drops a recorded result is caught even when
 * the written session and its read-back agree.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Session } from '../../shared/ir'
import { cline } from '../agents/cline'
import { readHome, REPO } from '../../../tests/builders/cline/test-helpers'
import { agentById } from '../agents/registry'
import { layoutForHome } from '../platform'
import { runConversion } from './convert'
import { sourceToolRecord } from './source-record'
import { compareWithSource, verifyWritten } from './verify'
import { readBack } from '../agents/read-back'

const ctx = { now: () => 1_800_000_000_000 }
const HOME = join(REPO, 'fixtures/cline-3x/home')
const TASKS = join(HOME, '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks')
const made: string[] = []
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** Raw count: tool_use ids answered in the next message by a tool_result with that id or a "[name ...] Result:" / refusal text. */
function rawAnswered(id: string): { calls: number; answered: number } {
  const api = JSON.parse(readFileSync(join(TASKS, id, 'api_conversation_history.json'), 'utf8')) as { role: string; content: Record<string, unknown>[] }[]
  let calls = 0
  let answered = 0
  api.forEach((m, i) => {
    if (m.role !== 'assistant') return
    const uses = m.content.filter((b) => b.type === 'tool_use')
    calls += uses.length
    const next = api[i + 1]?.content ?? []
    for (const u of uses) {
      const byId = next.some((b) => b.type === 'tool_result' && b.tool_use_id === u.id)
      const byText = next.some((b) => b.type === 'text' && (String(b.text).startsWith(`[${String(u.name)} for `) || String(b.text).startsWith(`Tool [${String(u.name)}] was not executed`)))
      if (byId || byText) answered++
    }
  })
  return { calls, answered }
}

describe('convert verification against the source history (Cline 3.x)', () => {
  it('the source record equals a raw reading of api_conversation_history.json', async () => {
    const h = await readHome(cline, HOME)
    for (const s of h.sessions) {
      const rec = (await sourceToolRecord(s))!
      expect({ calls: rec.calls.length, answered: rec.answered.length }).toEqual(rawAnswered(s.id))
    }
  })

  for (const target of ['claude-code', 'codex', 'gemini'] as const) {
    it(`Cline 3.x → ${target}: every recorded result is carried; only the truly unanswered calls get a placeholder`, async () => {
      const h = await readHome(cline, HOME)
      for (const s of h.sessions) {
        const home = mkdtempSync(join(tmpdir(), `sepia-v14-${target}-`))
        made.push(home)
        const layout = await layoutForHome({ home })
        const r = await runConversion({ session: s, target: agentById(target), layout, textOnly: false, now: ctx.now, ctx })
        expect(r.verification.differences).toEqual([])
        const raw = rawAnswered(s.id)
        const unpaired = r.warnings.find((w) => w.kind === 'unpaired-call-result-added')
        // The warning counts only calls the source itself left unanswered.
        expect(unpaired && 'count' in unpaired ? unpaired.count : 0).toBe(raw.calls - raw.answered)
        const back = (await readBack(agentById(target), layout, r.sessionId, ctx))!
        expect(compareWithSource(back, (await sourceToolRecord(s))!, target)).toEqual([])
      }
    })
  }

  it('a conversion that lost a recorded result is caught, though the written session and its read-back agree', async () => {
    const s = (await readHome(cline, HOME)).byId('1797000000000')
    // Simulate the old wrong reading: one result sits on no call (paired to the wrong one, then dropped).
    const lossy: Session = { ...s, nodes: s.nodes.filter((n) => !(n.role === 'tool' && n.toolCallId === 'toolu_02E')) }
    const home = mkdtempSync(join(tmpdir(), 'sepia-v14-lossy-'))
    made.push(home)
    const layout = await layoutForHome({ home })
    const r = await runConversion({ session: lossy, target: agentById('claude-code'), layout, textOnly: false, now: ctx.now, ctx })
    expect(r.verification.ok).toBe(false)
    expect(r.verification.differences.join('\n')).toMatch(/records a result for 6 of its 7 tool calls; Claude Code reads back 5/)
  })

  it('a read-back whose reader skipped records differs from what was written, though the skip is only a warning (as sepia doctor counts it)', async () => {
    const s = (await readHome(cline, HOME)).byId('1797000000000')
    expect(verifyWritten(s, s, 'Codex').differences).toEqual([])
    const skipped = { severity: 'warning' as const, path: '/t/rollout.jsonl', line: 7, message: 'line is not JSON (cut short?); skipped', skipped: 2 }
    const noted = { severity: 'warning' as const, path: '/t/rollout.jsonl', message: 'a branch starts anew' }
    const v = verifyWritten(s, { ...s, diagnostics: [noted, skipped] }, 'Codex')
    expect(v.ok).toBe(false)
    expect(v.differences).toEqual(['reading it back, 2 records skipped: line is not JSON (cut short?); skipped'])
  })
})
