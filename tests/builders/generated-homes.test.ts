/**
 * The committed homes `fixtures/generated/<name>/home` are what their generators write: reading a
 * committed home gives the same IR and discovery diagnostics as generating it afresh into a
 * temporary home (paths replaced by `<home>`). The only tolerated difference is the time of a
 * transcript read by its file mtime (`metadata.clock = 'file-mtime'`): git does not keep mtimes.
 * Also: no committed home holds a SQLite side file, and the whole folder stays small.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { AgentId, Diagnostic, Session } from '../../src/shared/ir'
import { findAppRoot } from '../../src/main/context'
import { layoutForHome } from '../../src/main/platform'
import { closeCursorSnapshots } from '../../src/main/agents/cursor'
import { closeDevinDbs } from '../../src/main/agents/devin/db'
import { GENERATED_HOMES, generatedHomePath } from './generated-homes'
import { agentById } from '../../src/main/agents/registry'

const ROOT = findAppRoot()
const temps: string[] = []
afterAll(() => {
  closeCursorSnapshots()
  closeDevinDbs()
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})

/** Discover, read and link `agent`'s sessions under `home`, as the app does (fixed clock). */
async function readAll(agent: AgentId, home: string): Promise<{ sessions: Session[]; discovery: Diagnostic[] }> {
  const def = agentById(agent)
  const ctx = { now: () => 0 }
  const { refs, diagnostics } = await def.discover(await layoutForHome({ home }), ctx)
  const sessions: Session[] = []
  for (const ref of refs) sessions.push(await def.read(ref, ctx))
  def.link?.(sessions)
  sessions.sort((a, b) => a.id.localeCompare(b.id))
  return { sessions, discovery: diagnostics }
}

/** JSON with `home` replaced by `<home>`, and mtime-clock session times dropped. */
function comparable(value: { sessions: Session[]; discovery: Diagnostic[] }, home: string): unknown {
  const json = JSON.parse(JSON.stringify(value).split(home).join('<home>')) as { sessions: Session[] }
  for (const s of json.sessions) {
    if (s.metadata.clock !== 'file-mtime') continue
    delete s.createdAt
    delete s.lastActivityAt
  }
  return json
}

function filesUnder(dir: string): { path: string; size: number }[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const path = join(e.parentPath, e.name)
      return { path, size: statSync(path).size }
    })
}

describe('committed generated homes = their generators', () => {
  for (const h of GENERATED_HOMES) {
    for (const agent of h.agents) {
      it(`${h.name}: ${agent} sessions and diagnostics match a fresh generation`, async () => {
        const committed = generatedHomePath(ROOT, h.name)
        const fresh = mkdtempSync(join(tmpdir(), `sepia-gen-${h.name}-`))
        temps.push(fresh)
        h.write(fresh)
        const a = await readAll(agent, committed)
        const b = await readAll(agent, fresh)
        expect(a.sessions.length).toBeGreaterThan(0)
        expect(comparable(a, committed)).toEqual(comparable(b, fresh))
      })
    }
  }

  it('hold no SQLite side files and stay well under 5 MB', () => {
    const all = filesUnder(join(ROOT, 'fixtures', 'generated'))
    expect(all.filter((f) => /-(wal|shm|journal)$/.test(f.path))).toEqual([])
    expect(all.filter((f) => f.path.endsWith('README.md'))).toHaveLength(GENERATED_HOMES.length)
    expect(all.reduce((n, f) => n + f.size, 0)).toBeLessThan(1_000_000)
  })
})
