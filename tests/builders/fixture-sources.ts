/**
 * The real sample sessions conversions are proven on (round-trip tests in `npm test`, the resume
 * matrix in `resume/`): every session the real agent CLIs wrote into `fixtures/real/<agent>/home`
 * (copied from shared/samples/real), and the committed Cursor IDE, Cursor agent CLI and Devin homes
 * `fixtures/generated/<name>/home` built from their documented shapes (scripts/make-fixture-homes.ts,
 * tests/builders/generated-homes.ts; no real store of these agents exists here). Test and harness
 * code only.
 */
import { join } from 'node:path'
import type { AgentId, Session } from '../../src/shared/ir'
import { agentById } from '../../src/main/agents/registry'
import { findAppRoot } from '../../src/main/context'
import { layoutForHome } from '../../src/main/platform'

/** One source of sample sessions. `label` names the store (Cline's SDK and legacy stores apart). */
export interface FixtureSource {
  label: 'claude-code' | 'cline' | 'cline-legacy' | 'codex' | 'gemini' | 'opencode' | 'kilo' | 'devin' | 'cursor' | 'cursor-agent' | 'qwen-code' | 'pi'
    | 'copilot-cli' | 'droid' | 'continue'
  /** The agent whose reader reads it. */
  agent: AgentId
  /** The home folder. */
  home(): string
  /** Keep only sessions of these store formats. */
  formats?: (format: string) => boolean
}

const real = (name: string) => () => join(findAppRoot(), 'fixtures', 'real', name, 'home')
const generated = (name: string) => () => join(findAppRoot(), 'fixtures', 'generated', name, 'home')

/** Every sample source, in matrix order. */
export const FIXTURE_SOURCES: readonly FixtureSource[] = [
  { label: 'claude-code', agent: 'claude-code', home: real('claude-code') },
  { label: 'cline', agent: 'cline', home: real('cline'), formats: (f) => f.startsWith('cline-sdk') },
  { label: 'cline-legacy', agent: 'cline', home: real('cline-legacy'), formats: (f) => f === 'cline-legacy-task' },
  { label: 'codex', agent: 'codex', home: real('codex') },
  { label: 'gemini', agent: 'gemini', home: real('gemini') },
  { label: 'opencode', agent: 'opencode', home: real('opencode') },
  { label: 'kilo', agent: 'kilo-code', home: real('kilo') },
  { label: 'devin', agent: 'devin', home: generated('devin') },
  { label: 'cursor', agent: 'cursor', home: generated('cursor') },
  { label: 'cursor-agent', agent: 'cursor-agent', home: generated('cursor-agent') },
  { label: 'qwen-code', agent: 'qwen-code', home: real('qwen-code') },
  { label: 'pi', agent: 'pi', home: real('pi') },
  { label: 'copilot-cli', agent: 'copilot-cli', home: real('copilot-cli') },
  { label: 'droid', agent: 'droid', home: real('droid') },
  { label: 'continue', agent: 'continue', home: real('continue') },
]

/**
 * Every session of one source, read and linked the way the app does (fixed clock). A session with
 * no user or assistant message (a negative case whose store could not be read: only a diagnostic,
 * e.g. the Cursor agent `store.db` that is not SQLite) is left out: there is nothing to convert.
 */
export async function readFixtureSessions(source: Pick<FixtureSource, 'agent' | 'home' | 'formats'>): Promise<Session[]> {
  const agent = agentById(source.agent)
  const ctx = { now: () => 0 }
  const layout = await layoutForHome({ home: source.home() })
  const { refs } = await agent.discover(layout, ctx)
  const sessions: Session[] = []
  for (const ref of refs) {
    if (source.formats && !source.formats(ref.format)) continue
    sessions.push(await agent.read(ref, ctx))
  }
  agent.link?.(sessions)
  return sessions.filter((s) => s.nodes.some((n) => n.role === 'user' || n.role === 'assistant')).sort((a, b) => a.id.localeCompare(b.id))
}
