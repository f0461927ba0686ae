/**
 * Issue 17: after "Continue in…", the resume command has a Copy button and an "Open in terminal"
 * button (the terminal itself: tests/open-terminal-api.test.ts). Rendered with Vue's server renderer.
 */
import { createSSRApp, h } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { describe, expect, it } from 'vitest'
import type { ConvertResult } from '../../../../shared/convert'
import ConvertOutcome from './ConvertOutcome.vue'

const counts = { userMessages: 1, assistantMessages: 1, toolCalls: 0 } as ConvertResult['counts']
const result = {
  source: { agent: 'cline', id: 's' },
  target: { agent: 'claude-code', displayName: 'Claude Code', home: '/home/ana' },
  textOnly: false,
  warnings: [],
  losses: 0,
  counts,
  sessionId: '4c1e0000-0000-4000-8000-000000000000',
  files: ['/home/ana/.claude/projects/p/4c1e.jsonl'],
  backups: [],
  resumeCommand: 'claude --resume 4c1e0000-0000-4000-8000-000000000000',
  cwd: '/home/ana/p',
  resumeShellCommand: 'cd /home/ana/p && claude --resume 4c1e0000-0000-4000-8000-000000000000',
  verification: { ok: true, differences: [], written: counts, readBack: counts },
} as ConvertResult

describe('ConvertOutcome', () => {
  it('offers Copy and Open in terminal for the resume command', async () => {
    const html = await renderToString(createSSRApp({ render: () => h(ConvertOutcome, { result }) }))
    expect(html).toContain('data-testid="copy-resume-command"')
    expect(html).toMatch(/data-testid="open-in-terminal"[^>]*>\s*Open in terminal/)
    expect(html).toContain('data-testid="open-in-terminal-status"')
  })
})
