import { describe, expect, it, vi } from 'vitest'
import { buildCommands, type CommandActions } from './commands'
import { fuzzyFilter } from './fuzzy'
import { library, summary } from './test/fixtures'

function actions(): CommandActions & Record<string, ReturnType<typeof vi.fn>> {
  return { openFolder: vi.fn(), openDemo: vi.fn(), reload: vi.fn(), about: vi.fn(), show: vi.fn(), setTheme: vi.fn(), openSession: vi.fn() }
}

describe('buildCommands', () => {
  const lib = library([
    summary('old', { title: 'Fix the parser', createdAt: 1000, workingDirectory: '/home/ana/src/ledger' }),
    summary('new', { agent: 'cline', title: 'Write the README', createdAt: 5000 }),
  ])

  it('lists actions, the other views, the other themes, then sessions newest first', () => {
    const act = actions()
    const ids = buildCommands({ library: lib, view: 'library', themeChoice: 'system', theme: 'light' }, act).map((c) => c.id)
    expect(ids).toEqual([
      'open-folder',
      'demo',
      'reload',
      'about',
      'view:search',
      'view:usage',
      'view:timeline',
      'view:settings',
      'theme:toggle',
      'theme:light',
      'theme:dark',
      'session:cline/new',
      'session:claude-code/old',
    ])
  })

  it('has no reload and no sessions without a library', () => {
    const ids = buildCommands({ library: null, view: 'usage', themeChoice: 'dark', theme: 'dark' }, actions()).map((c) => c.id)
    expect(ids).not.toContain('reload')
    expect(ids).toContain('view:library')
    expect(ids).not.toContain('view:usage')
    expect(ids.filter((i) => i.startsWith('session:'))).toEqual([])
  })

  it('runs what it says: toggle flips the theme in effect, a session opens by agent and id', () => {
    const act = actions()
    const cmds = buildCommands({ library: lib, view: 'library', themeChoice: 'system', theme: 'dark' }, act)
    cmds.find((c) => c.id === 'theme:toggle')!.run()
    expect(act.setTheme).toHaveBeenCalledWith('light')
    const hit = fuzzyFilter(cmds, 'parser', (c) => `${c.label} ${c.detail ?? ''}`)[0]!.item
    expect(hit.label).toBe('Fix the parser')
    expect(hit.detail).toContain('Claude Code · ledger · ')
    hit.run()
    expect(act.openSession).toHaveBeenCalledWith('claude-code', 'old')
    cmds.find((c) => c.id === 'view:usage')!.run()
    expect(act.show).toHaveBeenCalledWith('usage')
  })

  it('offers the other UI languages when asked to, each by its name', () => {
    const act = { ...actions(), setLanguage: vi.fn() }
    const languages = [
      { choice: 'system', name: 'Same as this computer (English)' },
      { choice: 'en', name: 'English' },
      { choice: 'ja', name: '日本語' },
    ]
    const cmds = buildCommands({ library: null, view: 'library', themeChoice: 'system', theme: 'light', languageChoice: 'system', languages }, act)
    const lang = cmds.filter((c) => c.group === 'language')
    expect(lang.map((c) => [c.id, c.label])).toEqual([
      ['language:en', 'Language: English'],
      ['language:ja', 'Language: 日本語'],
    ])
    lang[1]!.run()
    expect(act.setLanguage).toHaveBeenCalledWith('ja')
    expect(buildCommands({ library: null, view: 'library', themeChoice: 'system', theme: 'light', languages }, actions()).some((c) => c.group === 'language')).toBe(false)
  })
})
