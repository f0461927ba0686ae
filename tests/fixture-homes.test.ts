/**
 * Issue 4: the app lists and shows the Cursor IDE, Cursor agent CLI and Devin CLI sessions of the
 * committed homes `fixtures/generated/<name>/home` (scripts/make-fixture-homes.ts), opened through
 * `createApi` as the app does (issue 17: only the clean Cursor IDE home is also in the demo): projects, tool calls with status, thinking, usage, sub-agents under their parents; every
 * negative case is a diagnostic naming its file (and row, blob or node) while the other sessions
 * of that store load.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Library } from '../src/shared/api'
import type { Session } from '../src/shared/ir'
import { createApi, type SepiaService } from '../src/main/api'
import { demoHomes, findAppRoot } from '../src/main/context'
import { MODERN } from './builders/cursor/fixtures-modern'
import { NEG } from './builders/cursor/fixtures-negative'
import { OLD } from './builders/cursor/fixtures-old'
import { AGENT } from './builders/cursor-agent/fixtures-home'
import { AGENT_NEG } from './builders/cursor-agent/fixtures-negative'

const ROOT = findAppRoot()
const GEN = join(ROOT, 'fixtures', 'generated')
const savedDataDir = process.env.SEPIA_DATA_DIR
let api: SepiaService
let lib: Library

beforeAll(async () => {
  const data = mkdtempSync(join(tmpdir(), 'sepia-fixture-homes-data-'))
  process.env.SEPIA_DATA_DIR = data
  const own = mkdtempSync(join(tmpdir(), 'sepia-empty-home-'))
  const homes = ['cursor-agent', 'cursor-negative', 'cursor', 'devin'].map((n) => join(GEN, n, 'home'))
  api = createApi({ mode: 'browser', version: '0.0.0-test', platform: 'linux', homes, fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: own, appDataDir: data, now: () => 1_800_000_000_000 })
  lib = await api.getLibrary()
})
afterAll(async () => {
  await api?.library.close()
  if (savedDataDir === undefined) delete process.env.SEPIA_DATA_DIR
  else process.env.SEPIA_DATA_DIR = savedDataDir
})

const listed = (agent: string, home: string) => lib.sessions.filter((s) => s.agent === agent && s.home === join(GEN, home, 'home'))
const summary = (agent: string, id: string) => lib.sessions.find((s) => s.agent === agent && s.id === id)
const diag = (file: RegExp, text: string) => lib.diagnostics.filter((d) => d.path !== undefined && file.test(d.path) && d.message.includes(text))
const calls = (s: Session) => s.nodes.flatMap((n) => n.toolCalls ?? [])

describe('the generated homes', () => {
  it('opens the generated homes; only the clean Cursor IDE home is a demo home', () => {
    expect(demoHomes(join(ROOT, 'fixtures')).filter((h) => h.startsWith(GEN))).toEqual([join(GEN, 'cursor', 'home')])
    expect(lib.homes.filter((h) => h.path.startsWith(GEN)).map((h) => [h.path.slice(GEN.length + 1), h.isDemo])).toEqual([
      ['cursor-agent/home', false], ['cursor-negative/home', false], ['cursor/home', false], ['devin/home', false],
    ])
  })

  it('lists Cursor IDE, Cursor agent CLI and Devin sessions with their projects', () => {
    expect(listed('cursor', 'cursor').map((s) => s.id).sort()).toEqual([...Object.values(MODERN), OLD.inline1, OLD.inline2, OLD.tab1, OLD.tab2, OLD.tab3, OLD.wsComposer].sort())
    expect(summary('cursor', MODERN.A)).toMatchObject({ title: 'Tidy the CSV importer', workingDirectory: '/home/ana/src/ledgerlite' })
    expect(summary('cursor', MODERN.B)?.workingDirectory).toBe('c:\\Users\\ana\\src\\tidepool')
    expect(summary('cursor', OLD.tab1)).toMatchObject({ title: 'Fix flaky date parser', workingDirectory: '/home/ana/src/dateparse' })
    expect(listed('cursor-agent', 'cursor-agent').map((s) => s.id).sort()).toEqual(
      [AGENT.STORE, AGENT.ACP, AGENT.FLAT, AGENT.NESTED, AGENT.SUB, AGENT_NEG.PARTIAL, AGENT_NEG.NONHEX_FALLBACK, AGENT_NEG.NONHEX, AGENT_NEG.PLAINJSON, AGENT_NEG.NOTSQLITE].sort(),
    )
    expect(summary('cursor-agent', AGENT.STORE)).toMatchObject({ title: 'Rename flags module', workingDirectory: '/home/ana/src/ledgerlite' })
    expect(summary('cursor-agent', AGENT.ACP)?.workingDirectory).toBe('/home/ana/src/api')
    // The transcript owned by an IDE composer is the Cursor IDE reader's (one IDE session in this home).
    expect(listed('cursor', 'cursor-agent').map((s) => s.id)).toEqual([AGENT.IDE])
    expect(listed('devin', 'devin').map((s) => s.id).sort()).toEqual(['amber-falcon', 'lost-lantern', 'pale-moon', 'quiet-harbor', 'quiet-harbor/sidekick', 'still-river'])
    expect(summary('devin', 'quiet-harbor')).toMatchObject({ title: 'Add a --dry-run flag', workingDirectory: '/home/ana/src/ledgerlite', model: 'swe-2-high' })
  })

  it('Cursor IDE: tool call with status, thinking, usage; sub-composer and task sub-agent under their parent', async () => {
    const a = await api.getSession('cursor', MODERN.A)
    expect(calls(a)[0]).toMatchObject({ id: 'toolu_01Ab', name: 'edit_file', status: 'completed' })
    expect(a.nodes.find((n) => n.thinking)?.thinking).toBe('The loop should continue on empty lines.')
    expect(a.nodes.find((n) => n.usage)?.usage).toEqual({ inputTokens: 18120, outputTokens: 130 })
    expect(summary('cursor', MODERN.task)?.parentSessionId).toBe(MODERN.E)
    expect(summary('cursor', MODERN.F)?.parentSessionId).toBe(MODERN.E)
    expect(summary('cursor', MODERN.E)?.childSessionIds?.slice().sort()).toEqual([MODERN.F, MODERN.task].sort())
    const task = await api.getSession('cursor', MODERN.task)
    expect(task.nodes.map((n) => n.content)).toEqual(['List every caller of parse_row', 'Found 3 callers in importer.py.'])
  })

  it('Cursor agent CLI: tool calls with status, reasoning; sub-agent transcript under its parent; no usage in this format', async () => {
    const s = await api.getSession('cursor-agent', AGENT.STORE)
    expect(calls(s).map((c) => [c.name, c.status])).toEqual([['Shell', 'completed'], ['StrReplace', 'completed']])
    expect(s.nodes.find((n) => n.thinking)?.thinking).toBe('Use git mv so history follows.')
    // §B3: no message of a Cursor agent store carries token usage.
    expect(s.nodes.some((n) => n.usage)).toBe(false)
    expect(summary('cursor-agent', AGENT.SUB)?.parentSessionId).toBe(AGENT.NESTED)
    expect(summary('cursor-agent', AGENT.NESTED)?.childSessionIds).toEqual([AGENT.SUB])
  })

  it('Devin: tool calls with status (one failed), thinking, usage; the sidekick sub-agent under quiet-harbor', async () => {
    const s = await api.getSession('devin', 'quiet-harbor')
    const statuses = calls(s).map((c) => [c.name, c.status])
    expect(statuses).toContainEqual(['exec', 'failed'])
    expect(statuses).toContainEqual(['edit', 'completed'])
    expect(statuses).toContainEqual(['run_subagent', 'completed'])
    expect(s.nodes.find((n) => n.thinking)?.thinking).toBe('Need to find argparse setup.')
    expect(s.nodes.find((n) => n.usage)?.usage?.inputTokens).toBe(512)
    expect(summary('devin', 'quiet-harbor/sidekick')?.parentSessionId).toBe('quiet-harbor')
    expect(summary('devin', 'quiet-harbor')?.childSessionIds).toEqual(['quiet-harbor/sidekick'])
  })
})

describe('demo library: each negative case is a diagnostic and the rest of its store loads', () => {
  const GLOBAL = /generated\/cursor-negative\/home\/\.config\/Cursor\/User\/globalStorage\/state\.vscdb$/

  it('Cursor IDE negative store: bad composer rows, bubbles, headers and workspace files', async () => {
    expect(diag(GLOBAL, `"composerData:${NEG.nullComposer}": value is NULL`)).toHaveLength(1)
    expect(diag(GLOBAL, `"composerData:${NEG.badComposer}": value is not JSON`)).toHaveLength(1)
    expect(diag(GLOBAL, 'ItemTable row "composer.composerHeaders"')).toHaveLength(1)
    expect(diag(/f00d0000000000000000000000000002\/workspace\.json$/, 'workspace.json is not a JSON object')).toHaveLength(1)
    const bubble = (n: number) => `"bubbleId:${NEG.main}:9a000000-0000-4000-8000-${String(n).padStart(12, '0')}"`
    expect(diag(GLOBAL, `${bubble(2)}: value is NULL`)).toHaveLength(1)
    expect(diag(GLOBAL, `${bubble(5)}: value is a 6-byte BLOB that is not JSON`)).toHaveLength(1)
    expect(diag(GLOBAL, `${bubble(6)}: value is not JSON`)).toHaveLength(1)
    expect(diag(GLOBAL, 'header 3 of composer').map((d) => d.sessionId)).toEqual([NEG.main])
    // The rest loads: both readable composers, the good bubbles of the messy one, in order.
    expect(listed('cursor', 'cursor-negative').map((s) => s.id).sort()).toEqual([NEG.main, NEG.blobComposer].sort())
    const main = await api.getSession('cursor', NEG.main)
    expect(main.nodes.map((n) => n.content)).toEqual(['Clean up the rows', 'Stored as a BLOB.', 'Python-literal bubble', 'Cleaned.'])
    expect(main.diagnostics.filter((d) => d.severity === 'info').map((d) => d.message)).toEqual(
      expect.arrayContaining([expect.stringContaining('stored as a BLOB'), expect.stringContaining('python-literal'), expect.stringContaining('not in its header list')]),
    )
    expect((await api.getSession('cursor', NEG.blobComposer)).nodes.map((n) => n.content)).toEqual(['hello from a blob', 'hi'])
  })

  it('Cursor agent CLI negative cases: missing blobs, cycle, unknown role, bad meta, not SQLite', async () => {
    const store = (id: string) => new RegExp(`generated/cursor-agent/home/\\.cursor/chats/[0-9a-f]{32}/${id}/store\\.db$`)
    expect(diag(store(AGENT_NEG.PARTIAL), `tree blob ${'ab'.repeat(32)} is missing`)).toHaveLength(1)
    expect(diag(store(AGENT_NEG.PARTIAL), `message blob ${'cd'.repeat(32)} is missing`)).toHaveLength(1)
    expect(diag(store(AGENT_NEG.PARTIAL), `tree blob ${'ef'.repeat(32)} refers back to itself (cycle)`)).toHaveLength(1)
    expect(diag(store(AGENT_NEG.PARTIAL), 'role "weird"')).toHaveLength(1)
    expect(diag(store(AGENT_NEG.PARTIAL), 'not JSON; skipped')).toHaveLength(1)
    expect(diag(store(AGENT_NEG.NONHEX), "meta['0'] is neither hex-encoded JSON nor JSON")).toHaveLength(1)
    expect(diag(store(AGENT_NEG.NOTSQLITE), 'store.db cannot be opened')).toHaveLength(1)
    // The rest of the store loads: the partial session keeps its good messages; a transcript stands in for bad meta.
    const partial = await api.getSession('cursor-agent', AGENT_NEG.PARTIAL)
    expect(partial.nodes.filter((n) => n.role !== 'system').map((n) => n.content)).toContain('Cleaned.')
    expect(JSON.stringify(partial)).not.toContain('STALE: must not show')
    expect((await api.getSession('cursor-agent', AGENT_NEG.NONHEX_FALLBACK)).nodes.map((n) => n.content)).toEqual(['hello from the transcript', 'hi'])
    expect((await api.getSession('cursor-agent', AGENT_NEG.PLAINJSON)).nodes.map((n) => n.content)).toEqual(['hello', 'hi'])
    expect(summary('cursor-agent', AGENT_NEG.NOCONV)).toBeUndefined()
    expect(summary('cursor-agent', AGENT.STORE)?.diagnosticCount).toBe(0)
  })

  it('Devin negative cases: corrupt rows (by row_id), truncated and empty ATIF, a dangling sub-agent head', async () => {
    const DB = /generated\/devin\/home\/\.local\/share\/devin\/cli\/sessions\.db$/
    expect(diag(DB, 'message_nodes row_id 45 (node_id 4): chat_message is not valid JSON').map((d) => d.sessionId)).toEqual(['pale-moon'])
    expect(diag(DB, 'message_nodes row_id 46 (node_id 5): chat_message is null').map((d) => d.sessionId)).toEqual(['pale-moon'])
    expect(diag(DB, 'message_nodes row_id 43 (node_id 2): metadata is not valid JSON')).toHaveLength(1)
    expect(diag(DB, 'subagent_heads agent "ghost" names node_id 999')).toHaveLength(1)
    expect(diag(/transcripts\/pale-moon\.json$/, 'ATIF transcript is cut short')).toHaveLength(1)
    expect(diag(/transcripts\/still-river\.json$/, 'ATIF transcript is empty')).toHaveLength(1)
    const pale = await api.getSession('devin', 'pale-moon')
    expect(pale.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toContain('check the build')
    expect(summary('devin', 'amber-falcon')?.diagnosticCount).toBe(0)
  })
})
