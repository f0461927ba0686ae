/**
 * Fixture homes per agent (real stores where they exist, generated ones where the agent's store
 * is written by a test generator), for the suites that sweep every agent: safety (never writes,
 * no network, no secret leaks) and the fuzz test. Same homes as `tests/conformance.test.ts`, plus
 * the Cursor generators.
 */
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AgentId } from '../../src/shared/ir'
import { writeMainHome as writeDevinHome } from '../builders/devin/fixtures-homes'
import { writeCursorHome } from '../builders/cursor/fixtures-old'
import { writeModernStore } from '../builders/cursor/fixtures-modern'
import { writeAgentHome as writeCursorAgentHome } from '../builders/cursor-agent/fixtures-home'

/** The repository root (computed here, not imported from ./golden, so the fuzz CLI runs outside Vitest). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** `fixtures/real/<name>/home`. */
export const realHome = (name: string): string => join(REPO_ROOT, 'fixtures/real', name, 'home')

/** A temporary home holding the real legacy Cline tasks under a VS Code fork extension's globalStorage. */
export function forkHome(extensionId: string, editor = 'Code'): string {
  const home = mkdtempSync(join(tmpdir(), `sepia-fork-${extensionId}-`))
  const gs = join(home, '.config', editor, 'User', 'globalStorage', extensionId)
  mkdirSync(gs, { recursive: true })
  cpSync(join(realHome('cline-legacy'), '.cline/data/tasks'), join(gs, 'tasks'), { recursive: true })
  cpSync(join(realHome('cline-legacy'), '.cline/data/state'), join(gs, 'state'), { recursive: true })
  return home
}

/** A temporary home written by a generator. */
export function generatedHome(name: string, write: (home: string) => void): string {
  const home = mkdtempSync(join(tmpdir(), `sepia-gen-${name}-`))
  write(home)
  return home
}

/** Fixture homes per agent; each call builds fresh temporary homes where needed. */
export const FIXTURE_HOMES: Partial<Record<AgentId, () => string[]>> = {
  'claude-code': () => [realHome('claude-code')],
  cline: () => [realHome('cline'), realHome('cline-legacy')],
  'roo-code': () => [forkHome('rooveterinaryinc.roo-cline')],
  'kilo-code': () => [forkHome('kilocode.kilo-code'), realHome('kilo')],
  pearai: () => [forkHome('pearai.pearai-roo-cline', 'PearAI')],
  codex: () => [realHome('codex')],
  gemini: () => [realHome('gemini')],
  opencode: () => [realHome('opencode')],
  devin: () => [generatedHome('devin', writeDevinHome)],
  cursor: () => [generatedHome('cursor-old', writeCursorHome), generatedHome('cursor-modern', (h) => void writeModernStore(h))],
  'cursor-agent': () => [generatedHome('cursor-agent', writeCursorAgentHome)],
  pi: () => [realHome('pi')],
  'qwen-code': () => [realHome('qwen-code')],
  'copilot-cli': () => [join(REPO_ROOT, 'fixtures/real/copilot-cli/home'), ...['agentv-permissions', 'agentv-eval-shutdown'].map((c) => join(REPO_ROOT, 'fixtures/public-real/copilot-cli', c, 'home'))],
  goose: () => ['sqlite', 'jsonl'].map((c) => join(REPO_ROOT, 'fixtures/built/goose', c, 'home')),
  aider: () => ['zen-mcp-interrupted', 'afi-core-gpt4o', 'monochromatic-qwen-windows'].map((c) => join(REPO_ROOT, 'fixtures/public-real/aider', c, 'home')),
  crush: () => [...['dbos-api-error', 'exabgp-wal-only'].map((c) => join(REPO_ROOT, 'fixtures/public-real/crush', c, 'home')), join(REPO_ROOT, 'fixtures/built/crush/home')],
  openhands: () => [join(REPO_ROOT, 'fixtures/built/openhands/home'), join(REPO_ROOT, 'fixtures/built/openhands-v1/home')],
  'vscode-copilot-chat': () => ['json', 'jsonl'].map((c) => join(REPO_ROOT, 'fixtures/built/vscode-copilot-chat', c, 'home')),
  continue: () => [realHome('continue'), join(REPO_ROOT, 'fixtures/built/continue/home')],
  zed: () => [join(REPO_ROOT, 'fixtures/built/zed/home')],
  kiro: () => [join(REPO_ROOT, 'fixtures/built/kiro/home')],
  droid: () => [realHome('droid')],
  amp: () => [join(REPO_ROOT, 'fixtures/built/amp/home')],
  'letta-code': () => [realHome('letta-code')],
}

/** Every fixture home of every agent, each once (real homes are shared between agents). */
export function allFixtureHomes(): string[] {
  return [...new Set(Object.values(FIXTURE_HOMES).flatMap((f) => f()))]
}
