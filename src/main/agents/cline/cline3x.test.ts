/**
 * Cline 3.x legacy tasks of the native tool-call era (fixtures/cline-3x, built from cline/cline
 * v3.49.1 source; issue 14 points 4-7). Every count is checked against an independent reading of
 * the raw api_conversation_history.json / ui_messages.json in this file, never Sepia against itself.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { expectGolden } from '../../../../tests/helpers/golden'
import type { Session } from '../../../shared/ir'
import { cline } from './index'
import { readHome, removeTempDirs, REPO } from '../../../../tests/builders/cline/test-helpers'

afterAll(removeTempDirs)

const ROOT = join(REPO, 'fixtures/cline-3x')
const HOMES = [
  { home: join(ROOT, 'home'), storage: '.config/Code/User/globalStorage/saoudrizwan.claude-dev' },
  { home: join(ROOT, 'codespaces-home'), storage: '.vscode-remote/data/User/globalStorage/saoudrizwan.claude-dev' },
]

type Raw = { role: string; content: string | Record<string, unknown>[] }

/** What the raw API history says, read without Sepia's code. */
function truth(dir: string) {
  const api = JSON.parse(readFileSync(join(dir, 'api_conversation_history.json'), 'utf8')) as Raw[]
  const ui = JSON.parse(readFileSync(join(dir, 'ui_messages.json'), 'utf8')) as { ts: number }[]
  const blocks = (m: Raw) => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content)
  const calls: { id: string; name: string; input: Record<string, unknown> }[] = []
  const paired: string[] = []
  const textResults: string[] = []
  const refused: string[] = []
  const interrupted: string[] = []
  const prompts: string[] = []
  const assistantTexts: string[] = []
  api.forEach((m, i) => {
    if (m.role === 'assistant') {
      const mine = blocks(m).filter((b) => b.type === 'tool_use') as unknown as typeof calls
      calls.push(...mine)
      for (const b of blocks(m)) {
        if (b.type === 'text' && String(b.text).trim()) assistantTexts.push(String(b.text))
        if (b.type === 'tool_use' && b.name === 'attempt_completion') assistantTexts.push(String((b.input as { result: string }).result))
      }
      const next = api[i + 1]
      const answered = new Set<string>()
      for (const b of next ? blocks(next) : []) {
        if (b.type === 'tool_result') answered.add(String(b.tool_use_id))
        const text = b.type === 'text' ? String(b.text) : ''
        const h = /^\[(\w+)(?: for '([^']*)')?\] Result:/.exec(text)
        const r = /^Tool \[(\w+)\] was not executed because/.exec(text)
        const c = h ? mine.find((x) => x.name === h[1] && x.input.path === h[2]) : r ? mine.find((x) => x.name === r[1]) : undefined
        if (c && h) textResults.push(c.id)
        if (c && r) refused.push(c.id)
        if (c) answered.add(c.id)
      }
      for (const c of mine) {
        if (answered.has(c.id) && next) paired.push(c.id)
        else if (next || c.name !== 'attempt_completion') interrupted.push(c.id)
      }
    } else {
      for (const b of blocks(m)) {
        const w = b.type === 'text' ? /<(task|user_message)>\s*([\s\S]*?)\s*<\/\1>/.exec(String(b.text)) : null
        if (w) prompts.push(w[2]!)
      }
    }
  })
  return { calls, paired, textResults, refused, interrupted, prompts, assistantTexts, lastTs: Math.max(...ui.map((x) => x.ts)), api }
}

async function all(): Promise<{ session: Session; dir: string }[]> {
  const out: { session: Session; dir: string }[] = []
  for (const h of HOMES) {
    const read = await readHome(cline, h.home)
    const tasks = join(h.home, h.storage, 'tasks')
    for (const id of readdirSync(tasks)) out.push({ session: read.byId(id), dir: join(tasks, id) })
  }
  return out
}

describe('Cline 3.x native tool-call tasks (fixtures/cline-3x)', () => {
  it('every task: calls, results paired by id, refusals, interruptions, prompts and texts equal the raw reading', async () => {
    const tasks = await all()
    expect(tasks).toHaveLength(3)
    for (const { session: s, dir } of tasks) {
      const t = truth(dir)
      const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
      expect(calls.map((c) => [c.id, c.name, c.arguments])).toEqual(t.calls.map((c) => [c.id, c.name, c.input]))
      const results = s.nodes.filter((n) => n.role === 'tool')
      expect(results.map((n) => n.toolCallId).sort()).toEqual([...t.paired].sort())
      expect(calls.filter((c) => c.metadata?.refused).map((c) => c.id)).toEqual(t.refused)
      const interrupted = calls.filter((c) => c.metadata?.interrupted)
      expect(interrupted.map((c) => c.id)).toEqual(t.interrupted)
      for (const c of interrupted) {
        expect(c.status).toBe('failed')
        expect(results.some((n) => n.toolCallId === c.id)).toBe(false)
      }
      expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)).toEqual(t.prompts)
      expect(s.nodes.filter((n) => n.role === 'assistant' && n.content).map((n) => n.content)).toEqual(t.assistantTexts)
      expect(JSON.stringify(s.nodes)).not.toContain('HAS_CHANGES')
      expect(s.lastActivityAt).toBe(t.lastTs)
      expectGolden(`cline-3x/${s.id}`, s)
    }
  })

  it('pairs parallel calls answered out of order by tool_use_id, and a text-only result by name and path', async () => {
    const s = (await all()).find((x) => x.session.id === '1797000000000')!.session
    const resultOf = (id: string) => s.nodes.find((n) => n.role === 'tool' && n.toolCallId === id)!
    expect(resultOf('toolu_02E').content).toBe('The content was successfully saved to src/parse.ts.')
    expect(resultOf('toolu_03E').content).toBe('The content was successfully saved to NOTES.md.')
    expect(resultOf('toolu_06L').content).toBe('parse.ts')
    expect(resultOf('toolu_04W').isError).toBe(true)
    expect(resultOf('toolu_05C').content).toContain('1 passed')
    // The UI's stuck "Now" fragment is not the text; the API history's full text is.
    expect(s.nodes.some((n) => n.content === 'Now')).toBe(false)
    expect(s.nodes.find((n) => n.role === 'assistant')!.content).toBe('Now I will read the parser before changing it.')
    expect(s.checkpoints.map((c) => c.ref)).toHaveLength(2)
    expect(s.nodes.find((n) => n.nodeId === 'api-1')!.createdAt).toBe(1797000002000)
  })

  it('an exported task folder (no state/taskHistory.json) on a Codespaces home has its project from environment_details', async () => {
    const read = await readHome(cline, HOMES[1]!.home)
    expect(read.refs.map((r) => r.sessionId)).toEqual(['1797000200000'])
    expect(read.sessions[0]!.workingDirectory).toBe('/workspaces/weather-app')
  })
})

describe('Cline 3.x UI-only variant', () => {
  it('a partial UI text takes the API full text, and HAS_CHANGES is stripped, when the task is read from ui_messages.json', async () => {
    // Same task with conversationHistoryIndex removed: Sepia reads the UI log (the pre-3.x path).
    const { mkdirSync, writeFileSync } = await import('node:fs')
    const { tempDir } = await import('../../../../tests/builders/cline/test-helpers')
    const h = tempDir()
    const src = join(HOMES[0]!.home, HOMES[0]!.storage, 'tasks/1797000000000')
    const dst = join(h, HOMES[0]!.storage, 'tasks/1797000000000')
    mkdirSync(dst, { recursive: true })
    writeFileSync(join(dst, 'api_conversation_history.json'), readFileSync(join(src, 'api_conversation_history.json')))
    const ui = (JSON.parse(readFileSync(join(src, 'ui_messages.json'), 'utf8')) as Record<string, unknown>[]).map(({ conversationHistoryIndex: _c, ...m }) => m)
    writeFileSync(join(dst, 'ui_messages.json'), JSON.stringify(ui))
    const s = (await readHome(cline, h)).byId('1797000000000')
    const texts = s.nodes.filter((n) => n.role === 'assistant').map((n) => n.content)
    expect(texts[0]).toBe('Now I will read the parser before changing it.')
    expect(texts.at(-1)).toBe('Fixed the parser and updated NOTES.md.')
    expect(s.lastActivityAt).toBe(1797000012000)
    expect(s.workingDirectory).toBe('/home/ana/src/parser')
  })
})

describe('editedExistingFile (issue 14 point 4)', () => {
  it('a write_to_file over an existing file, which the UI calls editedExistingFile, takes its name and result from the request', async () => {
    const { tempDir, writeJson } = await import('../../../../tests/builders/cline/test-helpers')
    const h = tempDir()
    const dir = join(h, '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1797000300000')
    const ui = [
      { ts: 1797000300000, type: 'say', say: 'task', text: 'Rewrite a.txt' },
      { ts: 1797000301000, type: 'say', say: 'api_req_started', text: JSON.stringify({ request: '<task>\nRewrite a.txt\n</task>' }) },
      { ts: 1797000302000, type: 'say', say: 'tool', text: JSON.stringify({ tool: 'editedExistingFile', path: 'b.txt', diff: 'x' }) },
      { ts: 1797000303000, type: 'say', say: 'tool', text: JSON.stringify({ tool: 'editedExistingFile', path: 'a.txt', content: 'new' }) },
      { ts: 1797000304000, type: 'say', say: 'api_req_started', text: JSON.stringify({ request: "[write_to_file for 'a.txt'] Result:\nThe content was successfully saved to a.txt." }) },
    ]
    writeJson(join(dir, 'ui_messages.json'), ui)
    const s = (await readHome(cline, h)).byId('1797000300000')
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    // Raw: the request header names write_to_file for 'a.txt'; b.txt got no result.
    expect(calls.map((c) => [c.name, (c.arguments as { path: string }).path])).toEqual([['replace_in_file', 'b.txt'], ['write_to_file', 'a.txt']])
    const r = s.nodes.filter((n) => n.role === 'tool')
    expect(r.map((n) => [n.toolCallId, n.content])).toEqual([[calls[1]!.id, 'The content was successfully saved to a.txt.']])
  })
})

describe('interrupted call in the UI log (issue 14 point 4)', () => {
  it('a command asked, never answered, then resume_task: failed and marked interrupted, with no result', async () => {
    const { tempDir, writeJson } = await import('../../../../tests/builders/cline/test-helpers')
    const h = tempDir()
    const src = join(HOMES[0]!.home, HOMES[0]!.storage, 'tasks/1797000100000')
    const ui = (JSON.parse(readFileSync(join(src, 'ui_messages.json'), 'utf8')) as Record<string, unknown>[]).map(({ conversationHistoryIndex: _c, ...m }) => m)
    writeJson(join(h, HOMES[0]!.storage, 'tasks/1797000100000/ui_messages.json'), ui)
    const s = (await readHome(cline, h)).byId('1797000100000')
    // Raw: one `ask: command`, then `resume_task`, and no command_output anywhere.
    expect(ui.filter((m) => m.ask === 'command')).toHaveLength(1)
    expect(ui.some((m) => m.say === 'command_output')).toBe(false)
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => [c.name, c.status, c.metadata])).toEqual([['execute_command', 'failed', { interrupted: true }]])
    expect(s.nodes.some((n) => n.role === 'tool')).toBe(false)
  })
})
