/**
 * "Move to another computer…" and "Install on this computer…" (issue 19) in the session actions,
 * rendered with Vue's server renderer: which button shows for which agent and open home, and that
 * the move dialog says the file keeps secrets before anything is written.
 */
import { createPinia, setActivePinia } from 'pinia'
import { createSSRApp, h } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { describe, expect, it } from 'vitest'
import type { Library } from '../../../../shared/api'
import type { Session } from '../../../../shared/ir'
import { useLibraryStore } from '../../stores/library'
import { strings } from '../../strings'
import { kitchenSink, library, summary } from '../../test/fixtures'
import SessionActions from './SessionActions.vue'

async function render(component: unknown, props: Record<string, unknown>, l: Library): Promise<string> {
  const pinia = createPinia()
  setActivePinia(pinia)
  useLibraryStore().library = l
  return renderToString(createSSRApp({ render: () => h(component as never, props) }).use(pinia))
}

describe('Move to another computer', () => {
  it('is offered for Claude Code and Codex sessions, not for other agents', async () => {
    const s = kitchenSink()
    const claude = await render(SessionActions, { session: { ...s, agent: 'claude-code' } }, library([summary('s1')]))
    expect(claude).toContain('data-testid="move-button"')
    expect(claude).toContain(strings.move.open)
    const gemini = await render(SessionActions, { session: { ...s, agent: 'gemini' } as Session }, library([summary('s1')]))
    expect(gemini).not.toContain('data-testid="move-button"')
  })

  it('offers Install on this computer… when the open home is the session bundle holding the session', async () => {
    const s = kitchenSink()
    const l = library([summary('s1')])
    l.homes = l.homes.map((h) => ({ ...h, isDemo: false, openedFrom: { path: '/tmp/x.zip', kind: 'zip', sessionBundle: { agent: s.agent, sessionId: s.id, projectPath: '/home/ana/x' } } }))
    const html = await render(SessionActions, { session: s }, l)
    expect(html).toContain('data-testid="install-bundle-button"')
    expect(html).not.toContain('data-testid="move-button"')
  })

  it('the move dialog says, outside any condition, that the file keeps secrets', async () => {
    // The dialog needs a window (ActionDialog); its template is checked as text here, the words above.
    const src = (await import('./MoveDialog.vue?raw')).default
    expect(src).toMatch(/<p class="warning" role="note" data-testid="move-secrets">\{\{ t\.secrets \}\}<\/p>/)
    expect(strings.move.secrets).toContain('including any API keys, tokens or passwords')
  })
})
