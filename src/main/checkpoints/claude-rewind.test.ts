/**
 * What a rewind to each Claude Code snapshot puts on disk, from the record shapes cli.js writes
 * (2.1.197 `file-history-snapshot`, 2.1.332 `file-history-delta`) and its rewind rule (2.1.197
 * `Mrf`, 2.1.332 `Jss`: snapshot backup, else the version-1 backup, else untouched; null deletes).
 * The expected states are written out by hand from the session's story, not computed by Sepia.
 */
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { claudeFilesAt, readFileHistory } from './claude'

const dirs: string[] = []
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }) })

const b = (name: string | null, version: number) => ({ backupFileName: name, version, backupTime: '2026-01-01T00:00:00.000Z' })

async function stateAt(jsonl: string, backupDir: string, id: string): Promise<Record<string, string | null>> {
  const h = await readFileHistory(jsonl, '/p')
  const f = await claudeFilesAt(h, id, backupDir, '/p')
  expect(f.refused).toEqual([])
  const out: Record<string, string | null> = {}
  for (const x of f.files) out[x.path] = x.exists ? new TextDecoder().decode(await x.read()) : null
  return out
}

describe('Claude Code rewind semantics', () => {
  it('turn 1 creates a.txt and edits b.txt; turn 2 deletes b.txt and edits a.txt; turn 3 creates c.txt (deltas)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sepia-rewind-')); dirs.push(root)
    const bd = join(root, 'file-history', 'S'); mkdirSync(bd, { recursive: true })
    writeFileSync(join(bd, 'bbbb@v1'), 'b original\n')
    writeFileSync(join(bd, 'aaaa@v2'), 'a after turn 1\n')
    writeFileSync(join(bd, 'bbbb@v2'), 'b after turn 1\n')
    writeFileSync(join(bd, 'aaaa@v3'), 'a after turn 2\n')
    const recs = [
      { type: 'file-history-snapshot', messageId: 'U1', snapshot: { messageId: 'U1', trackedFileBackups: {}, timestamp: 't' }, isSnapshotUpdate: false },
      { type: 'file-history-delta', messageId: 'A1', snapshotMessageId: 'U1', trackingPath: 'a.txt', backup: b(null, 1) },
      { type: 'file-history-delta', messageId: 'A2', snapshotMessageId: 'U1', trackingPath: 'b.txt', backup: b('bbbb@v1', 1) },
      { type: 'file-history-snapshot', messageId: 'U2', snapshot: { messageId: 'U2', trackedFileBackups: { 'a.txt': b('aaaa@v2', 2), 'b.txt': b('bbbb@v2', 2) }, timestamp: 't' }, isSnapshotUpdate: false },
      { type: 'file-history-snapshot', messageId: 'U3', snapshot: { messageId: 'U3', trackedFileBackups: { 'a.txt': b('aaaa@v3', 3), 'b.txt': b(null, 3) }, timestamp: 't' }, isSnapshotUpdate: false },
      { type: 'file-history-delta', messageId: 'A3', snapshotMessageId: 'U3', trackingPath: 'c.txt', backup: b(null, 1) },
      // A delta for a snapshot never written: synthesized from the previous snapshot plus the delta.
      { type: 'file-history-delta', messageId: 'A4', snapshotMessageId: 'U4', trackingPath: 'd.txt', backup: b(null, 1) },
    ]
    const jsonl = join(root, 's.jsonl'); writeFileSync(jsonl, recs.map((r) => JSON.stringify(r)).join('\n') + '\nnot json\n')
    expect(await stateAt(jsonl, bd, 'U1')).toEqual({ 'a.txt': null, 'b.txt': 'b original\n', 'c.txt': null, 'd.txt': null })
    expect(await stateAt(jsonl, bd, 'U2')).toEqual({ 'a.txt': 'a after turn 1\n', 'b.txt': 'b after turn 1\n', 'c.txt': null, 'd.txt': null })
    expect(await stateAt(jsonl, bd, 'U3')).toEqual({ 'a.txt': 'a after turn 2\n', 'b.txt': null, 'c.txt': null, 'd.txt': null })
    expect(await stateAt(jsonl, bd, 'U4')).toEqual({ 'a.txt': 'a after turn 2\n', 'b.txt': null, 'c.txt': null, 'd.txt': null })
  })

  it('a file with no version-1 backup is left untouched by a snapshot that does not name it; an update replaces', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sepia-rewind-')); dirs.push(root)
    const bd = join(root, 'file-history', 'S'); mkdirSync(bd, { recursive: true })
    writeFileSync(join(bd, 'xxxx@v4'), 'x v4\n')
    const recs = [
      { type: 'file-history-snapshot', messageId: 'U1', snapshot: { messageId: 'U1', trackedFileBackups: {}, timestamp: 't' }, isSnapshotUpdate: false },
      { type: 'file-history-snapshot', messageId: 'U2', snapshot: { messageId: 'U2', trackedFileBackups: { 'x.txt': b('xxxx@v4', 4), 'y.txt': b(null, 1) }, timestamp: 't' }, isSnapshotUpdate: false },
      { type: 'file-history-snapshot', messageId: 'U2', snapshot: { messageId: 'U2', trackedFileBackups: { 'x.txt': b('xxxx@v4', 4) }, timestamp: 't' }, isSnapshotUpdate: true },
    ]
    const jsonl = join(root, 's.jsonl'); writeFileSync(jsonl, recs.map((r) => JSON.stringify(r)).join('\n') + '\n')
    // x.txt has only v4 (older snapshots trimmed): Claude Code finds no version 1 and skips it.
    expect(await stateAt(jsonl, bd, 'U1')).toEqual({})
    expect(await stateAt(jsonl, bd, 'U2')).toEqual({ 'x.txt': 'x v4\n' })
  })
})

describe('real sample fixtures/real/claude-code (2.1.332 deltas)', () => {
  const home = join(__dirname, '../../../fixtures/real/claude-code/home/.claude')
  it('"Before [tools] List the files..." of c79310a4 (NOTES.md did not exist: delta null v1) deletes NOTES.md, never writes the final text', async () => {
    const id = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
    const jsonl = join(home, 'projects/-home-ana-src-ledger-api', `${id}.jsonl`)
    const h = await readFileHistory(jsonl)
    const f = await claudeFilesAt(h, 'c8f99279-f909-450f-a3cd-d2f1f9cd56fe', join(home, 'file-history', id), '/home/ana/src/ledger-api')
    expect(f.files.map((x) => [x.path, x.exists])).toEqual([['NOTES.md', false]])
    // The next turn's snapshot holds the edited file (v2).
    const g = await claudeFilesAt(h, '4448b5b7-52dd-4503-adc9-aabd237237f8', join(home, 'file-history', id), '/home/ana/src/ledger-api')
    expect(g.files.map((x) => [x.path, x.exists, x.sourcePath?.endsWith('657b1f1da8359986@v2')])).toEqual([['NOTES.md', true, true]])
  })
})

describe('real sample fixtures/public-real/claude-code/graph-21217-history-delta (2.1.217 deltas)', () => {
  // Read by hand from the session's 7 file-history records (jq over the raw file):
  //   snapshot 5d54382f… {} then deltas into it: repro_mise_test.go null v1 (the turn created it),
  //   provider.go 5f2a…@v1, analyze.go 8318…@v1, provider_test.go 41bb…@v1, analyze_test.go 43c9…@v1;
  //   snapshot 819d6243… (prompt "Create a branch and open an entire trail…"): repro_mise_test.go
  //   null v2 (deleted again by then), the four others @v2.
  const src = join(__dirname, '../../../fixtures/public-real/claude-code/graph-21217-history-delta/home/.claude/projects/-Users-thomi-Projects-entire-graph/ffb41e2c-bfb1-4956-bf84-39d6c1eb0af8.jsonl')
  const cwd = '/Users/thomi/Projects/entire-graph'
  const S1 = '5d54382f-9f81-4262-b63a-796d3a88e38b'
  const S2 = '819d6243-1741-4ff1-b31b-d5426044fc79'
  const names: Record<string, string> = { 'internal/sem/provider.go': '5f2a70e72a157a7b', 'internal/sem/analyze.go': '8318148acd968664', 'internal/sem/provider_test.go': '41bbc865aab672ea', 'internal/sem/analyze_test.go': '43c9133592a1644a' }

  it('as published (no file-history folder): nothing is restored and the created file is kept, as the CLI holds deletions when a backup is missing', async () => {
    const h = await readFileHistory(src, cwd)
    for (const id of [S1, S2]) {
      const f = await claudeFilesAt(h, id, '/nonexistent/file-history/ffb41e2c-bfb1-4956-bf84-39d6c1eb0af8', cwd)
      expect(f.files).toEqual([])
      expect(f.refused.map((r) => r.path).sort()).toEqual([...Object.keys(names), 'internal/sem/repro_mise_test.go'].sort())
      expect(f.refused.find((r) => r.path === 'internal/sem/repro_mise_test.go')!.reason).toContain('keeps the files it would delete')
    }
  })

  it('with its backups present: each snapshot restores exactly its backups and deletes the file the first turn created', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sepia-rewind-')); dirs.push(root)
    const bd = join(root, 'file-history', 'S'); mkdirSync(bd, { recursive: true })
    for (const [path, hash] of Object.entries(names)) for (const v of [1, 2]) writeFileSync(join(bd, `${hash}@v${v}`), `${path} v${v}\n`)
    const h = await readFileHistory(src, cwd)
    const f1 = await claudeFilesAt(h, S1, bd, cwd)
    expect(f1.refused).toEqual([])
    const state = async (f: typeof f1) => Object.fromEntries(await Promise.all(f.files.map(async (x) => [x.path, x.exists ? new TextDecoder().decode(await x.read()) : null])))
    const want = (v: number) => ({ ...Object.fromEntries(Object.keys(names).map((p) => [p, `${p} v${v}\n`])), 'internal/sem/repro_mise_test.go': null })
    expect(await state(f1)).toEqual(want(1))
    expect(await state(await claudeFilesAt(h, S2, bd, cwd))).toEqual(want(2))
  })
})

describe('keys and held deletions', () => {
  it('an absolute key under the project and its relative key are one file; a missing backup holds every deletion', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sepia-rewind-')); dirs.push(root)
    const bd = join(root, 'file-history', 'S'); mkdirSync(bd, { recursive: true })
    writeFileSync(join(bd, 'aaaa@v2'), 'a v2\n')
    const recs = [
      { type: 'file-history-snapshot', messageId: 'U1', snapshot: { messageId: 'U1', trackedFileBackups: { '/p/a.txt': b(null, 1) }, timestamp: 't' }, isSnapshotUpdate: false },
      { type: 'file-history-snapshot', messageId: 'U2', snapshot: { messageId: 'U2', trackedFileBackups: { 'a.txt': b('aaaa@v2', 2), 'n.txt': b(null, 1) }, timestamp: 't' }, isSnapshotUpdate: false },
      { type: 'file-history-snapshot', messageId: 'U3', snapshot: { messageId: 'U3', trackedFileBackups: { 'a.txt': b('aaaa@v2', 2), 'n.txt': b('gone@v2', 2) }, timestamp: 't' }, isSnapshotUpdate: false },
    ]
    const jsonl = join(root, 's.jsonl'); writeFileSync(jsonl, recs.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const h = await readFileHistory(jsonl, '/p')
    expect([...h.tracked].sort()).toEqual(['a.txt', 'n.txt'])
    expect(await stateAt(jsonl, bd, 'U2')).toEqual({ 'a.txt': 'a v2\n', 'n.txt': null })
    const f = await claudeFilesAt(h, 'U3', bd, '/p')
    expect(f.files.map((x) => x.path)).toEqual(['a.txt'])
    expect(f.refused.map((x) => x.path)).toEqual(['n.txt'])
    // U1: a.txt null (v1) and n.txt's v1 null: both deleted, nothing missing.
    expect((await claudeFilesAt(h, 'U1', bd, '/p')).files.map((x) => [x.path, x.exists])).toEqual([['a.txt', false], ['n.txt', false]])
  })
})
