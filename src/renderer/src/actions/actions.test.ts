/**
 * The pure helpers of the session actions: unified diff rows, the "Continue in…" target rows with
 * warnings in plain words, restore selection, byte sizes, path joining, task polling, base64.
 */
import { describe, expect, it } from 'vitest'
import type { AgentInfo } from '../../../shared/api'
import type { RestoreFilePreview } from '../../../shared/checkpoints'
import { describeWarning, type ConvertPlan, type ConvertWarning } from '../../../shared/convert'
import type { TaskProgress } from '../../../shared/export'
import { buildCommands, type CommandActions } from '../commands'
import { library as libraryOf } from '../test/fixtures'
import { formatBytes } from './bytes'
import { firstWritable, lossSummary, targetRows, warningRow } from './convert-view'
import { base64ToBytes, contentToBlob } from './download'
import { defaultSelection, sameFolder, selectAll, selectedPaths, toggle } from './restore-select'
import { bundleName, joinPath, runTask } from './task'
import { diffStat, parseUnifiedDiff } from './unified-diff'

describe('parseUnifiedDiff', () => {
  it('numbers lines from the hunk headers and skips the file header', () => {
    const rows = parseUnifiedDiff('--- a/NOTES.md\n+++ b/NOTES.md\n@@ -1,2 +1,3 @@\n-scratch\n+# Notes\n+\n ctx\n\\ No newline at end of file\n')
    expect(rows).toEqual([
      { type: 'hunk', text: '@@ -1,2 +1,3 @@' },
      { type: 'del', text: 'scratch', oldNo: 1 },
      { type: 'add', text: '# Notes', newNo: 1 },
      { type: 'add', text: '', newNo: 2 },
      { type: 'same', text: 'ctx', oldNo: 2, newNo: 3 },
      { type: 'note', text: '\\ No newline at end of file' },
    ])
    expect(diffStat(rows)).toEqual({ added: 2, removed: 1 })
  })

  it('keeps CRLF content without the CR and gives no rows without a hunk', () => {
    expect(parseUnifiedDiff('@@ -3 +3 @@\r\n-a\r\n+b\r\n')).toEqual([
      { type: 'hunk', text: '@@ -3 +3 @@' },
      { type: 'del', text: 'a', oldNo: 3 },
      { type: 'add', text: 'b', newNo: 3 },
    ])
    expect(parseUnifiedDiff('Binary files differ\n')).toEqual([])
  })
})

const agent = (id: AgentInfo['id'], displayName: string, canWrite: boolean): AgentInfo => ({
  id,
  displayName,
  sessionCount: 1,
  capabilities: { canWrite, hasCheckpoints: false, hasThinkingSignatures: false },
})

const plan = (over: Partial<ConvertPlan> = {}): ConvertPlan => ({
  source: { agent: 'cline', id: 's1' },
  target: { agent: 'claude-code', displayName: 'Claude Code', home: '/home/ana' },
  textOnly: false,
  warnings: [
    { kind: 'thinking-unsigned-dropped', count: 1 },
    { kind: 'tool-mapped', count: 2, from: 'run_commands', to: 'Bash' },
  ],
  losses: 1,
  counts: { userMessages: 2, assistantMessages: 6, toolCalls: 4, toolResults: 4, pairedCalls: 4 },
  sessionId: 'x',
  files: [],
  resumeCommand: 'claude --resume x',
  ...over,
})

describe('targetRows', () => {
  it('lists writable targets with plain-words warnings, then the other agents disabled, never the own agent', () => {
    const rows = targetRows([plan()], [agent('claude-code', 'Claude Code', true), agent('cline', 'Cline', true), agent('codex', 'Codex', false)], 'cline')
    expect(rows.map((r) => [r.agent, r.plan !== undefined, r.disabledReason])).toEqual([
      ['claude-code', true, undefined],
      ['codex', false, 'Sepia cannot write Codex sessions yet.'],
    ])
    expect(rows[0]!.warnings).toEqual([
      {
        kind: 'thinking-unsigned-dropped',
        severity: 'loss',
        count: 1,
        text: 'The model’s reasoning (“Thinking”) in 1 place is not carried over: the other agent’s model would refuse it. Every message and answer is kept.',
        detail: expect.stringContaining('1 thinking block without a provider signature left out'),
      },
      { kind: 'tool-mapped', severity: 'change', count: 2, text: '2 run_commands calls written as Bash.' },
    ])
    expect(firstWritable(rows)?.agent).toBe('claude-code')
    expect(lossSummary(rows[0]!.plan!)).toBe('1 kind of content left out')
    expect(lossSummary(plan({ losses: 0, warnings: [] }))).toBe('Nothing is lost')
  })

  it('says what the user loses in their words, with the technical wording as the detail (issue 17)', () => {
    const jargon = /signature|prompt|provider|\bids?\b|paired|\bIR\b/i
    const kinds: ConvertWarning[] = [
      { kind: 'thinking-unsigned-dropped', count: 3 },
      { kind: 'thinking-other-provider-dropped', count: 1, from: 'anthropic', to: 'openai' },
      { kind: 'input-usage-dropped', count: 4 },
      { kind: 'tool-id-rewritten', count: 2 },
      { kind: 'unpaired-call-result-added', count: 1 },
    ]
    for (const w of kinds) {
      const row = warningRow(w)
      expect(row.text, w.kind).not.toMatch(jargon)
      expect(row.detail, w.kind).toBe(describeWarning(w))
    }
    expect(warningRow({ kind: 'input-usage-dropped', count: 4 }).text).toContain('4 messages')
    // A warning already in plain words keeps its one text, with no detail.
    expect(warningRow({ kind: 'tool-mapped', count: 2, from: 'run_commands', to: 'Bash' })).toEqual({ kind: 'tool-mapped', severity: 'change', count: 2, text: '2 run_commands calls written as Bash.' })
  })

  it('has no writable row when no plan came back', () => {
    expect(firstWritable(targetRows([], [agent('codex', 'Codex', false)], 'cline'))).toBeUndefined()
  })
})

describe('restore selection', () => {
  const f = (path: string, status: RestoreFilePreview['status']): RestoreFilePreview => ({ path, status, binary: false })
  const files = [f('a.txt', 'modified'), f('b.txt', 'unchanged'), f('c.txt', 'deleted')]
  it('selects the changed files by default, all or none on request, in preview order', () => {
    expect([...defaultSelection(files)]).toEqual(['a.txt', 'c.txt'])
    expect(selectAll(files, true).size).toBe(3)
    expect(selectAll(files, false).size).toBe(0)
    const s = toggle(toggle(defaultSelection(files), 'a.txt', false), 'b.txt', true)
    expect(selectedPaths(files, s)).toEqual(['b.txt', 'c.txt'])
  })
  it('compares folders ignoring trailing separators and slash direction', () => {
    expect(sameFolder('/home/ana/p/', '/home/ana/p')).toBe(true)
    expect(sameFolder('C:\\Users\\ana\\p', 'C:/Users/ana/p/')).toBe(true)
    expect(sameFolder('/a', undefined)).toBe(false)
  })
})

describe('small formats', () => {
  it('formats bytes', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(3 * 1024 * 1024)).toBe('3 MB')
  })
  it('joins paths with the folder’s own separator and names bundles by date', () => {
    expect(joinPath('/home/ana/', 'x.zip')).toBe('/home/ana/x.zip')
    expect(joinPath('/home/ana', 'x')).toBe('/home/ana/x')
    expect(joinPath('C:\\Users\\ana', 'x.zip')).toBe('C:\\Users\\ana\\x.zip')
    expect(bundleName(new Date(2026, 10, 30, 12).getTime(), true)).toBe('sepia-review-2026-11-30.zip')
    expect(bundleName(new Date(2026, 0, 5, 12).getTime(), false)).toBe('sepia-review-2026-01-05')
  })
  it('decodes base64 PDF content to bytes', async () => {
    expect([...base64ToBytes('JVBERg==')]).toEqual([0x25, 0x50, 0x44, 0x46])
    const blob = contentToBlob({ fileName: 'a.pdf', mimeType: 'application/pdf', encoding: 'base64', content: 'JVBERg==' })
    expect(blob.type).toBe('application/pdf')
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(new Uint8Array([0x25, 0x50, 0x44, 0x46]))
    expect(await contentToBlob({ fileName: 'a.md', mimeType: 'text/markdown', encoding: 'utf8', content: '# Hi' }).text()).toBe('# Hi')
  })
})

describe('runTask', () => {
  it('polls progress while the call runs and resolves with its answer', async () => {
    const seen: number[] = []
    let done = 0
    let finish: (v: string) => void = () => undefined
    const value = await runTask('t1', {
      // The call ends once three progress answers were seen (no wall-clock race).
      start: () => new Promise<string>((res) => (finish = res)),
      progress: async (id): Promise<TaskProgress> => ({ taskId: id, done: ++done, total: 10, phase: 'copy', state: 'running' }),
      onProgress: (p) => {
        seen.push(p.done)
        if (seen.length === 3) finish('ok')
      },
      intervalMs: 5,
    })
    expect(value).toBe('ok')
    expect(seen).toEqual([1, 2, 3])
  })
  it('rejects like the call and ignores failed polls', async () => {
    await expect(
      runTask('t2', {
        start: () => new Promise((_res, rej) => setTimeout(() => rej(new Error('CANCELLED')), 30)),
        progress: async () => {
          throw new Error('not yet')
        },
        onProgress: () => undefined,
        intervalMs: 5,
      }),
    ).rejects.toThrow('CANCELLED')
  })
})

describe('the palette’s Collect for review command', () => {
  const noop = (): void => undefined
  const acts = (collect?: () => void): CommandActions => ({
    openFolder: noop, openDemo: noop, reload: noop, about: noop, show: noop, setTheme: noop, openSession: noop,
    ...(collect ? { collectForReview: collect } : {}),
  })
  const ctx = (isDemo: boolean) => {
    const l = libraryOf([])
    l.homes = [{ path: '/h', os: 'linux' as const, isDemo }]
    return { library: l, view: 'library' as const, themeChoice: 'system' as const, theme: 'light' as const }
  }
  it('is offered for an opened folder and runs the action, not for the demo library', () => {
    let ran = 0
    const cmd = buildCommands(ctx(false), acts(() => ran++)).find((c) => c.id === 'collect')
    expect(cmd?.label).toBe('Collect for review…')
    cmd!.run()
    expect(ran).toBe(1)
    expect(buildCommands(ctx(true), acts(() => ran++)).some((c) => c.id === 'collect')).toBe(false)
    expect(buildCommands(ctx(false), acts()).some((c) => c.id === 'collect')).toBe(false)
  })
})
