/**
 * Test helpers for the Devin reader: read a generated home the way the app does (discover → read
 * each ref → link), fingerprint a folder, and make a session's JSON independent of the temporary
 * home's path (for goldens). Imported only by `*.test.ts`.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import type { Diagnostic, HomeOs, Session } from '../../../src/shared/ir'
import { layoutForHome } from '../../../src/main/platform'
import type { ReadContext, StoreRef } from '../../../src/main/agents/types'
import { devin } from '../../../src/main/agents/devin/index'

/** A fixed clock. */
export const CTX: ReadContext = { now: () => 1_800_000_000_000 }

/** Everything read from one home. */
export interface ReadHome {
  refs: StoreRef[]
  sessions: Session[]
  diagnostics: Diagnostic[]
  /** Session by id; throws when absent. */
  byId(id: string): Session
}

/** Discover and read every Devin session under `home`. */
export async function readHome(home: string, os: HomeOs = 'linux'): Promise<ReadHome> {
  const layout = await layoutForHome({ home, os })
  const found = await devin.discover(layout, CTX)
  const sessions: Session[] = []
  for (const ref of found.refs) sessions.push(await devin.read(ref, CTX))
  devin.link?.(sessions)
  return {
    refs: found.refs,
    sessions,
    diagnostics: found.diagnostics,
    byId(id) {
      const s = sessions.find((x) => x.id === id)
      if (!s) throw new Error(`no session ${id} (have ${sessions.map((x) => x.id).join(', ')})`)
      return s
    },
  }
}

/** A fresh temporary home folder. */
export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'sepia-devin-'))
}

/** path (relative to `dir`) → sha256 of every file under `dir` (sorted keys = the listing). */
export function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name)
      if (statSync(p).isDirectory()) walk(p)
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex')
    }
  }
  walk(dir)
  return out
}

/** A JSON copy of `value` with `home` replaced by `<home>` in every string. */
export function stable(value: unknown, home: string): unknown {
  return JSON.parse(JSON.stringify(value), (_k, v: unknown) => (typeof v === 'string' ? v.split(home).join('<home>') : v))
}
