/**
 * Cursor agent CLI edge cases: public transcript samples, a truncated last line, the byte-scan
 * fallback of the tree decoder, and reading that never changes the source.
 */
import { copyFileSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, expectGolden } from '../../../../tests/helpers/golden'
import { snapshotTree } from '../../../../tests/helpers/snapshot'
import { closeCursorSnapshots } from '../cursor'
import { tempHome } from '../../../../tests/builders/cursor/fixtures'
import { readGenerated, withoutHome } from '../../../../tests/builders/cursor/testing'
import { projectFolder } from '../../../../tests/builders/cursor-agent/fixtures'
import { AGENT, writeAgentHome } from '../../../../tests/builders/cursor-agent/fixtures-home'
import { writeAgentNegativeHome } from '../../../../tests/builders/cursor-agent/fixtures-negative'
import { cursorAgent } from './index'
import { decodeTree, leafPayload } from './protobuf'

const PUBLIC = join(REPO_ROOT, 'fixtures', 'public', 'cursor')
const cleanups: (() => void)[] = []
afterAll(() => {
  closeCursorSnapshots()
  for (const c of cleanups) c()
})
function fresh(): string {
  const t = tempHome('sepia-cursor-agent-')
  cleanups.push(t.cleanup)
  return t.home
}

/** A home holding one public sample as a flat transcript `<id>.jsonl`. */
function sampleHome(file: string, id: string): string {
  const home = fresh()
  const dir = projectFolder(home, 'home-ana-src-sample', '/home/ana/src/sample')
  const path = join(dir, 'agent-transcripts', `${id}.jsonl`)
  copyFileSync(join(PUBLIC, file), path)
  utimesSync(path, 1772000000, 1772000000)
  return home
}

describe('cursor-agent: public transcript samples', () => {
  it('tuo-lei/vibe-replay cursor-edge-cases.jsonl: empty texts, wrappers (empty and nested), one non-JSON line', async () => {
    const home = sampleHome('tuo-lei__vibe-replay__cursor-edge-cases.jsonl', 'edge-cases')
    const s = (await readGenerated(cursorAgent, home)).byId('edge-cases')
    expect(s.nodes.map((n) => [n.role, n.content])).toEqual([
      ['user', 'First real prompt'],
      ['assistant', "I'll work on that."],
      ['assistant', 'Some text before the marker\n\n**Running tests**'],
      ['assistant', '**Single marker only**'],
      ['user', 'Second prompt with nested tags inside'],
      ['assistant', 'Handling the nested case.'],
    ])
    expect(s.diagnostics.map((d) => [d.line, d.severity])).toEqual([[3, 'warning']])
    expect(s.metadata.emptyMessages).toBe(3)
    expect(s.workingDirectory).toBe('/home/ana/src/sample')
    expect(s.createdAt).toBe(1772000000000)
    expectGolden('cursor-agent/public-edge-cases', withoutHome(s, home))
  })

  it('vshulcz/deja-vu registry-cursor.jsonl: plain prompts and a turn_ended record', async () => {
    const home = sampleHome('vshulcz__deja-vu__registry-cursor.jsonl', 'registry-cursor')
    const s = (await readGenerated(cursorAgent, home)).byId('registry-cursor')
    expect(s.nodes.map((n) => n.content)).toEqual(['inspect the cursor transcript', 'the transcript is readable'])
    expect(s.metadata.recordTypes).toEqual({ turn_ended: 1 })
    expect(s.diagnostics).toEqual([])
  })
})

describe('cursor-agent: damaged and live files', () => {
  it('a truncated last line is one diagnostic with its line number; the rest loads', async () => {
    const home = fresh()
    writeAgentHome(home)
    const path = join(home, '.cursor', 'projects', 'home-ana-src-ledgerlite', 'agent-transcripts', `${AGENT.FLAT}.jsonl`)
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n')
    writeFileSync(path, [...lines.slice(0, -1), lines.at(-1)!.slice(0, 20)].join('\n'))
    const s = (await readGenerated(cursorAgent, home)).byId(AGENT.FLAT)
    expect(s.diagnostics.map((d) => [d.line, d.path])).toEqual([[lines.length, path]])
    expect(s.nodes.at(-1)!.content).toBe('Added `--dry-run`.\n\n[REDACTED]')
  })

  it('reading changes no byte and adds no -wal/-shm/-journal file', async () => {
    const home = fresh()
    writeAgentHome(home)
    writeAgentNegativeHome(home)
    const before = snapshotTree(home)
    const r = await readGenerated(cursorAgent, home)
    expect(r.sessions.length).toBe(10)
    closeCursorSnapshots()
    expect(snapshotTree(home)).toEqual(before)
  })
})

describe('cursor-agent: protobuf frames', () => {
  it('walks well-formed trees by field and falls back to a byte scan on damaged ones', () => {
    const a = Buffer.alloc(32, 0xaa)
    const b = Buffer.alloc(32, 0xbb)
    const good = Buffer.concat([Buffer.from([0x0a, 0x20]), a, Buffer.from([0x12, 0x20]), b, Buffer.from([0x4a, 0x03]), Buffer.from('f:/')])
    expect(decodeTree(good)).toEqual({ entries: [{ kind: 'leaf', id: a.toString('hex') }, { kind: 'tree', id: b.toString('hex') }], workspaceUri: 'f:/', scanned: false })
    const damaged = Buffer.concat([Buffer.from([0x0a, 0x20]), a, Buffer.from([0xff, 0xff])])
    expect(decodeTree(damaged)).toEqual({ entries: [{ kind: 'leaf', id: a.toString('hex') }], scanned: true })
    expect(leafPayload(Buffer.from('\uFEFF{"role":"user"}'))?.json).toBe('{"role":"user"}')
    expect(leafPayload(Buffer.from([0x00, 0x01]))).toBeUndefined()
  })
})
