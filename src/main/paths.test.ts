/** Issue 9 item 6: paths from the renderer stay inside the opened folders; links out are reported. */
import { cpSync, mkdirSync, mkdtempSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AGENTS } from './agents/registry'
import { createApi } from './api'
import { findAppRoot } from './context'
import { guardAgents, PathPolicy } from './paths'
import { layoutForHome } from './platform'

const ROOT = findAppRoot()
const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)))

describe('PathPolicy.check', () => {
  const home = tmp('sepia-paths-home-')
  const outside = tmp('sepia-paths-outside-')
  mkdirSync(join(home, 'projects'))
  writeFileSync(join(home, 'projects', 'a.jsonl'), '{}')
  writeFileSync(join(outside, 'secret.txt'), 'x')
  symlinkSync(outside, join(home, 'projects', 'escape'))
  symlinkSync(join(home, 'projects', 'a.jsonl'), join(home, 'projects', 'inner-link.jsonl'))
  const policy = new PathPolicy(async () => [[home, 'home']])

  it('accepts paths inside an allowed root, resolved', async () => {
    expect(await policy.check(join(home, 'projects', 'a.jsonl'))).toBe(join(home, 'projects', 'a.jsonl'))
    expect(await policy.check(join(home, 'projects', '..', 'projects', 'new-file.md'))).toBe(join(home, 'projects', 'new-file.md'))
    expect(await policy.check(join(home, 'projects', 'inner-link.jsonl'))).toBe(join(home, 'projects', 'inner-link.jsonl'))
  })

  it('refuses paths outside every root, and `..` tricks', async () => {
    await expect(policy.check(join(outside, 'secret.txt'))).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED', path: join(outside, 'secret.txt') })
    await expect(policy.check(join(home, '..', '..', 'etc', 'passwd'))).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
  })

  it('reports a symbolic link that leaves the roots, naming its target, and does not follow it', async () => {
    const err = await policy.check(join(home, 'projects', 'escape', 'secret.txt')).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'PATH_NOT_ALLOWED', path: join(home, 'projects', 'escape', 'secret.txt') })
    expect((err as Error).message).toBe(
      `${join(home, 'projects', 'escape', 'secret.txt')} is a symbolic link to ${join(outside, 'secret.txt')}, outside the folders Sepia has opened; Sepia does not follow it. Open ${join(outside, 'secret.txt')} directly if you want it read.`,
    )
  })

  it('refuses what is not a path', async () => {
    for (const bad of [undefined, 42, '', '   ', `${home}/a\0b`, { path: home }]) await expect(policy.check(bad)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
  })

  it('allows a folder once the user picked it', async () => {
    const picked = tmp('sepia-paths-picked-')
    await expect(policy.check(join(picked, 'out.md'))).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    policy.allow(picked, 'picked')
    expect(await policy.check(join(picked, 'out.md'))).toBe(join(picked, 'out.md'))
    policy.reset(['picked'])
    await expect(policy.check(join(picked, 'out.md'))).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
  })
})

describe('the API’s path policy', () => {
  it('allows the opened homes, their session files and projects, the app data folder and picked folders only', async () => {
    const picked = tmp('sepia-paths-picked-')
    const appData = tmp('sepia-paths-appdata-')
    const home = join(ROOT, 'fixtures/real/cline/home')
    const api = createApi({ mode: 'browser', version: '0', platform: 'linux', homes: [home], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: tmp('sepia-own-'), appDataDir: appData, pickFolder: async () => picked })
    const lib = await api.getLibrary()
    const roots = await api.paths.list()
    expect(roots).toContainEqual({ path: home, reason: 'home' })
    expect(roots).toContainEqual({ path: appData, reason: 'app-data' })
    expect(roots).toContainEqual({ path: lib.sessions[0]!.files[0]!, reason: 'session-file' })
    expect(roots).toContainEqual({ path: '/home/ana/src/invoice-service', reason: 'project' })
    await expect(api.paths.check(join(picked, 'x'))).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    expect(await api.pickFolder()).toBe(picked)
    expect(await api.paths.check(join(picked, 'x'))).toBe(join(picked, 'x'))
    await expect(api.paths.check('/etc/passwd')).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
  })
})

describe('guardAgents (discovery)', () => {
  it('skips a session file that links out of the home, with a diagnostic naming the target', async () => {
    const home = tmp('sepia-paths-claude-')
    const elsewhere = tmp('sepia-paths-elsewhere-')
    cpSync(join(ROOT, 'fixtures/real/claude-code/home'), home, { recursive: true })
    const projects = join(home, '.claude', 'projects')
    const [project] = (await import('node:fs')).readdirSync(projects)
    const file = join(projects, project!, 'c79310a4-1627-4beb-8788-81d2e0fc6af8.jsonl')
    renameSync(file, join(elsewhere, 'moved.jsonl'))
    symlinkSync(join(elsewhere, 'moved.jsonl'), file)

    const claude = AGENTS.find((a) => a.id === 'claude-code')!
    const layout = await layoutForHome({ home })
    const plain = await claude.discover(layout, { now: () => 0 })
    expect(plain.refs.some((r) => r.sessionId === 'c79310a4-1627-4beb-8788-81d2e0fc6af8')).toBe(true)

    const guarded = await guardAgents([claude])[0]!.discover(layout, { now: () => 0 })
    expect(guarded.refs.some((r) => r.sessionId === 'c79310a4-1627-4beb-8788-81d2e0fc6af8')).toBe(false)
    expect(guarded.refs.length).toBe(plain.refs.length - 1)
    expect(guarded.diagnostics).toContainEqual({
      severity: 'warning',
      path: file,
      agent: 'claude-code',
      sessionId: 'c79310a4-1627-4beb-8788-81d2e0fc6af8',
      message: `Skipped: this file is a symbolic link to ${join(elsewhere, 'moved.jsonl')}, outside ${home}. Sepia does not follow links out of the folders you open; open ${elsewhere} to read it.`,
    })

    // Through the API: the session is not listed and the library says why.
    const api = createApi({ mode: 'browser', version: '0', platform: 'linux', homes: [home], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: tmp('sepia-own-'), appDataDir: tmp('sepia-data-') })
    const lib = await api.getLibrary()
    expect(lib.sessions.some((s) => s.id === 'c79310a4-1627-4beb-8788-81d2e0fc6af8')).toBe(false)
    expect(lib.sessions.length).toBeGreaterThan(3)
    expect(lib.diagnostics.some((d) => d.path === file && d.message.startsWith('Skipped: this file is a symbolic link to'))).toBe(true)
  })
})
