/**
 * Cursor agent CLI reader over generated homes (fixtures-home.ts, fixtures-negative.ts; see
 * src/main/agents/cursor/FIXTURES.md): goldens and the values that matter.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { expectGolden } from '../../../../tests/helpers/golden'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { closeCursorSnapshots } from '../cursor'
import { tempHome } from '../../../../tests/builders/cursor/fixtures'
import { readGenerated, withoutHome } from '../../../../tests/builders/cursor/testing'
import { AGENT, writeAgentHome } from '../../../../tests/builders/cursor-agent/fixtures-home'
import { AGENT_NEG, writeAgentNegativeHome } from '../../../../tests/builders/cursor-agent/fixtures-negative'
import { cursorAgent } from './index'

const cleanups: (() => void)[] = []
afterAll(() => {
  closeCursorSnapshots()
  for (const c of cleanups) c()
})
function fresh(): string {
  const t = tempHome('sepia-cursor-agent-')
  cleanups.push(t.cleanup)
  return t.home
}

describe('cursor-agent: generated home', async () => {
  const home = fresh()
  writeAgentHome(home)
  const r = await readGenerated(cursorAgent, home)

  it('lists store, ACP, transcript and sub-agent sessions once each; IDE transcripts are left to the IDE reader', () => {
    expect(r.sessions.map((s) => [s.id, s.source.format])).toEqual([
      [AGENT.STORE, 'cursor-agent-store'],
      [AGENT.ACP, 'cursor-agent-store'],
      [AGENT.FLAT, 'cursor-agent-transcript'],
      [AGENT.NESTED, 'cursor-agent-transcript'],
      [AGENT.SUB, 'cursor-agent-subagent'],
    ])
    expect(r.discovery.map((d) => d.message)).toEqual(['1 transcript belongs to Cursor IDE chats and is read by the Cursor reader'])
    for (const s of r.sessions) expect(s.diagnostics).toEqual([])
  })

  it('matches the golden', () => {
    expectGolden('cursor-agent/home', withoutHome(r.sessions, home))
  })

  it('store session: DAG order, hidden context, thinking and seals, paired tools with durations, image, metadata', () => {
    const s = r.byId(AGENT.STORE)
    expect(summarize(s, home).firstPrompt).toBe('rename flags.ts to featureFlags.ts')
    expect(s.title).toBe('Rename flags module')
    expect(s.workingDirectory).toBe('/home/ana/src/ledgerlite')
    expect(s.model).toBe('claude-4.5-sonnet')
    expect(s.createdAt).toBe(1783737832293)
    expect(s.lastActivityAt).toBe(1783737933338)
    expect(s.promptHistory).toEqual(['rename flags.ts to featureFlags.ts', 'does this screenshot look right?'])
    expect(s.nodes.map((n) => [n.role, !!n.isMeta])).toEqual([
      ['system', true], ['user', true], ['user', false], ['assistant', false], ['tool', false], ['assistant', false], ['tool', false], ['user', false], ['assistant', false],
    ])
    expect(s.nodes[1]!.content).toMatch(/^<user_info>/)
    const a1 = s.nodes[3]!
    expect(a1.thinking).toBe('Use git mv so history follows.')
    expect(a1.thinkingSignature).toBe('sig-store-1')
    expect(a1.toolCalls![0]).toMatchObject({ id: 'toolu_01Xy', name: 'Shell', kind: 'execute', status: 'completed', durationMs: 41, exitCode: 0 })
    const a2 = s.nodes[5]!
    expect(a2.thinking).toBeUndefined()
    expect(a2.thinkingSignature).toBe('opaque-redacted-blob==')
    expect(a2.toolCalls![0]!.diffs).toEqual([{ path: '/home/ana/src/ledgerlite/src/app.ts', oldText: "from './flags'", newText: "from './featureFlags'" }])
    expect(countPairedToolCalls(s)).toEqual({ calls: 2, paired: 2 })
    const u2 = s.nodes[7]!
    expect(u2.content).toBe('does this screenshot look right?')
    expect(u2.metadata?.timestamp).toBe('Monday, Mar 2, 2026, 4:10 PM (UTC+1)')
    expect(u2.blocks?.[1]).toEqual({ type: 'image', mediaType: 'image/png', data: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64') })
    expect(s.nodes[8]!.content).toBe('Yes, the import now points at featureFlags. [REDACTED]')
    expect(s.nodes[8]!.createdAt).toBe(1783737900000)
    expect(JSON.stringify(s)).not.toContain('stale branch answer')
    expect(JSON.stringify(s)).not.toContain('bm90LWEtcmVhbC1rZXk')
    expect(s.metadata).toMatchObject({ mode: 'auto-run', clientTag: 'cli', encryptionKeysPresent: ['blobEncryptionKey'] })
  })

  it('ACP store: OpenAI-shaped calls, compaction marker, encrypted reasoning, v5 output', () => {
    const s = r.byId(AGENT.ACP)
    expect(s.workingDirectory).toBe('/home/ana/src/api')
    expect(s.title).toBe('CI lint')
    expect(countPairedToolCalls(s)).toEqual({ calls: 2, paired: 2 })
    expect(s.nodes.find((n) => n.event === 'compaction')?.content).toBe('Summary of the earlier conversation: CI fails on lint.')
    expect(s.nodes.find((n) => n.toolCalls?.[0]?.id === 'call_g1')?.thinkingSignature).toBe('gAAAA-encrypted')
    expect(s.nodes.find((n) => n.toolCallId === 'call_g1')?.content).toBe('package.json:12: "eslint": "^9"')
  })

  it('transcript-only sessions: no times per message, the file mtime as clock, project from .workspace-trusted', () => {
    const s = r.byId(AGENT.FLAT)
    expect(s.workingDirectory).toBe('/home/ana/src/ledgerlite')
    expect(s.metadata).toMatchObject({ clock: 'file-mtime', cwdSource: '.workspace-trusted', noToolResults: true, recordTypes: { error: 1, turn_ended: 1 } })
    expect(s.createdAt).toBe(1772464300000)
    expect(s.lastActivityAt).toBe(1772464300000)
    expect(s.nodes.every((n) => n.createdAt === undefined)).toBe(true)
    expect(s.nodes.map((n) => n.role)).toEqual(['user', 'assistant', 'system', 'user', 'assistant'])
    expect(s.nodes[2]).toMatchObject({ event: 'interrupted', content: 'Provider Error: upstream timeout' })
    expect(s.nodes[3]!.isMeta).toBe(true)
    expect(s.nodes[4]!.thinking).toBe('Add the flag next to --verbose.')
    expect(s.nodes[1]!.toolCalls!.map((c) => [c.name, c.kind])).toEqual([['Read', 'read'], ['Grep', 'search']])
  })

  it('nested transcript: meta.json clock and cwd; sub-agent linked to the Task call', () => {
    const p = r.byId(AGENT.NESTED)
    const c = r.byId(AGENT.SUB)
    expect(p.metadata.clock).toBe('meta.json')
    expect(p.workingDirectory).toBe('/home/ana/src/api')
    expect(p.createdAt).toBe(1772499000000)
    expect(p.childSessionIds).toEqual([AGENT.SUB])
    expect(c.parentSessionId).toBe(AGENT.NESTED)
    const task = p.nodes.flatMap((n) => n.toolCalls ?? []).find((x) => x.name === 'Task')!
    expect(task.subagentSessionId).toBe(AGENT.SUB)
    expect(c.parentToolCallId).toBe(task.id)
    expect(p.nodes.at(-1)).toMatchObject({ event: 'interrupted', content: 'aborted by user' })
  })
})

describe('cursor-agent: negative cases', async () => {
  const home = fresh()
  writeAgentNegativeHome(home)
  const r = await readGenerated(cursorAgent, home)
  const msgs = (id: string) => r.byId(id).diagnostics.map((d) => d.message)

  it('matches the golden', () => {
    expectGolden('cursor-agent/negative', withoutHome(r.sessions, home))
  })

  it('hasConversation:false without a store is not a session', () => {
    expect(r.sessions.map((s) => s.id)).toEqual([AGENT_NEG.PARTIAL, AGENT_NEG.NONHEX_FALLBACK, AGENT_NEG.NONHEX, AGENT_NEG.PLAINJSON, AGENT_NEG.NOTSQLITE])
  })

  it('partial store: stale branch hidden, missing blobs, cycle, weird role, binary leaf each reported; the rest loads', () => {
    const s = r.byId(AGENT_NEG.PARTIAL)
    expect(s.metadata.partial).toBe(true)
    expect(JSON.stringify(s)).not.toContain('STALE')
    const m = msgs(AGENT_NEG.PARTIAL)
    expect(m.filter((x) => x.includes('is missing'))).toHaveLength(2)
    expect(m.filter((x) => x.includes('cycle'))).toHaveLength(1)
    expect(m.filter((x) => x.includes('"weird"'))).toHaveLength(1)
    expect(m.filter((x) => x.includes('not JSON'))).toHaveLength(1)
    expect(s.nodes.find((n) => n.toolCallId === 'toolu_gone')?.metadata?.orphan).toBe(true)
    expect(s.nodes.at(-1)!.content).toBe('Cleaned.')
    expect(s.metadata.notebookBlobs).toBe(1)
  })

  it('non-hex meta: the transcript is read instead, or an error and no messages', () => {
    const f = r.byId(AGENT_NEG.NONHEX_FALLBACK)
    expect(f.source.format).toBe('cursor-agent-transcript')
    expect(f.nodes.map((n) => n.content)).toEqual(['hello from the transcript', 'hi'])
    expect(f.diagnostics.map((d) => d.severity)).toEqual(['error', 'info'])
    const n = r.byId(AGENT_NEG.NONHEX)
    expect(n.nodes).toEqual([])
    expect(msgs(AGENT_NEG.NONHEX)[0]).toMatch(/neither hex-encoded JSON nor JSON/)
    expect(r.byId(AGENT_NEG.PLAINJSON).nodes.map((x) => x.content)).toEqual(['hello', 'hi'])
    expect(msgs(AGENT_NEG.NOTSQLITE)[0]).toMatch(/cannot be opened/)
  })
})
