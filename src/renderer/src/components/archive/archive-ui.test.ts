/** The archive's sentences (issue 19): the retention warning and the "Archived" note. */
import { describe, expect, it } from 'vitest'
import type { RetentionWarning } from '../../../../shared/archive'
import { archiveQuestionAllowed, archivedNote, warningText } from './archive-ui'

const w = (due: number, archived: number): RetentionWarning => ({ agent: 'claude-code', agentName: 'Claude Code', setting: 'cleanupPeriodDays', settingsFile: '/h/.claude/settings.json', days: 30, defaulted: true, withinDays: 7, due, archived, sessionIds: [] })

describe('archive UI', () => {
  it('says whether the sessions due are safe', () => {
    expect(warningText(w(14, 14))).toBe("Claude Code will delete 14 sessions in the next 7 days; they are safe in Sepia's archive")
    expect(warningText(w(14, 0))).toBe('Claude Code will delete 14 sessions in the next 7 days; not archived: turn the archive on')
    expect(warningText(w(1, 0))).toBe('Claude Code will delete 1 session in the next 7 days; not archived: turn the archive on')
    expect(warningText(w(3, 1))).toBe("Claude Code will delete 3 sessions in the next 7 days; 1 of 3 are in Sepia's archive")
  })
  it('names who deleted it and when', () => {
    expect(archivedNote({ goneAt: Date.UTC(2026, 10, 12, 12), agentName: 'Claude Code', archivedAt: 0 }, 'en-GB')).toBe('Archived: deleted by Claude Code on 12 Nov')
  })
  it('asks on its own except in an automated browser', () => {
    expect(archiveQuestionAllowed(undefined, false)).toBe(true)
    expect(archiveQuestionAllowed({ getItem: () => null }, true)).toBe(false)
    expect(archiveQuestionAllowed({ getItem: () => '1' }, true)).toBe(true)
  })
})
