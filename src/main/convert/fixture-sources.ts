/**
 * The real sample sessions conversions are proven on (round-trip tests in `npm test`, the resume
 * matrix in `resume/`): every session the real agent CLIs wrote into `fixtures/real/<agent>/home`
 * (copied from shared/samples/real), and the Devin fixture home built from its documented shapes
 * (src/main/agents/devin/fixtures-homes.ts; no real Devin exists here). Test and harness code only.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentId, Session } from '../../shared/ir'
import { writeMainHome as writeDevinHome } from '../agents/devin/fixtures-homes'
import { agentById } from '../agents/registry'
import { findAppRoot } from '../context'
import { layoutForHome } from '../platform'

/** One source of sample sessions. `label` names the store (Cline's SDK and legacy stores apart). */
export interface FixtureSource {
  label: 'claude-code' | 'cline' | 'cline-legacy' | 'codex' | 'gemini' | 'opencode' | 'kilo' | 'devin'
  /** The agent whose reader reads it. */
  agent: AgentId
  /** The home folder (created on first use for generated homes). */
  home(): string
  /** Keep only sessions of these store formats. */
  formats?: (format: string) => boolean
}

const real = (name: string) => () => join(findAppRoot(), 'fixtures', 'real', name, 'home')
let devinHome: string | undefined

/** Every sample source, in matrix order. */
export const FIXTURE_SOURCES: readonly FixtureSource[] = [
  { label: 'claude-code', agent: 'claude-code', home: real('claude-code') },
  { label: 'cline', agent: 'cline', home: real('cline'), formats: (f) => f.startsWith('cline-sdk') },
  { label: 'cline-legacy', agent: 'cline', home: real('cline-legacy'), formats: (f) => f === 'cline-legacy-task' },
  { label: 'codex', agent: 'codex', home: real('codex') },
  { label: 'gemini', agent: 'gemini', home: real('gemini') },
  { label: 'opencode', agent: 'opencode', home: real('opencode') },
  { label: 'kilo', agent: 'kilo-code', home: real('kilo') },
  {
    label: 'devin',
    agent: 'devin',
    home: () => {
      if (!devinHome) {
        devinHome = mkdtempSync(join(tmpdir(), 'sepia-devin-fixture-'))
        writeDevinHome(devinHome)
      }
      return devinHome
    },
  },
]

/** Every session of one source, read and linked the way the app does (fixed clock). */
export async function readFixtureSessions(source: FixtureSource): Promise<Session[]> {
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
  return sessions.sort((a, b) => a.id.localeCompare(b.id))
}
