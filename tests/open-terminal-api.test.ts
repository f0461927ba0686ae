/**
 * Issue 17, "Open in terminal": `openInTerminal` opens a terminal only for a session this process
 * converted, with the resume command main built; the renderer's arguments name the session, never
 * a command. The terminal is recorded, not started (`AppContext.spawnTerminal`).
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { callEnveloped } from '../src/shared/api'
import { quoteArg } from '../src/shared/convert'
import { createApi } from '../src/main/api'
import { findAppRoot, type AppContext } from '../src/main/context'
import type { TerminalLaunch } from '../src/main/platform/terminal'

const ROOT = findAppRoot()
const CLINE = join(ROOT, 'fixtures/real/cline/home')
const TOOLS = '1796022183774_v75nv'

function setup(over: Partial<AppContext> = {}) {
  const launches: TerminalLaunch[] = []
  // A PATH with one fake terminal on it (never run: the launch is recorded).
  const bin = mkdtempSync(join(tmpdir(), 'sepia-bin-'))
  writeFileSync(join(bin, 'gnome-terminal'), '#!/bin/sh\nexit 0\n')
  chmodSync(join(bin, 'gnome-terminal'), 0o755)
  const ctx: AppContext = {
    mode: 'browser',
    version: '0.0.0-test',
    platform: 'linux',
    homes: [CLINE],
    fixturesDir: join(ROOT, 'fixtures'),
    env: { PATH: bin, DISPLAY: ':0' },
    ownHome: mkdtempSync(join(tmpdir(), 'sepia-own-home-')),
    now: () => 1_800_000_000_000,
    spawnTerminal: async (l) => void launches.push(l),
    ...over,
  }
  return { api: createApi(ctx), launches, ctx }
}

describe('openInTerminal', () => {
  it('opens the terminal with the resume command of a conversion it ran, in its folder', async () => {
    const { api, launches } = setup()
    const result = await api.convertSession('cline', TOOLS, 'claude-code')
    const opened = await api.openInTerminal('claude-code', result.sessionId)
    expect(launches).toHaveLength(1)
    const l = launches[0]!
    expect(l.terminal).toBe('gnome-terminal')
    expect(opened.terminal).toBe('gnome-terminal')
    // The command is the writer's own (`claude --resume <new id>`), with `cd` to the folder it gave.
    expect(result.resumeCommand).toBe(`claude --resume ${result.sessionId}`)
    const script = result.cwd ? `cd ${quoteArg(result.cwd, 'linux')} && claude --resume ${result.sessionId}` : `claude --resume ${result.sessionId}`
    expect(opened.command).toBe(script)
    expect(l.args).toEqual(['--', 'sh', '-c', `${script}; exec "\${SHELL:-/bin/sh}"`])
  })

  it('refuses a session it did not convert, whatever the caller sends, and opens nothing', async () => {
    const { api, launches } = setup()
    const result = await api.convertSession('cline', TOOLS, 'codex')
    for (const args of [
      ['claude-code', result.sessionId], // right id, wrong agent
      ['cline', TOOLS], // the source, not a conversion
      ['codex', 'rm -rf ~'],
      ['codex', `${result.sessionId}; touch /tmp/pwned`],
    ]) {
      const r = await callEnveloped(api, 'openInTerminal', args)
      expect(r.ok, String(args)).toBe(false)
      if (!r.ok) expect(r.error.code).toBe('NOT_FOUND')
    }
    for (const args of [['nope', 'x'], ['codex', '']]) {
      const r = await callEnveloped(api, 'openInTerminal', args)
      expect(r.ok).toBe(false)
    }
    expect(launches).toHaveLength(0)
  })

  it('refuses a session written into another home: the agent here would not find it', async () => {
    const { api, launches } = setup()
    const other = mkdtempSync(join(tmpdir(), 'sepia-other-home-'))
    const dir = await api.approveFolder(other, 'convert')
    const result = await api.convertSession('cline', TOOLS, 'gemini', { targetHome: other, grant: dir.token })
    const r = await callEnveloped(api, 'openInTerminal', ['gemini', result.sessionId])
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('UNAVAILABLE')
      expect(r.error.message).toMatch(/not into your own home folder.*Copy the command/)
    }
    expect(launches).toHaveLength(0)
  })

  it('says to copy the command when no terminal or no display is found', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'sepia-empty-bin-'))
    mkdirSync(join(empty, 'x'))
    const { api, launches } = setup({ env: { PATH: empty, DISPLAY: ':0' } })
    const result = await api.convertSession('cline', TOOLS, 'claude-code')
    const r = await callEnveloped(api, 'openInTerminal', ['claude-code', result.sessionId])
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/No terminal was found.*Copy the command/) })
    expect(launches).toHaveLength(0)
  })
})
