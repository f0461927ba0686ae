/**
 * Reading never changes the source, and a chats file cut short mid-line (a crash) still loads.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { REPO_ROOT } from '../../../../tests/helpers/golden'
import { snapshotTree } from '../../../../tests/helpers/snapshot'
import { readHome } from '../../../../tests/builders/gemini/testing'

const REAL = join(REPO_ROOT, 'fixtures', 'real', 'gemini')
const TOOLS = 'be4de2a3-6e23-4edb-b159-4ad1e07d6e97'
const temps: string[] = []
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})

describe('gemini reader safety', () => {
  it('reading the real and hand-written homes changes no byte and adds no file', async () => {
    const roots = [join(REAL, 'home'), join(REAL, 'handwritten')]
    const before = roots.map(snapshotTree)
    await readHome(join(REAL, 'home'))
    for (const d of ['00-chats-session-jsonl-header-line-2-message-lines-projects-jso', '03-no-header-line', '04-legacy-single-object-session-json']) {
      await readHome(join(REAL, 'handwritten', d, 'home'))
    }
    expect(roots.map(snapshotTree)).toEqual(before)
  })

  it('a truncated last line: one error diagnostic on that line, every earlier record loads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-gemini-cut-'))
    temps.push(home)
    cpSync(join(REAL, 'home'), home, { recursive: true })
    const file = join(home, '.gemini/tmp/notes-app/chats/session-2026-11-30T07-08-be4de2a3.jsonl')
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
    // Cut the last message line (the final answer) in half and drop what follows it.
    const lastMessage = lines.findLastIndex((l) => l.startsWith('{"id"'))
    const cut = lines.slice(0, lastMessage).concat(lines[lastMessage]!.slice(0, 60))
    writeFileSync(file, cut.join('\n'))
    const s = (await readHome(home)).byId(TOOLS)
    expect(s.diagnostics).toHaveLength(1)
    expect(s.diagnostics[0]).toMatchObject({ severity: 'error', line: lastMessage + 1 })
    expect(s.diagnostics[0]!.message).toMatch(/last line is cut short/)
    expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(5)
    expect(countPairedToolCalls(s)).toEqual({ calls: 4, paired: 4 })
    expect(s.nodes[s.nodes.length - 1]!.role).toBe('tool')
  })
})
