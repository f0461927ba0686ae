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

describe('encrypted chat stores in the Health view (issue 18)', () => {
  it('says the agent keeps its chats encrypted and how many files changed when, in every language', () => {
    expect(healthStrings.encrypted('Windsurf')).toBe('Windsurf keeps its chats encrypted; Sepia can list them but not read them.')
    expect(healthStrings.encryptedFound('Windsurf', 3, at - 86_400_000, at)).toMatch(/^Found 3 Windsurf chat files, changed between .*2026.* and .*2026.*\.$/)
    expect(healthStrings.encryptedFound('Trae', 1, at, at)).toMatch(/^Found 1 Trae chat file, last changed .*2026.*\.$/)
    for (const loc of ['ja', 'de', 'fr', 'es', 'zh-CN', 'ko'] as const) {
      applyLocale(loc)
      const line = `${healthStrings.encrypted('Windsurf')} ${healthStrings.encryptedFound('Windsurf', 3, at, at)}`
      expect(line).toContain('Windsurf')
      expect(line).toContain('3')
      expect(line).not.toMatch(/health\.|\{|\}|encrypted|Sepia can list/)
    }
  })
})

describe('records cut short or damaged in the Health view (fixtures/cases/claude-code/04-broken-lines)', () => {
  it('says the same sentence as sepia doctor: 7 records, 2 cut short or damaged', () => {
    const totals = { sessions: 1, filesRead: 1, records: 7, recordsSkipped: 2, recordsUnreadable: 2, skippedFiles: 0, partialSessions: 0, toolCallsWithoutResult: 0 }
    expect(healthStrings.summary({ totals, homes: [] })).toBe('We read 71.4% of your 7 records in 1 session; 2 records were cut short or damaged and could not be read.')
  })
})
