/**
 * Convert through the API (`convertTargets`, `planConvert`, `convertSession`) and the CLI
 * (`sepia convert`). Every write goes to a temporary folder: the context's own home is a temp dir.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AGENTS } from '../src/main/agents/registry'
import { createApi } from '../src/main/api'
import { findAppRoot, type AppContext } from '../src/main/context'
import { FAKE_SECRETS } from './builders/secrets/fake-secrets'
import { runCli } from './helpers/cli-run'

const ROOT = findAppRoot()
const CLINE = join(ROOT, 'fixtures/real/cline/home')
const TOOLS = '1796022183774_v75nv'
/** Agents Sepia can write, in registry order (the targets offered). */
const WRITABLE = AGENTS.filter((a) => a.capabilities.canWrite).map((a) => a.id)

function context(over: Partial<AppContext> = {}): AppContext {
  return {
    mode: 'browser',
    version: '0.0.0-test',
    platform: 'linux',
    homes: [CLINE],
    fixturesDir: join(ROOT, 'fixtures'),
    env: {},
    ownHome: mkdtempSync(join(tmpdir(), 'sepia-own-home-')),
    now: () => 1_800_000_000_000,
    ...over,
  }
}

const cli = runCli

describe('convert API', () => {
  it('lists every target with what it would change, and writes nothing', async () => {
    const ctx = context()
    const api = createApi(ctx)
    const plans = await api.convertTargets('cline', TOOLS)
    expect(plans.map((p) => p.target.agent)).toEqual(WRITABLE.filter((a) => a !== 'cline'))
    expect(plans.map((p) => p.target.agent)).toContain('codex')
    const p = plans[0]!
    expect(p.counts).toEqual({ userMessages: 2, assistantMessages: 6, toolCalls: 4, toolResults: 4, pairedCalls: 4 })
    expect(p.warnings).toContainEqual({ kind: 'tool-mapped', count: 2, from: 'run_commands', to: 'Bash' })
    expect(p.warnings).toContainEqual({ kind: 'thinking-unsigned-dropped', count: 1 })
    expect(p.losses).toBeGreaterThan(0)
    expect(p.resumeCommand).toMatch(/^claude --resume [0-9a-f-]{36}$/)
    expect(p.cwd).toBe('/home/ana/src/invoice-service')
    expect(p.files[0]!.startsWith(join(ctx.ownHome, '.claude/projects/-home-ana-src-invoice-service/'))).toBe(true)
    expect(readdirSync(ctx.ownHome)).toEqual([])
  })

  it('offers a legacy Cline task to Cline itself (into its SDK store), but not an SDK session', async () => {
    const api = createApi(context({ homes: [CLINE, join(ROOT, 'fixtures/real/cline-legacy/home')] }))
    expect((await api.convertTargets('cline', '1796022270019')).map((p) => p.target.agent)).toEqual(WRITABLE)
    expect((await api.convertTargets('cline', TOOLS)).map((p) => p.target.agent)).toEqual(WRITABLE.filter((a) => a !== 'cline'))
  })

  it('converts into the own home by default, reads it back and shows it in the library when that home is open', async () => {
    const own = mkdtempSync(join(tmpdir(), 'sepia-own-home-'))
    const api = createApi(context({ homes: [CLINE, own], ownHome: own }))
    const r = await api.convertSession('cline', TOOLS, 'claude-code')
    expect(r.verification).toMatchObject({ ok: true, differences: [] })
    expect(r.files).toHaveLength(1)
    expect(existsSync(r.files[0]!)).toBe(true)
    expect(r.files[0]!.startsWith(own)).toBe(true)
    expect(r.resumeShellCommand).toBe(`cd /home/ana/src/invoice-service && claude --resume ${r.sessionId}`)
    const lib = await api.getLibrary()
    expect(lib.sessions.some((s) => s.agent === 'claude-code' && s.id === r.sessionId)).toBe(true)
  })

  it('a Claude Code session converted to Codex or Gemini lists with the source\'s start, last activity and model', async () => {
    const CLAUDE = join(ROOT, 'fixtures/real/claude-code/home')
    const SID = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
    for (const target of ['codex', 'gemini'] as const) {
      const own = mkdtempSync(join(tmpdir(), `sepia-own-home-${target}-`))
      const api = createApi(context({ homes: [CLAUDE, own], ownHome: own }))
      const r = await api.convertSession('claude-code', SID, target)
      expect(r.verification, target).toMatchObject({ ok: true })
      const lib = await api.getLibrary()
      const source = lib.sessions.find((s) => s.agent === 'claude-code' && s.id === SID)!
      const converted = lib.sessions.find((s) => s.agent === target && s.id === r.sessionId)!
      expect(source.model, target).toBeDefined()
      // The conversion ran at `now` (1_800_000_000_000): the listing keeps the source's times instead.
      expect({ createdAt: converted.createdAt, model: converted.model }, target).toEqual({ createdAt: source.createdAt, model: source.model })
      expect(converted.lastActivityAt, target).toBeLessThan(1_800_000_000_000)
    }
  })

  it('writes into a chosen folder only once the user picked it', async () => {
    const api = createApi(context())
    const target = mkdtempSync(join(tmpdir(), 'sepia-target-'))
    await expect(api.planConvert('cline', TOOLS, 'claude-code', { targetHome: target })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    api.paths.allow(target, 'picked')
    const r = await api.convertSession('cline', TOOLS, 'claude-code', { targetHome: target, textOnly: true })
    expect(r.textOnly).toBe(true)
    expect(r.warnings).toContainEqual({ kind: 'tools-as-text', count: 4 })
    expect(r.verification.ok).toBe(true)
    const text = readFileSync(r.files[0]!, 'utf8')
    expect(text).not.toContain('"tool_use"')
    expect(text).toContain('[Tool call: run_commands]')
  })

  it('rejects what it cannot do, in plain words', async () => {
    const api = createApi(context())
    await expect(api.planConvert('cline', TOOLS, 'cursor')).rejects.toMatchObject({ code: 'CANNOT_WRITE', message: expect.stringContaining('cannot write Cursor') })
    await expect(api.planConvert('cline', TOOLS, 'nope' as never)).rejects.toMatchObject({ code: 'UNKNOWN_AGENT' })
    await expect(api.planConvert('cline', 'no-such-id', 'claude-code')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' })
    await expect(api.planConvert('cline', TOOLS, 'claude-code', { textOnly: 'yes' as never })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    await expect(api.planConvert('cline', TOOLS, 'claude-code', { cwd: 'relative/path' })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
  })

  it('keeps secrets masked in the converted session unless the user revealed that session', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-secret-home-'))
    cpSync(join(ROOT, 'fixtures/real/claude-code/home'), home, { recursive: true })
    const secret = FAKE_SECRETS[0]!.secret
    const id = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
    const file = join(home, '.claude/projects/-home-ana-src-ledger-api', `${id}.jsonl`)
    writeFileSync(file, readFileSync(file, 'utf8').replace('"Let me look at the project first."', `"Let me look at the project first. export ANTHROPIC_API_KEY=${secret}"`))
    const own = mkdtempSync(join(tmpdir(), 'sepia-own-home-'))
    const api = createApi(context({ homes: [home], ownHome: own }))
    const masked = await api.convertSession('claude-code', id, 'cline')
    expect(masked.warnings).toContainEqual({ kind: 'secrets-masked', count: 1 })
    const maskedText = readFileSync(masked.files[0]!, 'utf8')
    expect(maskedText).not.toContain(secret)
    expect(maskedText).toContain('export ANTHROPIC_API_KEY=sk-a')
    await api.revealSecrets('claude-code', id)
    const revealed = await api.convertSession('claude-code', id, 'cline')
    expect(revealed.warnings.some((w) => w.kind === 'secrets-masked')).toBe(false)
    expect(readFileSync(revealed.files[0]!, 'utf8')).toContain(secret)
    expect(JSON.stringify(revealed)).not.toContain(secret)
    // "Hide again" (or leaving the session) tells main: the next conversion is masked again.
    expect(await api.hideSecrets('claude-code', id)).toBe(true)
    expect(await api.hideSecrets('claude-code', id)).toBe(false)
    const again = await api.convertSession('claude-code', id, 'cline')
    expect(readFileSync(again.files[0]!, 'utf8')).not.toContain(secret)
    await expect(api.hideSecrets('nobody' as never, id)).rejects.toMatchObject({ code: 'UNKNOWN_AGENT' })
  })
})

describe('sepia convert', () => {
  it('--dry-run prints what changes and writes nothing', async () => {
    const target = mkdtempSync(join(tmpdir(), 'sepia-cli-target-'))
    const r = await cli('convert', '1796022183774', '--to', 'claude-code', '--home', CLINE, '--target-home', target, '--dry-run')
    expect(r.code).toBe(0)
    expect(r.out).toContain('Convert cline session 1796022183774_v75nv')
    expect(r.out).toContain('changed 2 run_commands calls written as Bash.')
    expect(r.out).toContain('lost    1 thinking block without a provider signature left out')
    expect(r.out).toContain('cd /home/ana/src/invoice-service && claude --resume <new id>')
    expect(readdirSync(target)).toEqual([])
  })

  it('converts, prints where it went and the resume command; --json gives the result', async () => {
    const target = mkdtempSync(join(tmpdir(), 'sepia-cli-target-'))
    mkdirSync(join(target, 'x'))
    const r = await cli('convert', '1796022183774', '--to', 'claude-code', '--home', CLINE, '--target-home', target, '--json')
    expect(r.code).toBe(0)
    const result = JSON.parse(r.out)
    expect(result.verification.ok).toBe(true)
    expect(existsSync(result.files[0])).toBe(true)
    expect(result.resumeShellCommand).toBe(`cd /home/ana/src/invoice-service && claude --resume ${result.sessionId}`)

    const cc = join(ROOT, 'fixtures/real/claude-code/home')
    const t = await cli('convert', 'c79310a4', '--to', 'cline', '--home', cc, '--target-home', target)
    expect(t.code).toBe(0)
    expect(t.out).toMatch(/Wrote Cline session \d{13}_[a-z0-9]{5} from claude-code session c79310a4/)
    expect(t.out).toMatch(/cd \/home\/ana\/src\/ledger-api && cline --id \d{13}_[a-z0-9]{5}/)
    expect(t.out).toContain("Read back with Sepia's Cline reader: the same")
  })

  it('--project writes the session for another project folder (issue 14), quoted in the resume hint', async () => {
    const target = mkdtempSync(join(tmpdir(), 'sepia-cli-target-'))
    const project = join(target, 'My Project')
    const r = await cli('convert', '1796022183774', '--to', 'claude-code', '--home', CLINE, '--target-home', target, '--project', project, '--dry-run', '--json')
    expect(r.code).toBe(0)
    const plan = JSON.parse(r.out) as { projectFolder: string; cwd: string; resumeShellCommand: string; files: string[] }
    expect(plan.projectFolder).toBe(project)
    expect(plan.cwd).toBe(project)
    expect(plan.resumeShellCommand).toMatch(new RegExp(`^cd '${project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}' && claude --resume `))
    expect(plan.files[0]).toContain(project.replace(/[^a-zA-Z0-9]/g, '-'))
    expect(readdirSync(target)).toEqual([])
  })

  it('says what is missing', async () => {
    expect((await cli('convert', '1796022183774', '--home', CLINE)).code).toBe(2)
    const r = await cli('convert', '1796022183774', '--to', 'cursor', '--home', CLINE, '--dry-run')
    expect(r.code).toBe(1)
    expect(r.err).toContain('cannot write Cursor')
  })
})
