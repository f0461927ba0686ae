/**
 * `sepia bundle`, `sepia install-bundle`, `sepia move` (issue 19), in process: a session of a copy
 * of fixtures/real/claude-code/home (written by Claude Code 2.1.332, project /home/ana/src/ledger-api)
 * bundled, installed into another home under a macOS-style project path, and moved to another
 * folder of its own home. Assertions read the written files directly.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli-run'
import { findAppRoot } from '../src/main/context'
import { createApi } from '../src/main/api'
import { processContext } from '../src/main/host'

const ROOT = findAppRoot()
const ID = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
const temps: string[] = []
const temp = (n: string): string => {
  const d = mkdtempSync(join(tmpdir(), `sepia-move-cli-${n}-`))
  temps.push(d)
  return d
}
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})

function copyHome(): string {
  const home = temp('home')
  cpSync(join(ROOT, 'fixtures/real/claude-code/home'), home, { recursive: true })
  return home
}

/** Every file under `dir` (relative path → its bytes as hex and its mtime in ms), and every folder's mtime. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string): void => {
    out[relative(dir, d) + '/'] = String(statSync(d).mtimeMs)
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else out[relative(dir, p)] = `${readFileSync(p).toString('hex')} ${statSync(p).mtimeMs}`
    }
  }
  walk(dir)
  return out
}

const cwdsOf = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { cwd?: string }).cwd)
    .filter((c): c is string => typeof c === 'string')

describe('sepia bundle / install-bundle / move', () => {
  it('bundles a session (saying secrets are included) and installs it into another home under a macOS path', async () => {
    const home = copyHome()
    const zip = join(temp('out'), 'ledger.zip')
    const b = await runCli('bundle', ID, '--home', home, '--out', zip)
    expect(b.err).toBe('')
    expect(b.code).toBe(0)
    expect(b.out).toContain('SECRETS INCLUDED')
    expect(existsSync(zip)).toBe(true)

    const target = temp('target')
    const r = await runCli('install-bundle', zip, '--project', '/Users/ana/src/ledger-api', '--target-home', target, '--json')
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ agent: 'claude-code', sessionId: ID, projectPath: '/Users/ana/src/ledger-api', originalProjectPath: '/home/ana/src/ledger-api' })
    const file = join(target, '.claude/projects/-Users-ana-src-ledger-api', `${ID}.jsonl`)
    const cwds = cwdsOf(file)
    expect(cwds.length).toBe(cwdsOf(join(home, '.claude/projects/-home-ana-src-ledger-api', `${ID}.jsonl`)).length)
    expect(new Set(cwds)).toEqual(new Set(['/Users/ana/src/ledger-api']))
    expect(readdirSync(join(target, '.claude/file-history', ID))).toEqual(['657b1f1da8359986@v2'])

    // Installed again: the id is taken, so the second copy gets a new one; the first is untouched.
    const before = readFileSync(file)
    const again = await runCli('install-bundle', zip, '--project', '/Users/ana/src/ledger-api', '--target-home', target, '--json')
    expect(again.code).toBe(0)
    expect(JSON.parse(again.out).sessionId).not.toBe(ID)
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it('moves a session to another folder of your own home, keeping the original; --remove-original removes it after a backup', async () => {
    const home = copyHome()
    const saved = process.env.HOME
    process.env.HOME = home // the copy is the user's own home here: move writes only into that one
    try {
      await movesInOwnHome(home)
    } finally {
      if (saved === undefined) delete process.env.HOME
      else process.env.HOME = saved
    }
  })

  it('refuses to move a session of a home opened with --home, writing and removing nothing there', async () => {
    const home = copyHome()
    const own = temp('own')
    const saved = process.env.HOME
    process.env.HOME = own
    try {
      const before = snapshot(home)
      for (const extra of [[], ['--remove-original']]) {
        const r = await runCli('move', ID, '--home', home, '--to-project', '/home/ana/work/ledger-api', ...extra)
        expect(r.code).toBe(1)
        expect(r.out).toBe('')
        expect(r.err).toContain('was opened with --home, so Sepia only reads it')
        expect(r.err).toContain(`sepia bundle ${ID} --home ${home} --out session.zip`)
        expect(r.err).toContain('--target-home')
        expect(snapshot(home)).toEqual(before)
      }
      expect(readdirSync(own)).toEqual([]) // nor into the user's own home
      // The API refuses the same for the app (no grant opens an opened home to a move).
      const api = createApi(processContext({ mode: 'browser', homes: [home] }))
      await expect(api.moveSession('claude-code', ID, { toProject: '/home/ana/work/ledger-api', removeOriginal: true })).rejects.toThrow('opened to read')
      await api.library.closeNow()
      expect(snapshot(home)).toEqual(before)
    } finally {
      if (saved === undefined) delete process.env.HOME
      else process.env.HOME = saved
    }
  })

  async function movesInOwnHome(home: string): Promise<void> {
    const original = join(home, '.claude/projects/-home-ana-src-ledger-api', `${ID}.jsonl`)
    const kept = await runCli('move', ID, '--to-project', '/home/ana/work/ledger-api')
    expect(kept.err).toBe('')
    expect(kept.code).toBe(0)
    expect(kept.out).toContain('is kept where it was')
    expect(existsSync(original)).toBe(true)
    const moved = readdirSync(join(home, '.claude/projects/-home-ana-work-ledger-api'))
    expect(moved).toHaveLength(1)
    expect(new Set(cwdsOf(join(home, '.claude/projects/-home-ana-work-ledger-api', moved[0]!)))).toEqual(new Set(['/home/ana/work/ledger-api']))

    const removed = await runCli('move', ID, '--to-project', '/home/ana/other/ledger-api', '--remove-original', '--json')
    expect(removed.err).toBe('')
    const r = JSON.parse(removed.out) as { original: { kept: boolean; backup: string } }
    expect(r.original.kept).toBe(false)
    expect(existsSync(original)).toBe(false)
    expect(existsSync(r.original.backup)).toBe(true)

    // The put-back the message names: the backup installed into the same (own) home brings the original back.
    const back = await runCli('install-bundle', r.original.backup, '--json')
    expect(back.err).toBe('')
    expect(JSON.parse(back.out)).toMatchObject({ sessionId: ID, projectPath: '/home/ana/src/ledger-api' })
    expect(existsSync(original)).toBe(true)
  }

  it('says what is missing', async () => {
    expect((await runCli('bundle', ID)).code).toBe(2)
    expect((await runCli('move', ID)).code).toBe(2)
    expect((await runCli('install-bundle')).code).toBe(2)
  })
})
