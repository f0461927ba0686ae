/** `sepia export` and `sepia collect` on the real fixture homes, through `main()`. */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../src/cli/index'
import { findAppRoot } from '../src/main/context'
import { validateAtif } from '../src/main/export/atif-validate'
import type { BundleManifest } from '../src/main/bundle/manifest'
import { readZipDirectory } from '../src/main/bundle/zip'
import { runCli } from './helpers/cli-run'

const ROOT = findAppRoot()
const CC = join(ROOT, 'fixtures/real/claude-code/home')
const CLINE = join(ROOT, 'fixtures/real/cline/home')

async function run(...argv: string[]) {
  const prev = process.env.SEPIA_DATA_DIR
  process.env.SEPIA_DATA_DIR = mkdtempSync(join(tmpdir(), 'sepia-cli-data-'))
  try {
    return await runCli(...argv)
  } finally {
    if (prev === undefined) delete process.env.SEPIA_DATA_DIR
    else process.env.SEPIA_DATA_DIR = prev
  }
}

const tmp = (n: string) => mkdtempSync(join(tmpdir(), `sepia-cli-${n}-`))

describe('sepia export', () => {
  it('exports one session by id prefix as Markdown, without thinking or tool output when asked', async () => {
    const dir = tmp('md')
    const r = await run('export', 'c79310a4', '--format', 'md', '--out', dir, '--home', CC, '--no-thinking', '--no-tool-output')
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain(`Wrote 1 file to ${dir}`)
    const files = readdirSync(dir)
    expect(files).toEqual(['claude-code_2026-11-30_tools-List-the-files-then-create-NOTES.m_c79310a4-1627-4beb-8788-81d2e0fc6af8.md'])
    const md = readFileSync(join(dir, files[0]!), 'utf8')
    expect(md).toContain('[tools] List the files, then create NOTES.md and mark its TODO line as done.')
    expect(md).toContain('**Tool call: Bash** (execute) — completed')
    expect(md).not.toContain('Thinking')
    expect(md).not.toContain('drwxr-xr-x')
  })

  it('exports a project and everything, as ATIF that validates', async () => {
    const proj = tmp('proj')
    const r = await run('export', '--project', '/home/ana/src/ledger-api', '--format', 'html', '--out', proj, '--home', CC, '--home', CLINE, '--json')
    expect(r.code, r.err).toBe(0)
    const result = JSON.parse(r.out) as { files: { path: string; agent: string }[] }
    expect(result.files.length).toBe(6)
    expect(result.files.every((f) => f.agent === 'claude-code' && f.path.endsWith('.html'))).toBe(true)

    const all = tmp('all')
    const a = await run('export', '--all', '--format', 'atif', '--out', all, '--home', CC, '--home', CLINE)
    expect(a.code, a.err).toBe(0)
    const files = readdirSync(all)
    expect(files.length).toBe(11)
    for (const f of files) expect(validateAtif(JSON.parse(readFileSync(join(all, f), 'utf8'))), f).toEqual([])
  })

  it('says what is missing', async () => {
    expect((await run('export', '--all', '--out', tmp('x'), '--home', CC)).code).toBe(2)
    expect((await run('export', '--all', '--format', 'docx', '--out', tmp('x'), '--home', CC)).err).toContain('--format md, html, json, atif or pdf')
    expect((await run('export', '--format', 'md', '--home', CC)).err).toContain('needs --out DIR')
    expect((await run('export', 'abc', '--all', '--format', 'md', '--out', tmp('x'), '--home', CC)).code).toBe(2)
    const none = await run('export', 'nope', '--format', 'md', '--out', tmp('x'), '--home', CC)
    expect(none.code).toBe(1)
    expect(none.err).toContain('No session "nope"')
    const noProject = await run('export', '--project', '/nowhere', '--format', 'md', '--out', tmp('x'), '--home', CC)
    expect(noProject.err).toContain('No session in the open folders has the project /nowhere')
  })
})

describe('sepia collect', () => {
  it('writes a zip bundle of the given homes, credentials left out', async () => {
    const out = join(tmp('zip'), 'review.zip')
    const r = await run('collect', '--home', CC, '--home', CLINE, '--out', out, '--zip')
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain(`into ${out}`)
    expect(r.out).toContain('claude-code: 10 files')
    expect(r.out).toContain('2 credential files left out')
    const names = (await readZipDirectory(out)).map((e) => e.name)
    expect(names).toContain('sepia-manifest.json')
    expect(names.some((n) => n.includes('providers.json'))).toBe(false)
  })

  it('writes a folder bundle with credentials when asked', async () => {
    const out = join(tmp('folder'), 'review')
    const r = await run('collect', '--home', CLINE, '--out', out, '--include-credentials', '--json')
    expect(r.code, r.err).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ path: out, credentialsLeftOut: 0 })
    const m = JSON.parse(readFileSync(join(out, 'sepia-manifest.json'), 'utf8')) as BundleManifest
    expect(m.includeCredentials).toBe(true)
    expect(existsSync(join(out, '.cline/data/settings/providers.json'))).toBe(true)
    expect((await run('collect', '--home', CLINE, '--out', out)).err).toContain('already exists')
  })
})
