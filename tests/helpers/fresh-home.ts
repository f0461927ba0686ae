/**
 * A copy of the real Claude Code and Cline legacy fixture homes, opened by a fresh library the way
 * a new `sepia list` process opens it, for the catalog freshness tests (freshness.test.ts,
 * early-freshness.test.ts, reader-key.test.ts): discoveries and reads are counted per agent.
 */
import { appendFileSync, cpSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { AGENTS } from '../../src/main/agents/registry'
import type { AgentDefinition } from '../../src/main/agents/types'
import { LibraryService } from '../../src/main/library'
import { layoutForHome } from '../../src/main/platform'

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'real')

/** The fixture transcript that {@link appendUserLine} appends to. */
export const FRESH_SESSION = '59d2b1d8-139c-406e-9af8-d7379d3f42fd'

/** Copy the Claude Code and Cline legacy fixture homes into `home`; returns the Claude Code project folder. */
export function copyFreshHome(home: string): string {
  cpSync(join(FIXTURES, 'claude-code', 'home'), home, { recursive: true })
  cpSync(join(FIXTURES, 'cline-legacy', 'home'), home, { recursive: true })
  const projects = join(home, '.claude', 'projects')
  return join(projects, readdirSync(projects)[0]!)
}

/** What a fresh library did: per agent, how many discoveries and how many session reads. */
export interface Counted {
  discoveries: Map<string, number>
  reads: Map<string, number>
}

/** A library on the catalog at `catalogPath` over `home`: Claude Code and Cline (both keep snapshots), on the calling thread. */
export async function openFresh(home: string, catalogPath: string): Promise<{ lib: LibraryService } & Counted> {
  const discoveries = new Map<string, number>()
  const reads = new Map<string, number>()
  const bump = (m: Map<string, number>, k: string): void => void m.set(k, (m.get(k) ?? 0) + 1)
  const agents: AgentDefinition[] = AGENTS.filter((a) => a.id === 'claude-code' || a.id === 'cline').map((a) => ({
    ...a,
    discover: (layout, ctx) => (bump(discoveries, a.id), a.discover(layout, ctx)),
    read: (ref, ctx) => (bump(reads, a.id), a.read(ref, ctx)),
  }))
  const lib = new LibraryService([{ layout: await layoutForHome({ home }), isDemo: false }], agents, { now: Date.now }, { refreshFirstLoad: true, workers: 0, catalogPath })
  return { lib, discoveries, reads }
}

/** `sepia list`: a fresh library's first load, then closed. */
export async function listFresh(home: string, catalogPath: string): Promise<{ sessions: Awaited<ReturnType<LibraryService['load']>>['sessions'] } & Counted> {
  const { lib, discoveries, reads } = await openFresh(home, catalogPath)
  const library = await lib.load()
  await lib.close()
  return { sessions: library.sessions, discoveries, reads }
}

/** A user line (id `uuid`) appended to the fixture transcript: its parent is the file's last line with a uuid and a time. */
export function appendUserLine(projectDir: string, text: string, uuid: string): void {
  const file = join(projectDir, `${FRESH_SESSION}.jsonl`)
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
  const last = lines.map((l) => JSON.parse(l) as { uuid?: string; timestamp?: string; cwd?: string }).filter((r) => r.uuid && r.timestamp).pop()!
  const line = {
    parentUuid: last.uuid,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: text },
    uuid,
    timestamp: new Date(Date.parse(last.timestamp!) + 60_000).toISOString(),
    cwd: last.cwd,
    sessionId: FRESH_SESSION,
  }
  appendFileSync(file, JSON.stringify(line) + '\n')
}
