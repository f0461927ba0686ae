/**
 * Issue 16, special files: a FIFO in place of a store file opened by name must not hang, a link
 * to /dev/zero must not be read, and hostile nesting must not overflow the timeline.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApi } from '../src/main/api'
import { findAppRoot } from '../src/main/context'
import { inputText, makeSecondaryRow, pairs } from '../src/main/agents/cline/timeline/rows'
import { readRegularBytes, readRegularBytesSync, readRegularFile } from '../src/main/util/regular-file'
import { openSqliteReadOnly } from '../src/main/util/sqlite'

const ROOT = findAppRoot()
const tmp = (n: string) => mkdtempSync(join(tmpdir(), `sepia-i16s-${n}-`))
const posix = process.platform !== 'win32'

function fifo(path: string): void {
  mkdirSync(dirname(path), { recursive: true })
  execFileSync('mkfifo', [path])
}

describe.runIf(posix)('issue 16: special files', () => {
  it('the file helpers refuse a FIFO and a device at once, and cap a whole read', async () => {
    const dir = tmp('util')
    fifo(join(dir, 'pipe'))
    await expect(readRegularFile(join(dir, 'pipe'))).rejects.toMatchObject({ code: 'ENOTREGULAR' })
    expect(() => openSqliteReadOnly(join(dir, 'pipe'))).toThrow(/named pipe/)
    symlinkSync('/dev/zero', join(dir, 'zero.json'))
    await expect(readRegularFile(join(dir, 'zero.json'))).rejects.toMatchObject({ code: 'ENOTREGULAR' })
    writeFileSync(join(dir, 'big'), Buffer.alloc(2048, 97))
    await expect(readRegularFile(join(dir, 'big'), 1024)).rejects.toMatchObject({ code: 'ETOOBIG' })
    expect(await readRegularFile(join(dir, 'big'), 4096)).toHaveLength(2048)
  })

  it('the synchronous whole read of the indexing workers refuses and caps as the promise one does', async () => {
    const dir = tmp('sync')
    fifo(join(dir, 'pipe'))
    expect(() => readRegularBytesSync(join(dir, 'pipe'))).toThrow(expect.objectContaining({ code: 'ENOTREGULAR' }))
    symlinkSync('/dev/zero', join(dir, 'zero.json'))
    expect(() => readRegularBytesSync(join(dir, 'zero.json'))).toThrow(expect.objectContaining({ code: 'ENOTREGULAR' }))
    writeFileSync(join(dir, 'big'), Buffer.from('héllo wörld\n'.repeat(200)))
    expect(() => readRegularBytesSync(join(dir, 'big'), 1024)).toThrow(expect.objectContaining({ code: 'ETOOBIG' }))
    expect(readRegularBytesSync(join(dir, 'big'))).toEqual(await readRegularBytes(join(dir, 'big')))
    writeFileSync(join(dir, 'empty'), '')
    expect(readRegularBytesSync(join(dir, 'empty'))).toHaveLength(0)
    await expect(readRegularBytes(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' })
    expect(() => readRegularBytesSync(join(dir, 'missing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }))
  })

  it('a home with FIFOs for every database and /dev/zero as projects.json lists, with diagnostics', async () => {
    const home = tmp('home')
    for (const f of ['.cline/data/db/sessions.db', '.codex/state_5.sqlite', '.local/share/opencode/opencode.db', '.config/Cursor/User/globalStorage/state.vscdb', '.cline/data/tasks/1700000000000/api_conversation_history.json']) fifo(join(home, f))
    mkdirSync(join(home, '.gemini', 'tmp'), { recursive: true })
    symlinkSync('/dev/zero', join(home, '.gemini', 'projects.json'))
    const api = createApi({ mode: 'browser', version: '9.9.9', platform: 'linux', homes: [home], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: tmp('own'), appDataDir: tmp('data') })
    const lib = await api.getLibrary({ refresh: true })
    expect(Array.isArray(lib.sessions)).toBe(true)
    const said = JSON.stringify(lib.diagnostics)
    expect(said).toMatch(/not a regular file/)
  }, 20_000)

  it('a tool input nested 3,500 levels deep keeps the 64-level cap in timeline rows', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 3500; i++) deep = { a: deep }
    expect(inputText(deep)).toContain('nested more than 64 levels')
    expect(pairs([['input', deep]])).toContain('nested more than 64 levels')
    const row = makeSecondaryRow({ recovered: { source: 'x' } } as never, { input: deep })
    expect(() => structuredClone(row)).not.toThrow()
    expect(JSON.stringify(row)).toContain('nested more than 64 levels')
  })
})

describe('issue 16: empty session files', () => {
  it('an empty or {} session file is a diagnostic, not a silent 0-message session', async () => {
    const home = tmp('empty')
    const dir = join(home, '.claude', 'projects', '-tmp-p')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, '11111111-2222-4333-8444-000000000001.jsonl'), '')
    writeFileSync(join(dir, '11111111-2222-4333-8444-000000000002.jsonl'), '{}\n')
    const api = createApi({ mode: 'browser', version: '9', platform: 'linux', homes: [home], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: tmp('own'), appDataDir: tmp('data') })
    const lib = await api.getLibrary({ refresh: true })
    const empty = lib.sessions.filter((x) => x.messageCount === 0)
    expect(empty).toHaveLength(2)
    for (const s of empty) {
      const full = await api.getSession(s.agent, s.id)
      expect(full.diagnostics.map((d) => d.message).join(' '), s.id).toMatch(/empty|holds only/)
    }
  })
})
