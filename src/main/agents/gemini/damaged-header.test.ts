/**
 * Issue 16 (silent drops found by the fuzz harness, tests/fuzz): a damaged header line changes
 * the `sessionId` a Gemini chats file is listed under, so the session read by its old id is gone.
 * Each case is a copy of the real home (fixtures/real/gemini/home) with one header damaged; the
 * expected sessions come from the file names of the copy, not from Sepia.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../../tests/helpers/golden'
import { readHome } from '../../../../tests/builders/gemini/testing'

const REAL = join(REPO_ROOT, 'fixtures', 'real', 'gemini', 'home')
const CHATS = '.gemini/tmp/notes-app/chats'
const THINK = 'session-2026-11-30T07-08-9fe12dc6.jsonl'
const THINK_ID = '9fe12dc6-5e67-4cc6-947f-f6b78f4fe8b1'
const temps: string[] = []
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})

/** A copy of the real home whose `THINK` header line is replaced by `edit(header bytes)`. */
function damaged(edit: (header: Buffer) => Buffer): { home: string; file: string } {
  const home = mkdtempSync(join(tmpdir(), 'sepia-gemini-hdr-'))
  temps.push(home)
  cpSync(REAL, home, { recursive: true })
  const file = join(home, CHATS, THINK)
  const bytes = readFileSync(file)
  const nl = bytes.indexOf(0x0a)
  writeFileSync(file, Buffer.concat([edit(bytes.subarray(0, nl)), bytes.subarray(nl)]))
  return { home, file }
}

/** Session ids of the copy other than THINK: the first 8 characters in each `session-*.jsonl` name. */
function otherPrefixes(home: string): string[] {
  return readdirSync(join(home, CHATS))
    .filter((n) => n.startsWith('session-') && n !== THINK)
    .map((n) => /-([0-9a-f]{8})\.jsonl?$/.exec(n)![1]!)
}

describe('gemini: a damaged header is named, the rest loads (issue 16)', () => {
  it('invalid UTF-8 inside the header sessionId: a warning on line 1 of the file; every other session loads', async () => {
    const { home, file } = damaged((h) => {
      const at = h.indexOf(Buffer.from(THINK_ID)) + 12 // after "9fe12dc6-5e6"
      return Buffer.concat([h.subarray(0, at), Buffer.from([0xc3, 0x28]), h.subarray(at)])
    })
    const r = await readHome(home)
    const warning = r.diagnostics.find((d) => d.path === file)
    expect(warning).toMatchObject({ severity: 'warning', line: 1 })
    expect(warning!.message).toContain('not valid UTF-8')
    // The session is still read (under the id the CLI would decode too), and nothing else is lost.
    const ids = r.sessions.map((s) => s.id)
    expect(ids.some((id) => id.startsWith('9fe12dc6-5e6\uFFFD('))).toBe(true)
    for (const p of otherPrefixes(home)) expect(ids.some((id) => id.startsWith(p)), p).toBe(true)
  })

  it('a header sessionId the file name does not match (a flipped character): a warning naming both', async () => {
    const { home, file } = damaged((h) => Buffer.from(h.toString('utf8').replace(THINK_ID, `1${THINK_ID.slice(1)}`)))
    const r = await readHome(home)
    const warning = r.diagnostics.find((d) => d.path === file)
    expect(warning?.message).toContain(`1${THINK_ID.slice(1)} does not start with 9fe12dc6`)
    expect(r.sessions.map((s) => s.id)).toContain(`1${THINK_ID.slice(1)}`)
    for (const p of otherPrefixes(home)) expect(r.sessions.some((s) => s.id.startsWith(p)), p).toBe(true)
  })

  it('a header whose projectHash is not text (fuzz seed 303): still the header, named on line 1; the session and its messages load', async () => {
    const { home, file } = damaged((h) => Buffer.from(h.toString('utf8').replace(/"projectHash":"[^"]*"/, '"projectHash":{}')))
    // Independent truth: the message lines of the damaged file (records with an "id").
    const messageIds = new Set(
      readFileSync(file, 'utf8')
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { id?: string }).id)
        .filter((id): id is string => typeof id === 'string'),
    )
    const r = await readHome(home)
    const session = r.sessions.find((s) => s.id === THINK_ID)
    expect(session).toBeDefined()
    const warning = (session!.diagnostics ?? []).find((d) => d.path === file && /projectHash/.test(d.message))
    expect(warning).toMatchObject({ severity: 'warning', line: 1 })
    expect(session!.nodes.length).toBeGreaterThan(0)
    expect(messageIds.size).toBeGreaterThan(0)
    for (const p of otherPrefixes(home)) expect(r.sessions.some((s) => s.id.startsWith(p)), p).toBe(true)
  })

  it('an undamaged home gets neither warning', async () => {
    const r = await readHome(REAL)
    expect(r.diagnostics.filter((d) => /UTF-8|does not start with/.test(d.message))).toEqual([])
    expect(r.sessions.flatMap((s) => s.diagnostics ?? []).filter((d) => /projectHash/.test(d.message))).toEqual([])
  })

  it('a bad escape in the sessionId of a pretty-printed session does not stop discovery', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-gemini-esc-'))
    temps.push(home)
    cpSync(REAL, home, { recursive: true })
    const file = join(home, CHATS, 'session-2026-11-30T07-09-0badc0de.json')
    writeFileSync(file, '{\n  "sessionId": "\\u12",\n  "projectHash": "x",\n  "messages": []\n}\n')
    const r = await readHome(home)
    for (const p of otherPrefixes(home).filter((p) => p !== '0badc0de')) expect(r.sessions.some((s) => s.id.startsWith(p)), p).toBe(true)
    expect(r.sessions.some((s) => s.id === 'session-2026-11-30T07-09-0badc0de')).toBe(true)
  })
})
