/** The bundle plan: globs, exclusions, and stores moved by env variables put back in place. */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AGENTS } from '../agents/registry'
import { findAppRoot } from '../context'
import { layoutForHome } from '../platform'
import { compileGlob, couldMatchInside, matchGlob } from './glob'
import { planHome } from './plan'
import { EXCLUDED } from './rules'

const ROOT = findAppRoot()
const ctx = { now: () => 0 }

describe('glob', () => {
  const m = (pattern: string, path: string) => matchGlob(compileGlob(pattern), path.split('/'))
  it('matches **, *, ? and {a,b}, ignoring case', () => {
    expect(m('projects/**', 'projects/a/b/c.jsonl')).toBe(true)
    expect(m('projects/**', 'projects')).toBe(true)
    expect(m('tasks/*/{ui_messages,api_conversation_history}.json', 'tasks/17/ui_messages.json')).toBe(true)
    expect(m('tasks/*/{ui_messages,api_conversation_history}.json', 'tasks/17/settings.json')).toBe(false)
    expect(m('state_*.sqlite', 'state_5.sqlite')).toBe(true)
    expect(m('state_*.sqlite', 'state_5.sqlite-wal')).toBe(false)
    expect(m('*.db', 'opencode-beta.db')).toBe(true)
    expect(m('**/User/globalStorage/saoudrizwan.claude-dev/checkpoints/**', 'AppData/Roaming/Code/User/globalStorage/Saoudrizwan.Claude-Dev/checkpoints/1/HEAD')).toBe(true)
    expect(m('a.b', 'axb')).toBe(false)
  })

  it('tells a walk which folders can hold a match', () => {
    const g = compileGlob('tmp/*/chats/**')
    expect(couldMatchInside(g, ['tmp'])).toBe(true)
    expect(couldMatchInside(g, ['tmp', 'notes'])).toBe(true)
    expect(couldMatchInside(g, ['tmp', 'notes', 'chats', 'sub'])).toBe(true)
    expect(couldMatchInside(g, ['history'])).toBe(false)
    expect(couldMatchInside(compileGlob('*.db'), ['snapshot'])).toBe(false)
  })

  it('excludes the seed\'s scratch folders', () => {
    for (const p of ['.cline/data/checkpoint-scratch/x/index', '.cline/worktrees/t/a.ts', '.cline/data/workspaces/chat/f', '.cline/plugins/p.js', '.cline/data/agent-plugins/a']) {
      expect(EXCLUDED.some((g) => matchGlob(g, p.split('/'))), p).toBe(true)
    }
    expect(EXCLUDED.some((g) => matchGlob(g, '.cline/data/sessions/1/1.json'.split('/')))).toBe(false)
  })
})

describe('planHome', () => {
  it('puts stores moved by CLAUDE_CONFIG_DIR and CODEX_HOME back at their default place', async () => {
    const base = mkdtempSync(join(tmpdir(), 'sepia-plan-'))
    const home = join(base, 'home')
    mkdirSync(home)
    cpSync(join(ROOT, 'fixtures/real/claude-code/home/.claude'), join(base, 'elsewhere/claude'), { recursive: true })
    cpSync(join(ROOT, 'fixtures/real/codex/home/.codex'), join(base, 'elsewhere/codex'), { recursive: true })
    writeFileSync(join(base, 'elsewhere/codex/auth.json'), '{"OPENAI_API_KEY":"x"}')
    const layout = await layoutForHome({ home, os: 'linux', isOwnHome: true, env: { CLAUDE_CONFIG_DIR: join(base, 'elsewhere/claude'), CODEX_HOME: join(base, 'elsewhere/codex') }, run: async () => null })
    const plan = await planHome(layout, { includeCredentials: false, agents: AGENTS, ctx })
    const dests = plan.files.map((f) => f.dest)
    expect(dests).toContain('.claude/projects/-home-ana-src-ledger-api/c79310a4-1627-4beb-8788-81d2e0fc6af8.jsonl')
    expect(dests).toContain('.codex/state_5.sqlite')
    expect(dests.some((d) => d.startsWith('.codex/sessions/2026/11/30/rollout-'))).toBe(true)
    expect(dests.filter((d) => d.includes('elsewhere') || d.startsWith('..'))).toEqual([])
    expect(dests).not.toContain('.codex/auth.json')
    expect(plan.credentialsLeftOut).toBe(1)
    // SQLite companions travel with their database, never as files of their own.
    expect(dests.some((d) => /-(wal|shm)$/.test(d))).toBe(false)
    expect(plan.warnings).toEqual([])
  })
})
