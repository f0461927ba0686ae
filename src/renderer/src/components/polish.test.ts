/**
 * The About dialog's agents table and a palette option, rendered to HTML with Vue's server
 * renderer: what they say, checked by value.
 */
import { createPinia, setActivePinia } from 'pinia'
import { createSSRApp, h, type Component } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { describe, expect, it } from 'vitest'
import type { Command } from '../commands'
import { library, summary } from '../test/fixtures'
import AgentsTable from './AgentsTable.vue'
import PaletteItem from './PaletteItem.vue'

function render(component: Component, props: Record<string, unknown>): Promise<string> {
  const pinia = createPinia()
  setActivePinia(pinia)
  return renderToString(createSSRApp({ render: () => h(component, props) }).use(pinia))
}

const text = (html: string): string => html.replace(/<!--.*?-->/g, '').replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')

describe('AgentsTable', () => {
  it('lists every agent with its sessions, the formats found and its capabilities', async () => {
    const lib = library([summary('a', { format: 'claude-code-jsonl' }), summary('b', { format: 'claude-code-subagent' }), summary('c', { format: 'claude-code-jsonl' })])
    lib.agents[0]!.capabilities = { canWrite: true, hasCheckpoints: true, hasThinkingSignatures: false }
    const html = await render(AgentsTable, { library: lib })
    const rows = [...html.matchAll(/<tr[^>]*data-agent="([^"]+)"[^>]*>(.*?)<\/tr>/g)].map((m) => `${m[1]}${text(m[2]!)}`)
    expect(rows).toEqual([
      'claude-code|Claude Code|3|claude-code-jsonl, claude-code-subagent|continue sessions in it, restore checkpoints|',
      'cline|Cline|0|—|—|',
    ])
  })
})

describe('PaletteItem', () => {
  it('marks the matched letters of the label and of the detail', async () => {
    const command: Command = { id: 'session:x', group: 'session', label: 'Fix parser', detail: 'Cline · ledger', run: () => undefined }
    // "Fix parser Cline · ledger": F(0) p(4) C(11) l(19)
    const html = await render(PaletteItem, { command, indices: [0, 4, 11, 19], active: true })
    expect(html).toContain('aria-selected="true"')
    expect(html).toContain('data-command-id="session:x"')
    expect([...html.matchAll(/<mark[^>]*>([^<]*)<\/mark>/g)].map((m) => m[1])).toEqual(['F', 'p', 'C', 'l'])
    expect(text(html)).toContain('|Session|')
  })
})
