/**
 * Issue 18 items 5 and 11: Aider and Crush keep their history in the project folder, so the
 * catalog finds them in the project folders other agents' sessions name (here a Claude Code
 * session whose `cwd` is a project outside the home, past the home walk), on the refresh after
 * the one that recorded that project. Counts from the raw files: `# aider chat started at` lines,
 * `sessions` rows (SOURCES.md: 2 in dbos-api-error).
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createApi } from '../src/main/api'
import { findAppRoot, type AppContext } from '../src/main/context'

const ROOT = findAppRoot()
const tmp = mkdtempSync(join(tmpdir(), 'sepia-pfstores-'))
const home = join(tmp, 'home')
const project = join(tmp, 'elsewhere', 'ledger-api')
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('project-folder stores found from the projects other agents name', () => {
  it('lists the Aider and Crush sessions of a project a Claude Code session names', async () => {
    cpSync(join(ROOT, 'fixtures/real/claude-code/home'), home, { recursive: true })
    const dir = join(home, '.claude/projects/-home-ana-src-ledger-api')
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
      writeFileSync(join(dir, f), readFileSync(join(dir, f), 'utf8').split('"cwd":"/home/ana/src/ledger-api"').join(`"cwd":${JSON.stringify(project)}`))
    }
    mkdirSync(join(project, '.crush'), { recursive: true })
    const md = join(ROOT, 'fixtures/public-real/aider/zen-mcp-interrupted/home/git/github/zen-mcp-server/.aider.chat.history.md')
    cpSync(md, join(project, '.aider.chat.history.md'))
    cpSync(join(ROOT, 'fixtures/public-real/crush/dbos-api-error/home/codeZ/dbos-transact-golang/.crush/crush.db'), join(project, '.crush', 'crush.db'))
    const headers = readFileSync(md, 'utf8').split('\n').filter((l) => l.startsWith('# aider chat started at')).length

    const context: AppContext = { mode: 'browser', version: 'test', platform: 'linux', homes: [home], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: home, appDataDir: join(tmp, 'data'), now: () => 1_800_000_000_000 }
    const api = createApi(context)
    const first = await api.getLibrary({ refresh: true })
    expect(first.sessions.some((s) => s.agent === 'claude-code' && s.workingDirectory === project)).toBe(true)
    await api.library.whenIdle()
    const second = await api.getLibrary({ refresh: true })
    expect(second.diagnostics.filter((d) => d.agent === 'aider' || d.agent === 'crush')).toEqual([])
    const aider = second.sessions.filter((s) => s.agent === 'aider')
    const crush = second.sessions.filter((s) => s.agent === 'crush')
    expect(aider).toHaveLength(headers)
    expect(crush).toHaveLength(2)
    for (const s of [...aider, ...crush]) expect(s.workingDirectory).toBe(project)
    await api.library.whenIdle()
  }, 60_000)
})
