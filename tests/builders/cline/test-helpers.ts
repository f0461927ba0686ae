/**
 * Test helpers for the Cline reader tests: read a whole home the way the library does
 * (discover → read every ref → link), fingerprint a folder to prove reading changed nothing, and
 * build temporary homes from fixture pieces. Imported only by `*.test.ts`.
 */
import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Diagnostic, Session } from '../../../src/shared/ir'
import { layoutForHome } from '../../../src/main/platform'
import type { AgentDefinition, ReadContext, StoreRef } from '../../../src/main/agents/types'

/** Repository root (three folders above this file). */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

/** A fixed clock for readers. */
export const CTX: ReadContext = { now: () => 1_800_000_000_000 }

/** Everything one agent finds and reads under a home. */
export interface HomeRead {
  refs: StoreRef[]
  sessions: Session[]
  diagnostics: Diagnostic[]
  byId(id: string): Session
}

/** Discover, read and link every session of `agent` under `home` (a Linux-layout home unless told). */
export async function readHome(agent: AgentDefinition, home: string): Promise<HomeRead> {
  const layout = await layoutForHome({ home })
  const found = await agent.discover(layout, CTX)
  const sessions: Session[] = []
  for (const ref of found.refs) sessions.push(await agent.read(ref, CTX))
  agent.link?.(sessions)
  return {
    refs: found.refs,
    sessions,
    diagnostics: found.diagnostics,
    byId(id) {
      const s = sessions.find((x) => x.id === id)
      if (!s) throw new Error(`no session ${id}`)
      return s
    },
  }
}

/** path (relative to `dir`) → sha256 of every file under `dir`. */
export function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name)
      if (statSync(p).isDirectory()) walk(p)
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex')
    }
  }
  walk(dir)
  return out
}

const made: string[] = []

/** A fresh temporary folder (removed by {@link removeTempDirs}). */
export function tempDir(prefix = 'sepia-cline-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  made.push(dir)
  return dir
}

/** Remove every folder {@link tempDir} made (call from `afterAll`). */
export function removeTempDirs(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true })
}

/** Copy a fixture path (relative to the repo) to `dest`, creating parents. */
export function copyFixture(from: string, dest: string): void {
  mkdirSync(dirname(dest), { recursive: true })
  cpSync(join(REPO, from), dest, { recursive: true })
}

/** Write a JSON file, creating parents. */
export function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, JSON.stringify(value, null, 2))
}
