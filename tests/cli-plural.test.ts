/**
 * Counts in the CLI's output say "1 session", "2 sessions" (the new-user pass of session 9 found
 * "1 session(s)", "7 row(s)" and the like): `plural` of src/shared/plural.ts, and `sepia list`'s
 * first line on a home of one session, then of two. And no message text in the sources says
 * "record(s)", "row(s)" and the like any more (the readers' diagnostics, restore and archive
 * messages: session 11 found them on published sessions).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { plural } from '../src/shared/plural'
import { runCli } from './helpers/cli-run'
import { tempDirs } from './helpers/temp'
import { REPO_ROOT } from './helpers/golden'

const temp = tempDirs()

function writeSession(dir: string, id: string): void {
  const base = { sessionId: id, cwd: '/home/ana/app', version: '2.1.300' }
  const records = [{ ...base, type: 'user', uuid: `u-${id}`, parentUuid: null, timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content: 'hello' } }]
  writeFileSync(join(dir, `${id}.jsonl`), records.map((r) => JSON.stringify(r)).join('\n') + '\n')
}

describe('counts in the singular and plural', () => {
  it('plural', () => {
    expect([plural(0, 'session'), plural(1, 'session'), plural(2, 'session'), plural(1, 'match', 'matches'), plural('3+', 'match', 'matches')]).toEqual(['0 sessions', '1 session', '2 sessions', '1 match', '3+ matches'])
  })

  it('sepia list: "1 session in", then "2 sessions in"', async () => {
    const home = temp('sepia-plural-')
    const dir = join(home, '.claude/projects/-home-ana-app')
    mkdirSync(dir, { recursive: true })
    writeSession(dir, '7d3c1e52-9a41-4b8e-b0c3-2f6d4a1e8b90')
    const one = await runCli('list', '--home', home)
    expect(one.out.split('\n')[0]).toBe(`1 session in ${home}`)
    // The session holds one message (written above): "1 msg", in the column the others line up in.
    expect(one.out).toMatch(/^ {4}7d3c1e52-9a41-4b8e-b0c3-2f6d4a1e8b90 {2}\d{4}-\d\d-\d\d \d\d:\d\d {4}1 msg {3}/m)
    expect(one.out).not.toContain('1 msgs')
    writeSession(dir, '8e4d2f63-0b52-4c9f-81d4-3a7e5b2f9ca1')
    const two = await runCli('list', '--home', home)
    expect(two.out.split('\n')[0]).toBe(`2 sessions in ${home}`)
  })
})

/** Source files (`.ts`, `.vue`, `.json`, tests aside) under `dir`. */
function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) sources(p, out)
    else if (/\.(ts|vue|json)$/.test(e.name) && !e.name.endsWith('.test.ts')) out.push(p)
  }
  return out
}

describe('no "(s)" in message texts', () => {
  it('src/main, src/shared, src/renderer and src/cli count with plural(), not "record(s)"', () => {
    // A word, "(s)", then a word or "]": "3 record(s) have", "[1 image(s)]". Code such as
    // `push(s)` or `(s) =>` does not look like that; comments are skipped.
    const found: string[] = []
    for (const root of ['src/main', 'src/shared', 'src/renderer', 'src/cli']) {
      for (const f of sources(join(REPO_ROOT, root))) {
        readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
          if (/^\s*(\*|\/\/|\/\*)/.test(line)) return
          if (/[a-z]{2,}\(s\) [a-z]|[a-z]{3,}\(s\)\]/.test(line)) found.push(`${relative(REPO_ROOT, f)}:${i + 1}: ${line.trim()}`)
        })
      }
    }
    expect(found).toEqual([])
  })
})
