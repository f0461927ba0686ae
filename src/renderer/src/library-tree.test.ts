import { describe, expect, it } from 'vitest'
import { buildLibraryTree, displayTitle, hiddenCount } from './library-tree'
import { library, summary } from './test/fixtures'

describe('buildLibraryTree', () => {
  const sessions = [
    summary('old', { title: 'Old work', workingDirectory: '/home/ana/src/app', createdAt: 1000 }),
    summary('new', { title: 'New work', workingDirectory: '/home/ana/src/app', createdAt: 3000, childSessionIds: ['kid'] }),
    summary('kid', { title: 'Sub task', workingDirectory: '/home/ana/src/app', createdAt: 3500, parentSessionId: 'new' }),
    summary('win', { title: 'Windows one', workingDirectory: 'C:\\Users\\ana\\deja-vu\\', createdAt: 2000 }),
    summary('loose', { firstPrompt: 'no cwd here\nsecond line', createdAt: 5000 }),
    summary('cl', { agent: 'cline', title: 'Cline task', workingDirectory: '/home/ana/src/app', createdAt: 100 }),
  ]
  const tree = buildLibraryTree(library(sessions))

  it('groups by agent, then project, newest project first and "No project" last', () => {
    expect(tree.map((g) => [g.agent.id, g.count])).toEqual([
      ['claude-code', 5],
      ['cline', 1],
    ])
    const projects = tree[0]!.projects
    expect(projects.map((p) => [p.name, p.path, p.count])).toEqual([
      ['app', '/home/ana/src/app', 3],
      ['deja-vu', 'C:\\Users\\ana\\deja-vu\\', 1],
      ['No project', undefined, 1],
    ])
  })

  it('lists sessions newest first and nests sub-agents under their parent', () => {
    const app = tree[0]!.projects[0]!
    expect(app.sessions.map((s) => s.summary.id)).toEqual(['new', 'old'])
    expect(app.sessions[0]!.children.map((c) => c.summary.id)).toEqual(['kid'])
  })

  it('titles a session without title by its first prompt line', () => {
    expect(tree[0]!.projects[2]!.sessions[0]!.title).toBe('no cwd here')
    expect(displayTitle({})).toBe('Untitled session')
    // No messages at all (a Gemini CLI chat holding only a hook warning): "Empty session".
    expect(displayTitle({ messageCount: 0 })).toBe('Empty session')
    expect(displayTitle({ messageCount: 0, title: 'Named' })).toBe('Named')
    expect(displayTitle({ messageCount: 2 })).toBe('Untitled session')
  })

  it('filters by title, keeping the parent of a matching sub-agent', () => {
    const f = buildLibraryTree(library(sessions), 'SUB')
    expect(f).toHaveLength(1)
    expect(f[0]!.projects.map((p) => p.sessions.map((s) => [s.summary.id, s.children.map((c) => c.summary.id)]))).toEqual([[['new', ['kid']]]])
    expect(f[0]!.count).toBe(2)
    expect(buildLibraryTree(library(sessions), 'zzz')).toEqual([])
  })

  it('keeps a sub-agent whose parent is missing, and survives parent cycles', () => {
    const t = buildLibraryTree(
      library([
        summary('orphan', { parentSessionId: 'gone', createdAt: 1 }),
        summary('a', { parentSessionId: 'b', createdAt: 2 }),
        summary('b', { parentSessionId: 'a', createdAt: 3 }),
      ]),
    )
    expect(t[0]!.projects[0]!.sessions.map((s) => s.summary.id)).toEqual(['b', 'a', 'orphan'])
    expect(t[0]!.count).toBe(3)
  })
})

describe('hidden sessions (Devin hidden = 1)', () => {
  const lib = library([
    summary('shown', { agent: 'devin', title: 'Shown', workingDirectory: '/home/ana/src/app', createdAt: 1000 }),
    summary('ghost', { agent: 'devin', title: 'Hidden one', workingDirectory: '/home/ana/src/app', createdAt: 2000, hidden: true }),
  ])
  it('are left out unless the user shows them', () => {
    const ids = (show: boolean) => buildLibraryTree(lib, '', show).flatMap((g) => g.projects.flatMap((p) => p.sessions.map((s) => s.summary.id)))
    expect(ids(false)).toEqual(['shown'])
    expect(ids(true)).toEqual(['ghost', 'shown'])
    expect(hiddenCount(lib)).toBe(1)
  })
})

describe('buildLibraryTree: one folder spelled two ways', () => {
  it('groups c:\\… and C:\\… (Codex VS Code extension vs CLI) as one project', () => {
    const tree = buildLibraryTree(library([
      summary('a', { agent: 'codex', workingDirectory: 'c:\\Users\\shahh\\app', createdAt: 1 }),
      summary('b', { agent: 'codex', workingDirectory: 'C:\\Users\\shahh\\app', createdAt: 2 }),
    ]))
    expect(tree[0]!.projects.map((p) => p.count)).toEqual([2])
  })
})
