/**
 * The app's diagnostics panel and banner title treat a skipped diagnostic (`Diagnostic.skipped`: a
 * file discovery did not read, records a reader skipped) as `sepia doctor` does: something was left
 * out, though its severity is only `warning`. The panel marks it "skipped" (rendered to HTML).
 */
import { createSSRApp, h } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { createPinia } from 'pinia'
import { describe, expect, it } from 'vitest'
import type { Diagnostic, SessionSummary } from '../../../shared/ir'
import DiagnosticsPanel from './DiagnosticsPanel.vue'
import SessionRow from './SessionRow.vue'
import { strings } from '../strings'
import { summary } from '../test/fixtures'

const noted: Diagnostic = { severity: 'warning', path: '/h/a.jsonl', message: 'a branch starts anew' }
const skipped: Diagnostic = { severity: 'warning', path: '/h/loop', message: '/h/loop is a symbolic link loop (it leads back to itself); Sepia did not follow it, so it was skipped.', skipped: 1 }

const render = (diagnostics: Diagnostic[]) => renderToString(createSSRApp({ render: () => h(DiagnosticsPanel, { diagnostics, title: 't', testid: 'p', variant: 'banner' }) }))

describe('DiagnosticsPanel and skipped diagnostics', () => {
  it('marks a skipped warning "skipped" and shows the panel as an error one', async () => {
    const html = await render([noted, skipped])
    expect(html.match(/data-testid="diagnostic-skipped"/g)).toHaveLength(1)
    expect(html).toContain(`>${strings.diagnostics.skipped}<`)
    expect(html).toMatch(/class="diagnostics banner error"/)
    const plain = await render([noted])
    expect(plain).not.toContain('diagnostic-skipped')
    expect(plain).toMatch(/class="diagnostics banner warning"/)
  })

  it('the banner title says a file was not read completely, not "Nothing was left out"', () => {
    expect(strings.diagnostics.libraryTitle([noted, skipped])).toBe('1 file could not be read completely (1 problem). Everything else is shown.')
    expect(strings.diagnostics.libraryTitle([noted])).toBe('1 note on 1 file while reading. Nothing was left out.')
  })
})

describe('SessionRow diagnostics badge', () => {
  const row = (over: Partial<SessionSummary>) =>
    renderToString(createSSRApp({ render: () => h(SessionRow, { node: { key: 'k', summary: summary('s1', over), title: 'T', children: [] }, depth: 0 }) }).use(createPinia()))

  it('says "N problems" only for what left something out, and "N notes" for the other warnings', async () => {
    const notes = await row({ diagnosticCount: 2, problemCount: 0 })
    expect(notes).not.toContain('row-problems')
    expect(notes).toMatch(/data-testid="row-notes"[^>]*>2 notes</)
    expect(notes).toContain('title="2 notes while reading this session. Nothing was left out."')
    const mixed = await row({ diagnosticCount: 3, problemCount: 1 })
    expect(mixed).toContain('1 problem<')
    expect(mixed).not.toContain('row-notes')
    expect(await row({ diagnosticCount: 0, problemCount: 0 })).not.toMatch(/row-notes|row-problems/)
  })

  it('a summary recorded before problemCount existed counts every diagnostic as a problem, as before', async () => {
    expect(await row({ diagnosticCount: 2 })).toContain('2 problems<')
  })
})
