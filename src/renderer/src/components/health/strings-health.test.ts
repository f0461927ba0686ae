/**
 * The Health view's line for a write job a killed Sepia left unfinished (issue 16's journal,
 * shown per issue 17 in the user's language): every kind and outcome has words, in English and in
 * Japanese, and none of them is main's English `InterruptedWrite.message`.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { InterruptedWrite } from '../../../../shared/health'
import { applyLocale } from '../../locale'
import { healthStrings } from './strings-health'

const KINDS: InterruptedWrite['kind'][] = ['convert', 'restore', 'undo', 'export', 'collect']
const OUTCOMES: InterruptedWrite['outcome'][] = ['cleaned', 'finished', 'kept']
const at = Date.UTC(2026, 11, 2, 9, 30)

afterEach(() => applyLocale('en'))

describe('interrupted writes in the Health view', () => {
  it('says what was stopped and what Sepia did, in plain English', () => {
    expect(healthStrings.interrupted({ kind: 'convert', outcome: 'cleaned', startedAt: at })).toMatch(
      /^A conversion started on .*2026.* was stopped before it finished\. Sepia put everything back as it was\.$/,
    )
    const lines = KINDS.flatMap((kind) => OUTCOMES.map((outcome) => healthStrings.interrupted({ kind, outcome, startedAt: at })))
    expect(new Set(lines).size).toBe(KINDS.length * OUTCOMES.length)
    for (const l of lines) expect(l).not.toMatch(/health\.|\{|\}/)
  })

  it('follows the language in effect', () => {
    applyLocale('ja')
    const line = healthStrings.interrupted({ kind: 'restore', outcome: 'kept', startedAt: at })
    expect(line).toContain('復元')
    expect(line).toContain('そのまま残しました')
    expect(line).not.toMatch(/stopped|restore|files/)
  })
})
