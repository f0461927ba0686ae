/**
 * The recovery of write jobs touches only what the journal names and what still looks like
 * Sepia's (issue 16): hand-written journal records of a dead process, checked against the disk.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { removeDir, tempDir } from '../../../tests/builders/checkpoints/testing'
import { journalDir, type WriteEntry } from './write-journal'
import { readRecoveryNotes, recoverWriteJobs } from './write-recovery'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeDir))

/** The pid of a process that has ended. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim())
}

function journal(data: string, job: { pid: number; kind: string; startedAt: number; entries: WriteEntry[] }, id = `${job.startedAt}-0000abcd`): void {
  mkdirSync(journalDir(data), { recursive: true })
  writeFileSync(join(journalDir(data), `${id}.json`), JSON.stringify({ version: 1, id, targets: ['/t'], ...job }))
}

describe('write-job recovery', () => {
  it('removes only recorded paths that look like Sepia temp files; keeps the rest and says so', async () => {
    const data = tempDir('rec-data')
    const dir = tempDir('rec-target')
    dirs.push(data, dir)
    const user = join(dir, 'notes.txt')
    const temp = join(dir, '.report.md.0a1b2c3d.partial')
    const odd = join(dir, 'x.sepia-tmp-0a1b2c3d') // a Sepia name, but a folder: not ours to remove
    writeFileSync(user, 'mine')
    writeFileSync(temp, 'half')
    mkdirSync(odd)
    journal(data, { pid: deadPid(), kind: 'export', startedAt: Date.now(), entries: [{ type: 'temp', path: user }, { type: 'temp', path: temp }, { type: 'temp', path: odd }] })
    const notes = await recoverWriteJobs(data)
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatchObject({ kind: 'export', outcome: 'kept', kept: [user, odd] })
    expect(existsSync(user)).toBe(true)
    expect(existsSync(odd)).toBe(true)
    expect(existsSync(temp)).toBe(false)
    expect(readdirSync(journalDir(data)).filter((n) => n.endsWith('.json') && n !== 'recovered.json')).toEqual([])
    expect(readRecoveryNotes(data)).toHaveLength(1)
  })

  it('a convert file older than the job, and a database backup (util/sqlite-row.ts) that differs, are kept; an identical backup goes', async () => {
    const data = tempDir('rec-data2')
    const dir = tempDir('rec-target2')
    dirs.push(data, dir)
    const started = Date.now()
    const old = join(dir, 'old.jsonl')
    writeFileSync(old, 'x')
    utimesSync(old, new Date(started - 60_000), new Date(started - 60_000))
    const target = join(dir, 'a.json')
    writeFileSync(target, 'same')
    const same = `${target}.sepia-backup-20261201T100000Z`
    writeFileSync(same, 'same')
    const other = join(dir, 'b.json')
    writeFileSync(other, 'new')
    const differs = `${other}.sepia-backup-20261201T100000Z-2`
    writeFileSync(differs, 'old')
    journal(data, {
      pid: deadPid(), kind: 'convert', startedAt: started,
      entries: [{ type: 'created', path: old }, { type: 'backup', path: same, of: target }, { type: 'backup', path: differs, of: other }],
    })
    const [note] = await recoverWriteJobs(data)
    expect(note?.kept?.sort()).toEqual([differs, old].sort())
    expect(existsSync(old)).toBe(true)
    expect(existsSync(same)).toBe(false)
    expect(existsSync(differs)).toBe(true)
  })

  it('leaves the jobs of a live process alone', async () => {
    const data = tempDir('rec-data3')
    const dir = tempDir('rec-target3')
    dirs.push(data, dir)
    const temp = join(dir, '.a.md.0a1b2c3d.partial')
    writeFileSync(temp, 'being written')
    journal(data, { pid: process.ppid, kind: 'export', startedAt: Date.now(), entries: [{ type: 'temp', path: temp }] })
    expect(await recoverWriteJobs(data)).toEqual([])
    expect(existsSync(temp)).toBe(true)
  })
})
