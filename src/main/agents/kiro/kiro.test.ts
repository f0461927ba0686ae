/**
 * Kiro reader on the home built from the publicly described workspace-sessions shape
 * (fixtures/built/kiro, see its README.md). Counts come from `JSON.parse` of the raw files here,
 * never Sepia against itself.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { kiro } from '.'

const HOME = join(REPO_ROOT, 'fixtures', 'built', 'kiro', 'home')
const ROOT = join(HOME, '.config', 'Kiro', 'User', 'globalStorage', 'kiro.kiroagent', 'workspace-sessions')

type Rec = Record<string, any>
const text = (c: unknown): string => (typeof c === 'string' ? c : (c as Rec[]).filter((p) => p.type === 'text').map((p) => p.text).join('\n\n'))
const files = (): { dir: string; name: string }[] =>
  readdirSync(ROOT).flatMap((k) => readdirSync(join(ROOT, k)).filter((n) => n.endsWith('.json') && n !== 'sessions.json').map((name) => ({ dir: join(ROOT, k), name })))

describe('kiro: built home', () => {
  it('every workspace-sessions file is one session: prompts, replies, title, folder, index date', async () => {
    const home = await readHomeOf(kiro, HOME)
    expect(home.diagnostics).toEqual([])
    expect(home.sessions.map((s) => s.id).sort()).toEqual(files().map((f) => f.name.replace(/\.json$/, '')).sort())
    for (const f of files()) {
      const raw = JSON.parse(readFileSync(join(f.dir, f.name), 'utf8')) as Rec
      const index = JSON.parse(readFileSync(join(f.dir, 'sessions.json'), 'utf8')) as Rec[]
      const s = home.byId(raw.sessionId)
      expect(s.agent).toBe('kiro')
      expect(s.diagnostics).toEqual([])
      const h = raw.history as Rec[]
      expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(h.filter((x) => x.message.role === 'user').map((x) => text(x.message.content)))
      expect(s.nodes.filter((n) => n.role === 'assistant').map((n) => n.content)).toEqual(h.filter((x) => x.message.role === 'assistant').map((x) => text(x.message.content)))
      expect(s.title).toBe(raw.title)
      expect(s.workingDirectory).toBe(raw.workspaceDirectory)
      expect(s.createdAt).toBe(Number(index.find((e) => e.sessionId === raw.sessionId)!.dateCreated))
      expectGolden(`kiro/${s.id}`, s)
    }
  })

  it('sepia list --home shows the Kiro sessions', async () => {
    const r = await runCli('list', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const data = JSON.parse(r.out) as { sessions: { agent: string; id: string }[] }
    expect(data.sessions.filter((x) => x.agent === 'kiro').map((x) => x.id).sort()).toEqual(files().map((f) => f.name.replace(/\.json$/, '')).sort())
  })
})
