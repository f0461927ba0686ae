/**
 * The search index filled while the rows pass of a cold index still writes (`followText`,
 * issue 15): another connection commits message rows (and removes some, indexed or not) between
 * the batches; once the rows are done and the fill has ended, the index holds every row that is
 * left exactly once and nothing else, and nothing is pending.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { MessageRow } from './extract'
import { followText } from './indexer'
import { newWriteTurn, withTurn } from './rows'
import { openCatalog } from './schema'
import { CatalogStore } from './store'

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

const row = (seq: number): MessageRow => ({ seq, nodeId: `n${seq}`, role: 'user', toolNames: '', sig: `s${seq}`, text: `alpha w${seq}x 東京都` })

/** A new catalog, a writer and a reader connection to it, and one session row to add messages to. */
function twoConnections(): { writer: CatalogStore; reader: CatalogStore; sid: number } {
  const d = mkdtempSync(join(tmpdir(), 'sepia-follow-'))
  dirs.push(d)
  const file = join(d, 'catalog.sqlite')
  const writer = new CatalogStore(openCatalog(file))
  const reader = new CatalogStore(openCatalog(file))
  const sid = Number(
    writer.db.prepare(`INSERT INTO sessions (home, agent, session_id, format, size, mtime_ms, stamp, ref, summary, gen) VALUES ('/h', 'codex', 's', '', 0, 0, '', '{}', '{}', 0)`).run().lastInsertRowid,
  )
  return { writer, reader, sid }
}

describe('followText', () => {
  it('indexes the rows committed meanwhile, each once, and ends with none pending', async () => {
    const { writer, reader, sid } = twoConnections()
    const turn = newWriteTurn()
    let done = false
    const steps: number[] = []
    const fill = followText(reader, (n) => steps.push(n), () => done, 7, 5, (fn) => withTurn(turn, fn))
    // The "rows pass": 12 commits of 9 rows, each after the fill had a chance to run; every
    // third commit also removes the oldest row left (indexed by then, or still pending).
    let seq = 0
    const removed = new Set<number>()
    for (let commit = 0; commit < 12; commit++) {
      withTurn(turn, () =>
        writer.db.transaction(() => {
          writer.insertMessages(sid, Array.from({ length: 9 }, () => row(seq++)))
          if (commit % 3 === 2) {
            const oldest = writer.db.prepare('SELECT mid, seq FROM messages WHERE sid = ? ORDER BY seq LIMIT 1').get(sid) as { mid: number; seq: number }
            writer.deleteMessages([oldest.mid])
            removed.add(oldest.seq)
          }
        })(),
      )
      await new Promise((r) => setTimeout(r, 60))
    }
    done = true
    await fill
    expect(steps.length).toBeGreaterThan(2)
    expect(reader.ftsPending()).toBe(0)
    const live = writer.db.prepare('SELECT mid, seq FROM messages ORDER BY mid').all() as { mid: number; seq: number }[]
    expect(live.length).toBe(seq - removed.size)
    // Every live row once (its own word matches it alone), no removed row, no row twice.
    const match = writer.db.prepare('SELECT rowid FROM fts WHERE fts MATCH ?').pluck()
    for (const { mid, seq: s } of live) expect(match.all(`w${s}x`)).toEqual([mid])
    for (const s of removed) expect(match.all(`w${s}x`)).toEqual([])
    expect(match.all('alpha')).toEqual(live.map((r) => r.mid))
    expect(match.all('東京')).toEqual(live.map((r) => r.mid))
    writer.db.exec(`CREATE VIRTUAL TABLE temp.v USING fts5vocab(search, 'fts', 'row')`)
    expect(writer.db.prepare(`SELECT doc, cnt FROM temp.v WHERE term = 'alpha'`).get()).toEqual({ doc: live.length, cnt: live.length })
    writer.db.close()
    reader.db.close()
  })

  it('starts with a small first batch, then waits for twice as many rows each time, up to least', async () => {
    const { writer, reader, sid } = twoConnections()
    let done = false
    const steps: number[] = []
    let last = 0
    // least 20, first 3: batches wait for 3, then 6, 12, 20, 20... pending rows.
    const fill = followText(reader, (n) => (steps.push(n - last), (last = n)), () => done, 100, 20, (fn) => fn(), 3)
    let seq = 0
    const commit = async (rows: number, settle: (n: number) => boolean): Promise<void> => {
      writer.db.transaction(() => writer.insertMessages(sid, Array.from({ length: rows }, () => row(seq++))))()
      await vi.waitFor(() => expect(settle(steps.length)).toBe(true), { timeout: 5000, interval: 20 })
    }
    await commit(4, (n) => n === 1) // 4 >= 3: the first batch
    expect(steps).toEqual([4])
    await commit(5, () => reader.ftsPending() === 5) // 5 < 6: waits
    await new Promise((r) => setTimeout(r, 150))
    expect(steps).toEqual([4])
    await commit(1, (n) => n === 2) // 6 >= 6
    expect(steps).toEqual([4, 6])
    await commit(11, () => reader.ftsPending() === 11) // 11 < 12: waits
    await new Promise((r) => setTimeout(r, 150))
    expect(steps).toEqual([4, 6])
    done = true
    await fill
    expect(steps.slice(0, 3)).toEqual([4, 6, 11])
    expect(reader.ftsPending()).toBe(0)
    writer.db.close()
    reader.db.close()
  })
})
