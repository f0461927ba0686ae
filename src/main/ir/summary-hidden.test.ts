/** summarize() carries a session the agent hides (Devin `hidden = 1` → metadata.hidden) as `hidden: true`. */
import { describe, expect, it } from 'vitest'
import { newSession, summarize } from './build'

describe('summarize: hidden sessions', () => {
  it('marks a session whose metadata says hidden, and only that one', () => {
    const hidden = newSession('devin', 'pale-moon', 'devin-sqlite', ['/h/sessions.db'])
    hidden.metadata = { hidden: true }
    const shown = newSession('devin', 'still-river', 'devin-sqlite', ['/h/sessions.db'])
    expect(summarize(hidden, '/h').hidden).toBe(true)
    expect('hidden' in summarize(shown, '/h')).toBe(false)
  })
})
