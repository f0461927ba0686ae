/**
 * The app's diagnostics panel and banner title treat a skipped diagnostic (`Diagnostic.skipped`: a
 * file discovery did not read, records a reader skipped) as `sepia doctor` does: something was left
 * out, though its severity is only `warning`. The panel marks it "skipped" (rendered to HTML).
 */
import { createSSRApp, h } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { describe, expect, it } from 'vitest'
import type { Diagnostic } from '../../../shared/ir'
import DiagnosticsPanel from './DiagnosticsPanel.vue'
import { strings } from '../strings'

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
    expect(strings.diagnostics.libraryTitle([noted, skipped])).toBe('1 file could not be read completely (2 problems). Everything else is shown.')
    expect(strings.diagnostics.libraryTitle([noted])).toBe('1 note on 1 file while reading. Nothing was left out.')
  })
})
