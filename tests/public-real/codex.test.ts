/**
 * Issue 14 points 8 and 9 on real Codex rollouts (fixtures/public-real/codex, see its SOURCES.md):
 * for every rollout, Sepia's reading is compared with an independent reading of the raw JSONL
 * written here (typed prompts, assistant texts, tool calls by call id, results paired by call id,
 * usage totals); `sepia usage` equals the session totals `sepia list` shows; titles and Markdown
 * carry no injected markup. An outline golden per rollout (fixtures/goldens/codex/public-real-*)
 * covers each class of record.
 *
 * Raw facts used (codex-rs `protocol/src/protocol.rs`, `models.rs`): `event_msg user_message`
 * is what the person submitted (injected context is written only as `response_item` user
 * messages); the VS Code / Desktop wrapper puts the person's words after `## My request for
 * Codex:`; `token_count.info.total_token_usage` is the thread's running total (`input_tokens`
 * includes cached input).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { codex } from '../../src/main/agents/codex'
import { createApi } from '../../src/main/api'
import { findAppRoot } from '../../src/main/context'
import { sessionToMarkdown } from '../../src/main/export/markdown'
import type { MessageNode, Session } from '../../src/shared/ir'
import { expectGolden } from '../helpers/golden'
import { readAgentHome } from '../helpers/read-home'

const ROOT = findAppRoot()
const BASE = join(ROOT, 'fixtures/public-real/codex')
const CASES = readdirSync(BASE).filter((c) => statSync(join(BASE, c)).isDirectory()).sort()
const tmp = mkdtempSync(join(tmpdir(), 'sepia-pr-codex-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

type J = Record<string, any>

/** Every `rollout-*.jsonl` under a folder. */
function rolloutFiles(dir: string): string[] {
  const out: string[] = []
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(...rolloutFiles(p))
    else if (/^rollout-.*\.jsonl$/.test(e.name)) out.push(p)
  }
  return out.sort()
}

/** The raw lines of a rollout (lines that are not JSON objects are left out). */
function rawLines(file: string): J[] {
  const out: J[] = []
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (!text.trim()) continue
    try {
      const v = JSON.parse(text)
      if (v && typeof v === 'object') out.push(v)
    } catch {
      // not JSON: Sepia reports it; the truth skips it
    }
  }
  return out
}

const itemText = (content: unknown): string =>
  (Array.isArray(content) ? content : [])
    .filter((c: J) => typeof c?.text === 'string' && ['input_text', 'output_text', 'text'].includes(c.type))
    .map((c: J) => c.text as string)
    .filter((t) => t !== '')
    .join('\n\n')

/** What the raw file says, read here without Sepia. */
interface Truth {
  id: string
  prompts: string[]
  assistantText: string
  callIds: string[]
  pairedIds: string[]
  unanswered: number
  /** Last running total: input incl. cached, output. */
  usage?: { input: number; output: number }
  parentThreadId?: string
}

function truthOf(file: string): Truth {
  const lines = rawLines(file)
  const meta = lines.find((l) => l.type === 'session_meta')?.payload ?? {}
  const prompts: string[] = []
  let previous: J | undefined
  const texts: string[] = []
  const calls: string[] = []
  const outputs: string[] = []
  let usage: Truth['usage']
  for (const l of lines) {
    const p = l.payload ?? {}
    if (l.type === 'event_msg' && p.type === 'user_message') {
      const text: string = p.message ?? ''
      // Codex 0.144 writes a review prompt's event twice on adjacent lines: one submission.
      const repeat = previous?.type === 'event_msg' && previous.payload?.type === 'user_message' && previous.payload.message === text
      const cut = text.indexOf('## My request for Codex:')
      const words = (cut === -1 ? text : text.slice(cut + '## My request for Codex:'.length)).trim()
      if (!repeat && words !== '') prompts.push(words)
    }
    if (l.type === 'response_item' && p.type === 'message' && p.role === 'assistant') {
      const t = itemText(p.content)
      if (t !== '') texts.push(t)
    }
    if (l.type === 'response_item' && ['function_call', 'custom_tool_call', 'local_shell_call'].includes(p.type)) calls.push(p.call_id ?? p.id)
    if (l.type === 'response_item' && ['function_call_output', 'custom_tool_call_output'].includes(p.type)) outputs.push(p.call_id)
    if (l.type === 'event_msg' && p.type === 'token_count' && p.info?.total_token_usage) {
      const t = p.info.total_token_usage
      usage = { input: t.input_tokens, output: t.output_tokens }
    }
    previous = l
  }
  const callSet = new Set(calls)
  const paired = outputs.filter((id) => callSet.has(id))
  const answered = new Set(paired)
  const truth: Truth = {
    id: meta.id,
    prompts,
    assistantText: texts.join('\n\n'),
    callIds: [...calls].sort(),
    pairedIds: [...paired].sort(),
    unanswered: calls.filter((id) => !answered.has(id)).length,
  }
  if (usage) truth.usage = usage
  if (typeof meta.parent_thread_id === 'string') truth.parentThreadId = meta.parent_thread_id
  return truth
}

/** Markup Codex injects; none of it may reach a title or the Markdown of the conversation. */
const INJECTED_MARKUP = ['<environment_context>', '<user_instructions>', '# AGENTS.md instructions', '# Context from my IDE setup', '# Files mentioned by the user', '<subagent_notification>', '<user_action>', '<recommended_plugins>', '<turn_aborted>']

/** A small projection of a session for the outline goldens. */
function outline(s: Session): unknown {
  const cut = (t: string) => (t.length > 100 ? `${t.slice(0, 100)}…` : t)
  return {
    id: s.id,
    title: s.title,
    parentSessionId: s.parentSessionId,
    usage: s.usage,
    nodes: s.nodes.map((n: MessageNode) => {
      const o: J = { role: n.role }
      if (n.event) o.event = n.event
      if (n.isMeta) o.isMeta = true
      if (n.metadata?.injected) o.injected = n.metadata.injected
      if (n.content) o.content = cut(n.content)
      if (n.thinking) o.thinking = n.thinking.length
      if (n.toolCalls?.length) o.calls = n.toolCalls.map((c) => c.name)
      if (n.toolCallId) o.toolCallId = n.toolCallId
      if (n.usage) o.usage = n.usage
      return o
    }),
  }
}

describe('Codex on real public rollouts (issue 14 points 8 and 9)', () => {
  for (const c of CASES) {
    const home = join(BASE, c, 'home')
    it(`${c}: counts equal an independent reading of every rollout`, async () => {
      const { sessions } = await readAgentHome(codex, home)
      const files = rolloutFiles(home)
      expect(sessions.length).toBe(files.length)
      for (const file of files) {
        const truth = truthOf(file)
        const s = sessions.find((x) => x.source?.files?.[0] === file || x.id === truth.id)!
        expect(s, file).toBeDefined()
        const label = `${c} ${truth.id}`
        const prompts = s.nodes.filter((n) => n.role === 'user' && !n.isMeta && !n.event && n.content.trim() !== '').map((n) => n.content.trim())
        expect(prompts, label).toEqual(truth.prompts)
        const assistant = s.nodes.filter((n) => n.role === 'assistant' && n.content !== '').map((n) => n.content).join('\n\n')
        expect(assistant, label).toBe(truth.assistantText)
        const calls = s.nodes.flatMap((n) => n.toolCalls ?? []).filter((x) => !['web_search', 'tool_search', 'image_generation'].includes(x.name))
        expect(calls.map((x) => x.id).sort(), label).toEqual(truth.callIds)
        const callIds = new Set(calls.map((x) => x.id))
        const results = s.nodes.filter((n) => n.role === 'tool' && n.toolCallId !== undefined && callIds.has(n.toolCallId))
        expect(results.map((n) => n.toolCallId).sort(), label).toEqual(truth.pairedIds)
        const answered = new Set(results.map((n) => n.toolCallId))
        expect(calls.filter((x) => !answered.has(x.id)).length, label).toBe(truth.unanswered)
        if (truth.usage) {
          const u = s.usage ?? {}
          expect((u.inputTokens ?? 0) + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0), label).toBe(truth.usage.input)
          expect(u.outputTokens ?? 0, label).toBe(truth.usage.output)
          // Every token_count reached a message: the messages' usage adds up to the session's.
          const sum = s.nodes.reduce((k, n) => k + (n.usage?.inputTokens ?? 0) + (n.usage?.cacheReadTokens ?? 0) + (n.usage?.cacheWriteTokens ?? 0), 0)
          expect(sum, label).toBe(truth.usage.input)
        } else expect(s.usage, label).toBeUndefined()
        if (truth.parentThreadId) expect(s.parentSessionId, label).toBe(truth.parentThreadId)
        for (const m of INJECTED_MARKUP) {
          expect(s.title ?? '', label).not.toContain(m)
          for (const p of prompts) expect(p.startsWith(m), `${label} prompt starts with ${m}`).toBe(false)
        }
        const md = sessionToMarkdown(s)
        for (const m of INJECTED_MARKUP.filter((x) => x.startsWith('<'))) expect(md.includes(m), `${label} Markdown has ${m}`).toBe(false)
        expectGolden(`codex/public-real-${c}-${truth.id.slice(0, 8)}`, outline(s))
      }
    })

    it(`${c}: sepia usage equals the session totals sepia list shows`, async () => {
      const dataDir = mkdtempSync(join(tmp, 'data-'))
      const api = createApi({ mode: 'browser', version: 'test', platform: 'linux', homes: [home], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: home, appDataDir: dataDir, now: () => 1_800_000_000_000 })
      const lib = await api.getLibrary()
      await api.library.whenIdle()
      const report = await api.getUsage({ by: 'session', timeZone: 'UTC' })
      const codexSessions = lib.sessions.filter((s) => s.agent === 'codex')
      expect(codexSessions.length).toBe(rolloutFiles(home).length)
      for (const s of codexSessions) {
        const rows = report.rows.filter((r) => r.key.includes(s.id))
        const input = rows.reduce((k, r) => k + r.inputTokens, 0)
        const output = rows.reduce((k, r) => k + r.outputTokens, 0)
        const cache = rows.reduce((k, r) => k + r.cacheReadTokens, 0)
        expect({ id: s.id, input, output, cache }).toEqual({ id: s.id, input: s.usage?.inputTokens ?? 0, output: s.usage?.outputTokens ?? 0, cache: s.usage?.cacheReadTokens ?? 0 })
      }
    })
  }
})
