/**
 * Reading a live Cursor store: never in place (no byte or file changes next to it), works while
 * another connection holds a write transaction in WAL mode, uses key-range queries (never a table
 * scan), stays fast on a large store, and survives an unreadable root.
 */
import Database from 'better-sqlite3'
import { chmodSync, existsSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { snapshotTree } from '../../../../tests/helpers/snapshot'
import { closeCursorSnapshots, cursor } from './index'
import { closeDb, createStateDb, cursorUserDir, headers, put, putBubbles, tempHome } from '../../../../tests/builders/cursor/fixtures'
import { MODERN, writeModernStore } from '../../../../tests/builders/cursor/fixtures-modern'
import { writeLegacyStore } from '../../../../tests/builders/cursor/fixtures-old'
import { withSnapshot } from './common/snapshot'
import { COMPOSER_SQL } from './global'
import { BUBBLES_SQL } from './read-composer'
import { readGenerated } from '../../../../tests/builders/cursor/testing'

const cleanups: (() => void)[] = []
afterAll(() => {
  closeCursorSnapshots()
  for (const c of cleanups) c()
})
function fresh(): string {
  const t = tempHome()
  cleanups.push(t.cleanup)
  return t.home
}

describe('cursor: the source is never touched', () => {
  it('reading every generation changes no byte and adds no -wal/-shm/-journal file', async () => {
    const home = fresh()
    writeModernStore(home)
    writeLegacyStore(home)
    const before = snapshotTree(home)
    const r = await readGenerated(cursor, home)
    expect(r.sessions.length).toBeGreaterThan(8)
    closeCursorSnapshots()
    expect(snapshotTree(home)).toEqual(before)
    expect(Object.keys(before).some((p) => /-(wal|shm|journal)$/.test(p))).toBe(false)
  })

  it('reads committed WAL rows while another connection holds a write transaction', async () => {
    const home = fresh()
    const db = writeModernStore(home)
    const writer = new Database(db)
    writer.pragma('journal_mode = WAL')
    writer.pragma('wal_autocheckpoint = 0')
    const id = 'c0c0c0c0-0000-4000-8000-00000000c0c0'
    put(writer, 'cursorDiskKV', `composerData:${id}`, { _v: 17, composerId: id, name: 'Only in the WAL', fullConversationHeadersOnly: headers([['w1', 1]]) })
    putBubbles(writer, id, [{ type: 1, bubbleId: 'w1', text: 'committed, not checkpointed' }])
    const holder = new Database(db)
    holder.exec('BEGIN IMMEDIATE')
    put(holder, 'cursorDiskKV', 'composerData:uncommitted', { composerId: 'uncommitted', fullConversationHeadersOnly: headers([['u1', 1]]) })
    expect(existsSync(db + '-wal')).toBe(true)
    const dir = dirname(db)
    const files = readdirSync(dir).sort()
    const walBefore = snapshotTree(dir)
    try {
      const r = await readGenerated(cursor, home)
      expect(r.byId(id).nodes.map((n) => n.content)).toEqual(['committed, not checkpointed'])
      expect(r.sessions.some((s) => s.id === 'uncommitted')).toBe(false)
      expect(r.byId(MODERN.A).nodes).toHaveLength(5)
      closeCursorSnapshots()
      expect(readdirSync(dir).sort()).toEqual(files)
      expect(snapshotTree(dir)).toEqual(walBefore)
    } finally {
      holder.exec('ROLLBACK')
      holder.close()
      writer.close()
    }
  })
})

describe('cursor: large stores', () => {
  it('every discovery and read query is an index range search, not a table scan', () => {
    const home = fresh()
    const db = writeModernStore(home)
    withSnapshot(db, (s) => {
      const plan = (sql: string, ...args: string[]) => (s.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((p) => p.detail).join(' ')
      const plans = [
        plan(COMPOSER_SQL),
        plan("SELECT key FROM cursorDiskKV WHERE key >= 'bubbleId:task-' AND key < 'bubbleId:task.'"),
        plan(BUBBLES_SQL, `bubbleId:${MODERN.A}:`, `bubbleId:${MODERN.A};`),
      ]
      for (const p of plans) expect(p).toMatch(/SEARCH cursorDiskKV USING (COVERING )?INDEX/)
    })
  })

  it('3000 composers × 10 bubbles: discovery and reads stay fast', async () => {
    const home = fresh()
    const path = join(cursorUserDir(home), 'globalStorage', 'state.vscdb')
    const db = createStateDb(path)
    const pad = 'x'.repeat(2000)
    db.transaction(() => {
      for (let c = 0; c < 3000; c++) {
        const id = `00000000-0000-4000-8000-${String(c).padStart(12, '0')}`
        const ids = Array.from({ length: 10 }, (_, b) => `b${b}`)
        put(db, 'cursorDiskKV', `composerData:${id}`, { _v: 17, composerId: id, name: `c${c}`, originalFileStates: { f: pad }, fullConversationHeadersOnly: ids.map((b, i) => ({ bubbleId: b, type: i % 2 ? 2 : 1 })) })
        putBubbles(db, id, ids.map((b, i) => ({ type: i % 2 ? 2 : 1, bubbleId: b, text: `${b} ${pad}` })))
      }
    })()
    closeDb(db)
    const t0 = performance.now()
    const { layoutForHome } = await import('../../platform')
    const { refs } = await cursor.discover(await layoutForHome({ home, os: 'linux' }), { now: () => 0 })
    const discoverMs = performance.now() - t0
    expect(refs).toHaveLength(3000)
    const t1 = performance.now()
    for (const ref of refs.slice(0, 200)) expect((await cursor.read(ref, { now: () => 0 })).nodes).toHaveLength(10)
    const perRead = (performance.now() - t1) / 200
    console.info(`cursor: discovery of 3000 composers ${discoverMs.toFixed(0)} ms, ${perRead.toFixed(1)} ms per read`)
    expect(discoverMs).toBeLessThan(10_000)
    expect(perRead).toBeLessThan(100)
  })
})

describe('cursor: discovery never throws', () => {
  it.skipIf(process.getuid?.() === 0)('an unreadable workspaceStorage folder is a diagnostic; the global store still loads', async () => {
    const home = fresh()
    writeModernStore(home)
    const ws = join(cursorUserDir(home), 'workspaceStorage')
    chmodSync(ws, 0o000)
    try {
      const r = await readGenerated(cursor, home)
      expect(r.discovery.some((d) => d.path === ws && d.message.includes('cannot list folder'))).toBe(true)
      expect(r.sessions.length).toBe(8)
    } finally {
      chmodSync(ws, 0o755)
    }
  })

  it('a global state.vscdb that is not a database is a diagnostic; workspace chats still load', async () => {
    const home = fresh()
    writeLegacyStore(home)
    const g = join(cursorUserDir(home), 'globalStorage', 'state.vscdb')
    const { writeFileSync } = await import('node:fs')
    writeFileSync(g, 'garbage, not sqlite')
    const r = await readGenerated(cursor, home)
    expect(r.discovery.some((d) => d.path === g && d.severity === 'error')).toBe(true)
    expect(r.sessions).toHaveLength(4)
  })
})
