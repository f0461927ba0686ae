/**
 * Letta Code conversations the real CLI wrote (fixtures/real/letta-code, Letta Code 0.32.8, local
 * backend, see its README). Every count is taken from an independent reading of the raw JSONL and
 * conversation.json here, never from Sepia: messages by role, prompts (user text outside the
 * `<system-reminder>` blocks), toolCall ids paired with toolResult ids, failed commands (`Exit
 * code: N` with N ≠ 0), thinking blocks, usage summed from the assistant messages.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { conversationKeyOfFolder } from './discover'
import { lettaCode } from '.'

const HOME = join(REPO_ROOT, 'fixtures', 'real', 'letta-code', 'home')
const CONVS = join(HOME, '.letta', 'lc-local-backend', 'conversations')
/** Folders with a non-empty messages.jsonl (the default conversation of the agent was never used). */
const DIRS = readdirSync(CONVS).filter((d) => {
  try {
    return readFileSync(join(CONVS, d, 'messages.jsonl'), 'utf8').trim() !== ''
  } catch {
    return false
  }
}).sort()

function raw(dir: string) {
  const lines = readFileSync(join(CONVS, dir, 'messages.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, any>)
  const conv = JSON.parse(readFileSync(join(CONVS, dir, 'conversation.json'), 'utf8'))
  const header = lines[0]!
  const msgs = lines.filter((e) => e.type === 'message').map((e) => e.message as Record<string, any>)
  const texts = (m: Record<string, any>) => (m.content as any[]).filter((b) => b.type === 'text').map((b) => b.text as string)
  const asst = msgs.filter((m) => m.role === 'assistant')
  const callIds = asst.flatMap((m) => (m.content as any[]).filter((b) => b.type === 'toolCall').map((b) => b.id as string))
  const results = msgs.filter((m) => m.role === 'toolResult')
  return {
    id: conv.id as string,
    conv,
    header,
    prompts: msgs.filter((m) => m.role === 'user').map((m) => texts(m).filter((t) => !t.startsWith('<system-reminder>')).join('\n\n')),
    reminders: msgs.filter((m) => m.role === 'user').map((m) => texts(m).filter((t) => t.startsWith('<system-reminder>')).length),
    texts: asst.map((m) => texts(m).join('\n\n')),
    calls: callIds.length,
    paired: callIds.filter((id) => results.some((r) => r.toolCallId === id)).length,
    failed: results.filter((r) => r.isError === true || /^Exit code: [1-9]/m.test(texts(r).join('\n'))).length,
    thinking: asst.filter((m) => (m.content as any[]).some((b) => b.type === 'thinking')).length,
    input: asst.reduce((a, m) => a + m.usage.input, 0),
    output: asst.reduce((a, m) => a + m.usage.output, 0),
    firstAt: Date.parse(header.timestamp),
    model: asst[0]?.model as string | undefined,
  }
}

describe('letta-code real conversations', () => {
  it('sepia list shows both conversations from the fixture home', async () => {
    const r = await runCli('list', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const listed = JSON.parse(r.out).sessions.filter((s: { agent: string }) => s.agent === 'letta-code')
    expect(listed.map((s: { id: string }) => s.id).sort()).toEqual(DIRS.map((d) => raw(d).id).sort())
  })

  it('every conversation folder name is the base64url of its key', () => {
    for (const d of readdirSync(CONVS)) {
      const conv = JSON.parse(readFileSync(join(CONVS, d, 'conversation.json'), 'utf8'))
      expect(conversationKeyOfFolder(d)).toBe(conv.id === 'default' ? `default:${conv.agent_id}` : `conversation:${conv.id}`)
    }
  })

  for (const dir of DIRS) {
    it(`${raw(dir).id}: cwd, prompts, assistant text, tool pairs, failures, thinking, usage and times equal the raw files`, async () => {
      const t = raw(dir)
      const s = (await readHomeOf(lettaCode, HOME)).byId(t.id)
      expect(s.source.files).toEqual(['messages.jsonl', 'conversation.json', 'manifest.json'].map((f) => join(CONVS, dir, f)))
      expect(s.diagnostics).toEqual([])
      expect(s.workingDirectory).toBe(t.header.cwd)
      expect(s.createdAt).toBe(t.firstAt)
      expect(s.lastActivityAt).toBe(Date.parse(t.conv.last_message_at))
      expect(s.model).toBe(t.model)
      expect(s.metadata.lettaAgentId).toBe(t.conv.agent_id)
      expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)).toEqual(t.prompts)
      expect(s.nodes.filter((n) => n.role === 'user').map((n) => ((n.metadata?.systemReminders as unknown[]) ?? []).length)).toEqual(t.reminders)
      expect(s.nodes.filter((n) => n.role === 'assistant').map((n) => n.content)).toEqual(t.texts)
      expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
      expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(t.failed)
      expect(s.nodes.filter((n) => n.thinking)).toHaveLength(t.thinking)
      const sum = s.nodes.reduce((a, n) => ({ i: a.i + (n.usage?.inputTokens ?? 0), o: a.o + (n.usage?.outputTokens ?? 0) }), { i: 0, o: 0 })
      expect(sum).toEqual({ i: t.input, o: t.output })
      expectGolden(`letta-code/${t.id}`, s)
    })
  }

  it('the tools conversation: the Write and Edit changes, the failed command with its exit code, the resumed turn in the same file', async () => {
    const s = (await readHomeOf(lettaCode, HOME)).byId('local-conv-1')
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => [c.name, c.kind])).toEqual([['Bash', 'execute'], ['Write', 'edit'], ['Edit', 'edit'], ['Bash', 'execute'], ['Read', 'read']])
    expect(calls.find((c) => c.name === 'Edit')).toMatchObject({ status: 'completed', diffs: [{ path: '/home/pat/src/todo-cli/NOTES.md', oldText: 'TODO: first line', newText: 'DONE: first line' }] })
    expect(calls.find((c) => c.name === 'Write')?.diffs).toEqual([{ path: '/home/pat/src/todo-cli/NOTES.md', newText: '# Notes\nTODO: first line\n' }])
    expect(calls.filter((c) => c.name === 'Bash').map((c) => [c.status, c.exitCode])).toEqual([['completed', undefined], ['failed', 1]])
    expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content.slice(0, 8))).toEqual(['[tools] ', '[resume]'])
  })

  it('a line cut short and an entry of an unknown type are diagnostics naming file and line; a legacy (schema 1) transcript reads too', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-letta-'))
    cpSync(HOME, home, { recursive: true })
    const convs = join(home, '.letta', 'lc-local-backend', 'conversations')
    const dir = DIRS.find((d) => raw(d).id === 'local-conv-1')!
    const file = join(convs, dir, 'messages.jsonl')
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
    lines.splice(3, 0, JSON.stringify({ type: 'branch_marker', id: 'zz', parentId: null, timestamp: '2026-12-02T15:53:21.000Z' }))
    lines.push(lines.at(-1)!.slice(0, 60))
    writeFileSync(file, lines.join('\n') + '\n')
    // The other conversation as a schema 1 transcript: bare messages, manifest says pi-ai-message-jsonl.
    const other = DIRS.find((d) => d !== dir)!
    const otherFile = join(convs, other, 'messages.jsonl')
    const bare = readFileSync(otherFile, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'message').map((e) => JSON.stringify(e.message))
    writeFileSync(otherFile, bare.join('\n') + '\n')
    writeFileSync(join(convs, other, 'manifest.json'), JSON.stringify({ schema_version: 1, message_format: 'pi-ai-message-jsonl', provider_stack: 'pi-ai' }))
    const h = await readHomeOf(lettaCode, home)
    const s = h.byId('local-conv-1')
    expect(s.diagnostics.map((d) => [d.path, d.line, d.severity])).toEqual([[file, 4, 'info'], [file, lines.length, 'warning']])
    expect(s.nodes.filter((n) => n.event === 'unknown-event')).toHaveLength(1)
    const legacy = h.byId(raw(other).id)
    expect(legacy.diagnostics).toEqual([])
    expect(legacy.nodes.map((n) => n.role)).toEqual(['user', 'assistant'])
    expect(legacy.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(raw(other).prompts)
  })
})
