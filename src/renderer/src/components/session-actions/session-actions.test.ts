/**
 * The session actions in the session header, rendered with Vue's server renderer: which buttons
 * show for which agent capabilities and sessions (data-testid hooks the browser tests use), and
 * the hidden-secrets banner. Dialogs are not rendered until first opened.
 */
import { createPinia, setActivePinia } from 'pinia'
import { createSSRApp, h } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { describe, expect, it } from 'vitest'
import type { Library } from '../../../../shared/api'
import type { Session } from '../../../../shared/ir'
import { useLibraryStore } from '../../stores/library'
import { kitchenSink, library, summary } from '../../test/fixtures'
import SessionActions from './SessionActions.vue'

function lib(canWrite: { claude: boolean; cline: boolean }, checkpoints: boolean): Library {
  const l = library([summary('s1')])
  l.agents = l.agents.map((a) => ({
    ...a,
    capabilities: { ...a.capabilities, canWrite: a.id === 'claude-code' ? canWrite.claude : canWrite.cline, hasCheckpoints: checkpoints },
  }))
  return l
}

async function render(session: Session, l: Library): Promise<string> {
  const pinia = createPinia()
  setActivePinia(pinia)
  useLibraryStore().library = l
  return renderToString(createSSRApp({ render: () => h(SessionActions, { session }) }).use(pinia))
}

describe('SessionActions', () => {
  it('offers Continue in…, Checkpoints (with their count) and Export… when the agents allow it', async () => {
    const s = { ...kitchenSink(), checkpoints: [{ ref: 'a', kind: 'file-history' }, { ref: 'b', kind: 'file-history' }] }
    const html = await render(s, lib({ claude: true, cline: true }, true))
    expect(html).toContain('data-testid="continue-in"')
    expect(html).toContain('data-testid="checkpoints-button"')
    expect(html).toMatch(/Checkpoints <span class="badge"[^>]*>2<\/span>/)
    expect(html).toContain('data-testid="export-button"')
    expect(html).not.toContain('data-testid="convert-dialog"')
    expect(html).not.toContain('data-testid="secrets-banner"')
  })

  it('hides Continue in… when no other agent can be written, and Checkpoints without capability or checkpoints', async () => {
    const withCps = { ...kitchenSink(), checkpoints: [{ ref: 'a', kind: 'file-history' }] }
    const onlyOwn = await render(withCps, lib({ claude: true, cline: false }, false))
    expect(onlyOwn).not.toContain('data-testid="continue-in"')
    expect(onlyOwn).not.toContain('data-testid="checkpoints-button"')
    const none = await render(kitchenSink(), lib({ claude: false, cline: true }, true))
    expect(none).toContain('data-testid="continue-in"')
    expect(none).not.toContain('data-testid="checkpoints-button"')
  })

  it('offers no Continue in… for a session with no messages, and says why in plain words', async () => {
    const empty: Session = {
      ...kitchenSink(),
      id: 'empty-1',
      agent: 'gemini',
      nodes: [{ nodeId: 'w1', role: 'system', content: 'Hook(s) [x] failed for event SessionEnd.', isMeta: true }],
    }
    const html = await render(empty, lib({ claude: true, cline: true }, false))
    expect(html).not.toContain('data-testid="continue-in"')
    expect(html).toContain('data-testid="nothing-to-continue"')
    expect(html).toContain('This session has no messages, so there is nothing to continue in another agent.')
    // With nothing to write elsewhere there is nothing to explain either.
    expect(await render(empty, lib({ claude: false, cline: false }, false))).not.toContain('nothing-to-continue')
    // A listed session the library counts messages for keeps the button while its nodes load.
    const listed = lib({ claude: true, cline: true }, false)
    listed.sessions = [summary('empty-1', { agent: 'gemini', messageCount: 3 })]
    expect(await render({ ...empty, nodes: [] }, listed)).toContain('data-testid="continue-in"')
  })

  it('says how many secrets are hidden, with a Reveal button', async () => {
    const html = await render({ ...kitchenSink(), maskedSecrets: 3 }, lib({ claude: false, cline: false }, false))
    expect(html).toContain('data-testid="secrets-banner"')
    expect(html).toContain('data-state="masked"')
    expect(html).toContain('3 secrets hidden')
    expect(html).toContain('data-testid="reveal-secrets"')
  })
})
