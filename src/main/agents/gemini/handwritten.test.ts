/**
 * The 5 hand-written Gemini CLI sessions (fixtures/real/gemini/handwritten, with what the real
 * CLI 0.61.0 did with each in results.json) and the public sample files (fixtures/public/gemini).
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { REPO_ROOT, expectGolden } from '../../../../tests/helpers/golden'
import type { StoreRef } from '../types'
import { sniffSessionId } from './discover'
import { gemini } from './index'
import { parseSavedChat } from './project'
import { readHome, testContext } from '../../../../tests/builders/gemini/testing'

const ROOT = join(REPO_ROOT, 'fixtures', 'real', 'gemini', 'handwritten')
const results = JSON.parse(readFileSync(join(ROOT, 'results.json'), 'utf8')) as { results: { folder: string; session_id: string; listed: boolean }[] }

/** Expected shape per variant (default: user, assistant; no diagnostics; cwd from projects.json). */
const WANT: Record<string, { roles?: string; paired?: number; diagnostics?: [number | undefined, string][]; id?: string; cwd?: string | null; format?: string }> = {
  '01-same-with-a-run-shell-command-toolcall-and-its-result': { roles: 'user,assistant,tool,assistant', paired: 1 },
  '02-without-projects-json-and-project-root': { cwd: null },
  '03-no-header-line': { id: 'session-2026-11-30T06-49-65d9eac5', diagnostics: [[1, 'warning']] },
  '04-legacy-single-object-session-json': { format: 'gemini-json' },
}

describe('gemini hand-written variants', () => {
  const folders = readdirSync(ROOT).filter((d) => /^\d\d-/.test(d)).sort()

  it('has all 5 variants', () => {
    expect(folders).toHaveLength(5)
  })

  it.each(folders)('%s reads with the expected messages', async (folder) => {
    const want = WANT[folder] ?? {}
    const home = await readHome(join(ROOT, folder, 'home'))
    expect(home.diagnostics).toEqual([])
    expect(home.sessions).toHaveLength(1)
    const s = home.sessions[0]!
    const listed = results.results.find((r) => r.folder === folder)!
    expect(s.id).toBe(want.id ?? listed.session_id)
    expect(s.source.format).toBe(want.format ?? 'gemini-jsonl')
    expect(s.nodes.map((n) => n.role).join(',')).toBe(want.roles ?? 'user,assistant')
    expect(s.nodes[0]!.content).toBe('HANDWRITTEN-USER: please list the files')
    expect(s.nodes[s.nodes.length - 1]!.content).toBe('HANDWRITTEN-ASSISTANT: there is one file, README.md.')
    expect(s.nodes[s.nodes.length - 1]!.model).toBe('gemini-2.5-flash')
    const calls = want.paired ?? 0
    expect(countPairedToolCalls(s)).toEqual({ calls, paired: calls })
    expect(s.diagnostics.map((d) => [d.line, d.severity])).toEqual(want.diagnostics ?? [])
    if (want.cwd === null) expect(s.workingDirectory).toBeUndefined()
    else expect(s.workingDirectory).toBe('/home/ana/src/notes-app')
    expect(summarize(s, ROOT).messageCount).toBe(want.paired ? 3 : 2)
  })

  it('the tool variant keeps the result text and the shell call', async () => {
    const s = (await readHome(join(ROOT, '01-same-with-a-run-shell-command-toolcall-and-its-result', 'home'))).sessions[0]!
    const call = s.nodes[1]!.toolCalls![0]!
    expect(call).toMatchObject({ id: 'run_shell_command_hand_1', name: 'run_shell_command', kind: 'execute', arguments: { command: 'ls' }, status: 'completed' })
    expect(s.nodes[2]).toMatchObject({ role: 'tool', toolCallId: call.id, content: 'HANDWRITTEN-TOOL-OUTPUT: README.md' })
  })
})

/** A ref for a loose sample file, with the id its header declares. */
async function sampleRef(name: string): Promise<StoreRef> {
  const path = join(REPO_ROOT, 'fixtures', 'public', 'gemini', name)
  const id = (await sniffSessionId(path))!
  return { agent: 'gemini', sessionId: id, format: name.endsWith('.json') ? 'gemini-json' : 'gemini-jsonl', files: [path], size: 0, mtimeMs: 0, home: '/' }
}

describe('gemini public samples', () => {
  it('agentsview legacy .json: thoughts and two tool calls with nested functionResponse results', async () => {
    const s = await gemini.read(await sampleRef('kenn-io__agentsview__tool_calls_with_results.json'), testContext)
    expect(s.id).toBe('sess-uuid-tool-results')
    expect(s.diagnostics).toEqual([])
    expect(s.nodes.map((n) => n.role)).toEqual(['user', 'assistant', 'tool', 'tool'])
    expect(s.nodes[1]!.thinking).toBe('**Planning**\nI need to read the planning document.')
    expect(s.nodes[1]!.toolCalls!.map((c) => [c.name, c.kind, c.status])).toEqual([
      ['read_file', 'read', 'completed'],
      ['run_command', 'other', 'completed'],
    ])
    expect(s.nodes[2]!.content).toBe('# Agentstrove -- One-Pager\n\nDraft: 2026-03-04')
    expect(countPairedToolCalls(s)).toEqual({ calls: 2, paired: 2 })
    expect(s.model).toBe('gemini-2.5-pro')
    expect(s.createdAt).toBe(Date.parse('2024-01-01T10:00:00Z'))
    expectGolden('gemini/public-agentsview-tool-calls', s)
  })

  it('deja-vu JSONL: the whole transcript in one $set messages snapshot', async () => {
    const s = await gemini.read(await sampleRef('vshulcz__deja-vu__session-set-snapshot.jsonl'), testContext)
    expect(s.id).toBe('reg-gem-set-001')
    expect(s.diagnostics).toEqual([])
    expect(s.nodes.map((n) => [n.role, n.content])).toEqual([
      ['user', 'gemini set-snapshot conformance question'],
      ['assistant', 'gemini set-snapshot conformance answer'],
    ])
    expect(s.nodes[1]!.model).toBe('gemini-2.5-pro')
    expect(s.nodes[1]!.parentNodeId).toBe('m1')
    expectGolden('gemini/public-deja-vu-set-snapshot', s)
  })

  it('agenttrace checkpoint: a saved chat, summarised (not a session)', () => {
    const text = readFileSync(join(REPO_ROOT, 'fixtures', 'public', 'gemini', 'luoyuctl__agenttrace__gemini-checkpoint.json'), 'utf8')
    expect(parseSavedChat('t', text)).toEqual({ tag: 't', turns: 2, firstUserText: 'Resume this checkpoint.' })
    expect(parseSavedChat('bare', JSON.stringify([{ role: 'user', parts: [{ text: 'hi' }] }]))).toEqual({ tag: 'bare', turns: 1, firstUserText: 'hi' })
    expect(parseSavedChat('x', '{"nope": 1}')).toBeUndefined()
  })
})
