/**
 * One conformance suite over every agent in the registry (STYLE.md, Kysely/Beekeeper style):
 * it lists sessions, pairs every tool result it can, survives a truncated last line, and never
 * writes to the source. Each agent names its fixture homes below; an agent without one is
 * reported as skipped with the reason.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentId } from '../src/shared/ir'
import { AGENTS } from '../src/main/agents/registry'
import { writeMainHome as writeDevinHome } from './builders/devin/fixtures-homes'
import { writeCursorHome } from './builders/cursor/fixtures-old'
import { writeAgentHome } from './builders/cursor-agent/fixtures-home'
import { REPO_ROOT } from './helpers/golden'
import { readAgentHome } from './helpers/read-home'
import { snapshotTree } from './helpers/snapshot'

const real = (name: string) => join(REPO_ROOT, 'fixtures/real', name, 'home')

/** A home holding the real legacy Cline tasks under a VS Code fork extension's globalStorage. */
function forkHome(extensionId: string, editor = 'Code'): string {
  const home = mkdtempSync(join(tmpdir(), `sepia-fork-${extensionId}-`))
  const gs = join(home, '.config', editor, 'User', 'globalStorage', extensionId)
  mkdirSync(gs, { recursive: true })
  cpSync(join(real('cline-legacy'), '.cline/data/tasks'), join(gs, 'tasks'), { recursive: true })
  cpSync(join(real('cline-legacy'), '.cline/data/state'), join(gs, 'state'), { recursive: true })
  return home
}

/** A home written by a generator (agents with no real store here: built from the documented shapes). */
function generated(name: string, write: (home: string) => void): string {
  const home = mkdtempSync(join(tmpdir(), `sepia-gen-${name}-`))
  write(home)
  return home
}

/** Fixture homes per agent (real stores where they exist). */
const HOMES: Partial<Record<AgentId, () => string[]>> = {
  'claude-code': () => [real('claude-code')],
  cline: () => [real('cline'), real('cline-legacy')],
  'roo-code': () => [forkHome('rooveterinaryinc.roo-cline')],
  'kilo-code': () => [forkHome('kilocode.kilo-code'), real('kilo')],
  pearai: () => [forkHome('pearai.pearai-roo-cline', 'PearAI')],
  codex: () => [real('codex')],
  gemini: () => [real('gemini')],
  opencode: () => [real('opencode')],
  devin: () => [generated('devin', writeDevinHome)],
  cursor: () => [generated('cursor', writeCursorHome)],
  'cursor-agent': () => [generated('cursor-agent', writeAgentHome)],
  'copilot-cli': () => [join(REPO_ROOT, 'fixtures/real/copilot-cli/home'), ...['agentv-permissions', 'agentv-eval-shutdown'].map((c) => join(REPO_ROOT, 'fixtures/public-real/copilot-cli', c, 'home'))],
  // The public real Goose sample (one session with no messages) is read in src/main/agents/goose/goose.test.ts.
  goose: () => ['sqlite', 'jsonl'].map((c) => join(REPO_ROOT, 'fixtures/built/goose', c, 'home')),
  'qwen-code': () => [real('qwen-code')],
  pi: () => [real('pi')],
  openhands: () => [join(REPO_ROOT, 'fixtures/built/openhands/home'), join(REPO_ROOT, 'fixtures/built/openhands-v1/home')],
  aider: () => ['zen-mcp-interrupted', 'afi-core-gpt4o', 'monochromatic-qwen-windows'].map((c) => join(REPO_ROOT, 'fixtures/public-real/aider', c, 'home')),
  crush: () => [...['dbos-api-error', 'exabgp-wal-only'].map((c) => join(REPO_ROOT, 'fixtures/public-real/crush', c, 'home')), join(REPO_ROOT, 'fixtures/built/crush/home')],
  'vscode-copilot-chat': () => ['json', 'jsonl'].map((c) => join(REPO_ROOT, 'fixtures/built/vscode-copilot-chat', c, 'home')),
  continue: () => [real('continue'), join(REPO_ROOT, 'fixtures/built/continue/home')],
  zed: () => [join(REPO_ROOT, 'fixtures/built/zed/home')],
  kiro: () => [join(REPO_ROOT, 'fixtures/built/kiro/home')],
  droid: () => [real('droid')],
  amp: () => [join(REPO_ROOT, 'fixtures/built/amp/home')],
  'letta-code': () => [real('letta-code')],
}

/** Cut the last non-empty line of a text file in half (a write interrupted mid-line). */
function truncateLastLine(path: string): boolean {
  const text = readFileSync(path, 'utf8')
  const body = text.replace(/\s+$/, '')
  const start = body.lastIndexOf('\n') + 1
  const last = body.slice(start)
  if (last.length < 4) return false
  writeFileSync(path, body.slice(0, start) + last.slice(0, Math.floor(last.length / 2)))
  return true
}

for (const agent of AGENTS) {
  const homes = HOMES[agent.id]
  describe.skipIf(!homes)(`conformance: ${agent.id}`, () => {
    it('lists sessions, each with messages, an id and its source files', async () => {
      let total = 0
      for (const home of homes!()) {
        const { sessions } = await readAgentHome(agent, home)
        total += sessions.length
        for (const s of sessions) {
          expect(s.agent).toBe(agent.id)
          expect(s.id).not.toBe('')
          expect(s.source.files.length).toBeGreaterThan(0)
          expect(s.nodes.length, `${s.id} has no messages`).toBeGreaterThan(0)
        }
      }
      expect(total).toBeGreaterThan(0)
    })

    it('pairs every tool result with its call', async () => {
      for (const home of homes!()) {
        const { sessions } = await readAgentHome(agent, home)
        for (const s of sessions) {
          const calls = new Map(s.nodes.flatMap((n) => n.toolCalls ?? []).map((c) => [c.id, c]))
          for (const n of s.nodes) {
            if (n.role !== 'tool' || !n.toolCallId) continue
            const call = calls.get(n.toolCallId)
            expect(call, `${s.id}: result ${n.toolCallId} has no call`).toBeDefined()
            expect(['completed', 'failed']).toContain(call!.status)
          }
          for (const c of calls.values()) expect(c.status, `${s.id}: call ${c.id} has no status`).toBeDefined()
        }
      }
    })

    it('survives a truncated last line in every session file', async () => {
      for (const source of homes!()) {
        const home = mkdtempSync(join(tmpdir(), `sepia-trunc-${agent.id}-`))
        cpSync(source, home, { recursive: true })
        const before = await readAgentHome(agent, home)
        let cut = 0
        for (const primary of new Set(before.refs.map((r) => r.files[0]!))) {
          const inHome = join(home, relative(home, primary))
          if (!/\.(jsonl|json)$/.test(inHome) || statSync(inHome).size === 0) continue
          if (truncateLastLine(inHome)) cut++
        }
        const after = await readAgentHome(agent, home)
        expect(after.sessions.length).toBe(before.sessions.length)
        if (cut > 0) {
          const diags = after.sessions.flatMap((s) => s.diagnostics).filter((d) => d.severity !== 'info')
          expect(diags.length, 'a cut file must be reported').toBeGreaterThan(0)
          for (const d of diags) expect(d.path.startsWith(home)).toBe(true)
        }
      }
    })

    it('never writes to the source', async () => {
      for (const home of homes!()) {
        const before = snapshotTree(home)
        await readAgentHome(agent, home)
        await readAgentHome(agent, home)
        expect(snapshotTree(home)).toEqual(before)
      }
    })
  })
}

it('every registered agent has conformance fixtures or is listed as pending', () => {
  const pending = AGENTS.filter((a) => !HOMES[a.id]).map((a) => a.id)
  // Agents whose stores have no fixture home yet; keep this list short and shrinking.
  expect(pending).toEqual([])
})
