/**
 * Issue 18: Windsurf (Cascade) and Trae keep their chats encrypted. Sepia lists them (count, files,
 * times) and says so instead of showing nothing. Counts and times come from `readdir`/`stat` of the
 * fixture files here, never from Sepia.
 */
import { cpSync, mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { layoutForHome } from '../src/main/platform'
import { findUnreadStores, UNREAD_DETECTORS } from '../src/main/health/unread'
import { summarizeHealth } from '../src/main/health/report'
import type { HealthReport } from '../src/shared/health'
import { runCli } from './helpers/cli-run'
import { REPO_ROOT } from './helpers/golden'

const WINDSURF = join(REPO_ROOT, 'fixtures', 'built', 'windsurf', 'home')
const TRAE = join(REPO_ROOT, 'fixtures', 'built', 'trae', 'home')
const CASCADE = join(WINDSURF, '.codeium', 'windsurf', 'cascade')
const TRAE_DB = join(TRAE, '.config', 'Trae', 'ModularData', 'ai-agent', 'database.db')

describe('encrypted chat stores (Windsurf, Trae)', () => {
  it('the detectors are Windsurf and Trae, both encrypted', () => {
    expect(UNREAD_DETECTORS.map((d) => [d.agentName, d.reason])).toEqual([['Windsurf', 'encrypted'], ['Trae', 'encrypted']])
  })

  it('Windsurf: one store per cascade/*.pb, with the oldest and newest modification time', async () => {
    const pbs = readdirSync(CASCADE).filter((n) => n.endsWith('.pb')).sort().map((n) => join(CASCADE, n))
    const times = pbs.map((p) => statSync(p).mtimeMs)
    const stores = await findUnreadStores(await layoutForHome({ home: WINDSURF, os: 'linux' }))
    expect(stores).toEqual([{ agentName: 'Windsurf', reason: 'encrypted', count: pbs.length, paths: pbs, oldestMs: Math.min(...times), newestMs: Math.max(...times) }])
  })

  it('Trae: its ai-agent database, on Linux and in a macOS home', async () => {
    const t = statSync(TRAE_DB).mtimeMs
    expect(await findUnreadStores(await layoutForHome({ home: TRAE, os: 'linux' }))).toEqual([{ agentName: 'Trae', reason: 'encrypted', count: 1, paths: [TRAE_DB], oldestMs: t, newestMs: t }])
    const mac = mkdtempSync(join(tmpdir(), 'trae-mac-'))
    cpSync(join(TRAE, '.config', 'Trae'), join(mac, 'Library', 'Application Support', 'Trae CN'), { recursive: true })
    const stores = await findUnreadStores(await layoutForHome({ home: mac, os: 'darwin' }))
    expect(stores.map((s) => [s.agentName, s.count, s.paths])).toEqual([['Trae', 1, [join(mac, 'Library', 'Application Support', 'Trae CN', 'ModularData', 'ai-agent', 'database.db')]]])
  })

  it('sepia list and sepia doctor say the chats are encrypted and name the files', async () => {
    const pbs = readdirSync(CASCADE).filter((n) => n.endsWith('.pb'))
    const list = await runCli('list', '--home', WINDSURF, '--home', TRAE)
    expect(list.code).toBe(0)
    expect(list.out).toContain(`Windsurf: found ${pbs.length} files`)
    expect(list.out).toContain('Windsurf keeps its chats encrypted; Sepia can list them but not read them.')
    expect(list.out).toContain('Trae keeps its chats encrypted; Sepia can list them but not read them.')
    for (const n of pbs) expect(list.out).toContain(join(CASCADE, n))
    const doctor = await runCli('doctor', '--home', WINDSURF)
    expect(doctor.code).toBe(0)
    expect(doctor.out).toContain('Windsurf keeps its chats encrypted; Sepia can list them but not read them.')
  })

  it('a home with only encrypted stores gets the encrypted notice, not "cannot read yet"', async () => {
    const list = await runCli('list', '--home', WINDSURF, '--home', TRAE)
    expect(list.out.split('\n')[1]).toBe('')
    expect(list.out).not.toContain('cannot read yet')
    expect(list.out).not.toContain('No session Sepia can read')
    const doctor = await runCli('doctor', '--home', WINDSURF, '--home', TRAE)
    expect(doctor.out.split('\n')[0]).toBe('Sepia found no session it can read here. Windsurf keeps its chats encrypted; Sepia can list them but not read them. Trae keeps its chats encrypted; Sepia can list them but not read them.')
    expect(doctor.out).not.toContain('cannot read yet')
  })

  it('sepia show of an encrypted chat\'s id says it is encrypted; an id under another agent than --agent names that agent', async () => {
    const id = readdirSync(CASCADE).find((n) => n.endsWith('.pb'))!.replace(/\.pb$/, '')
    const show = await runCli('show', id, '--home', WINDSURF)
    expect(show.code).not.toBe(0)
    expect(show.err).toContain('Windsurf keeps its chats encrypted; Sepia can list them but not read them.')
    const other = await runCli('show', 'local-conv-1', '--agent', 'droid', '--home', join(REPO_ROOT, 'fixtures', 'real', 'letta-code', 'home'))
    expect(other.code).not.toBe(0)
    expect(other.err).toContain('"local-conv-1" is a Letta Code session, not Factory Droid')
  })

  it("the report's sentence names a store with no reader apart from an encrypted one", () => {
    const totals = { sessions: 0, records: 0, recordsSkipped: 0, filesRead: 0, skippedFiles: 0, partialSessions: 0, toolCallsWithoutResult: 0 }
    const homes = [{ unreadStores: [{ agentName: 'Zork', paths: ['/h/.zork/db'], count: 1 }, { agentName: 'Windsurf', reason: 'encrypted', paths: ['/h/a.pb'], count: 1 }] }]
    expect(summarizeHealth({ totals, homes } as unknown as Omit<HealthReport, 'summary'>)).toBe(
      'Sepia found no session it can read here. Found history of Zork, which Sepia cannot read yet. Windsurf keeps its chats encrypted; Sepia can list them but not read them.',
    )
  })
})
