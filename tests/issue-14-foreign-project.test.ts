/**
 * Issue 14, "Conversion of real sessions": a session whose project folder is from another OS
 * (`D:\OneDrive - Acme Corp\src\app_v2` converted on Linux) is never resolved against the folder
 * Sepia runs in, the plan says so in plain words and offers the project folder to re-target, and
 * every resume hint is quoted for the target's shell.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cdAndRun, describeWarning, isAbsoluteOn, quoteArg } from '../src/shared/convert'
import type { Session } from '../src/shared/ir'
import { geminiProjectFolder, normalizeProjectPath } from '../src/main/agents/gemini/write-project'
import { AGENTS } from '../src/main/agents/registry'
import { planConversion, runConversion } from '../src/main/convert/convert'
import { FIXTURE_SOURCES, readFixtureSessions } from './builders/fixture-sources'
import { layoutForHome } from '../src/main/platform'

const WIN = 'D:\\OneDrive - Acme Corp\\src\\app_v2'
const homes: string[] = []
const tmpHome = (): string => {
  const h = mkdtempSync(join(tmpdir(), 'sepia-i14-'))
  homes.push(h)
  return h
}
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })))

async function clineSession(cwd: string): Promise<Session> {
  const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((s) => s.label === 'cline')!)
  const s = structuredClone(sessions.find((x) => x.id === '1796022183774_v75nv')!)
  s.workingDirectory = cwd
  return s
}

describe('paths of another OS', () => {
  it('tells absolute paths per OS', () => {
    expect(isAbsoluteOn(WIN, 'linux')).toBe(false)
    expect(isAbsoluteOn('C:\\Users\\ana', 'darwin')).toBe(false)
    expect(isAbsoluteOn(WIN, 'win32')).toBe(true)
    expect(isAbsoluteOn('\\\\server\\share\\x', 'win32')).toBe(true)
    expect(isAbsoluteOn('/home/ana', 'win32')).toBe(false)
    expect(isAbsoluteOn('/home/ana', 'linux')).toBe(true)
  })

  it('Gemini: a Windows folder on a Linux home does not depend on the process cwd', () => {
    const before = process.cwd()
    const a = normalizeProjectPath(WIN, 'linux')
    process.chdir(tmpdir())
    try {
      expect(normalizeProjectPath(WIN, 'linux')).toBe(a)
    } finally {
      process.chdir(before)
    }
    expect(a).toBe(WIN)
    expect(a.startsWith(before)).toBe(false)
    const dir = join(tmpHome(), '.gemini')
    expect(geminiProjectFolder(dir, WIN, 'linux').projectPath).toBe(WIN)
  })

  for (const target of ['gemini', 'opencode', 'claude-code'] as const) {
    it(`${target}: the plan warns about a foreign project folder, and --project re-targets it`, async () => {
      const home = tmpHome()
      const layout = await layoutForHome({ home })
      const def = AGENTS.find((a) => a.id === target)!
      const base = { target: def, layout, textOnly: false, now: () => 1_800_000_000_000, ctx: { now: () => 1_800_000_000_000 } as never }
      const plan = await planConversion({ ...base, session: await clineSession(WIN) })
      const w = plan.warnings.find((x) => x.kind === 'foreign-project-path')
      expect(w).toBeDefined()
      expect(describeWarning(w!)).toContain('not a folder on Linux')
      expect(plan.projectFolder).toBe(WIN)
      expect(plan.foreignProjectFolder).toBe(true)
      const project = join(home, 'My Project')
      const fixed = await planConversion({ ...base, session: await clineSession(WIN), cwd: project })
      expect(fixed.warnings.some((x) => x.kind === 'foreign-project-path')).toBe(false)
      expect(fixed.projectFolder).toBe(project)
      expect(fixed.foreignProjectFolder).toBeUndefined()
      expect(fixed.resumeShellCommand).toBe(`cd '${project}' && ${fixed.resumeCommand}`)
    })
  }

  it('gemini: the written .project_root names the folder as given, not under the process cwd', async () => {
    const home = tmpHome()
    const layout = await layoutForHome({ home })
    const def = AGENTS.find((a) => a.id === 'gemini')!
    const r = await runConversion({ target: def, layout, textOnly: false, now: () => 1_800_000_000_000, ctx: { now: () => 1_800_000_000_000 } as never, session: await clineSession(WIN) })
    const marker = r.files.find((f) => f.endsWith('.project_root'))!
    expect(readFileSync(marker, 'utf8')).toBe(WIN)
  })
})

describe('resume hints are quoted', () => {
  it('POSIX single quotes, PowerShell single quotes on Windows', () => {
    expect(quoteArg("it's here", 'linux')).toBe(`'it'\\''s here'`)
    expect(quoteArg("it's here", 'win32')).toBe(`'it''s here'`)
    expect(quoteArg('abc-123', 'win32')).toBe('abc-123')
    expect(cdAndRun('/home/a b', 'claude --resume x', 'linux')).toBe(`cd '/home/a b' && claude --resume x`)
    expect(cdAndRun(WIN, 'claude --resume x', 'win32')).toBe(`Set-Location -LiteralPath '${WIN}'; claude --resume x`)
  })
})
