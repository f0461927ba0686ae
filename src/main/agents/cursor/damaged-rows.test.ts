/**
 * Issue 16 (silent drops found by the fuzz harness, tests/fuzz): a damaged row of a Cursor
 * `state.vscdb` hid sessions with no diagnostic. Each case is the generated fixture home
 * (fixtures-old.ts `writeCursorHome`: modern, inline and legacy stores) with one row damaged the
 * way the fuzzer did it; the hidden sessions are the fixture's own ids (OLD), and everything else
 * must still load.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { closeCursorSnapshots, cursor } from './index'
import { cursorUserDir, tempHome } from '../../../../tests/builders/cursor/fixtures'
import { OLD, writeCursorHome } from '../../../../tests/builders/cursor/fixtures-old'
import { readGenerated } from '../../../../tests/builders/cursor/testing'

const homes: { cleanup(): void }[] = []
afterAll(() => {
  closeCursorSnapshots()
  for (const h of homes) h.cleanup()
})

const PANE_KEY = 'workbench.panel.aichat.view.aichat.chatdata'

/** A fresh fixture home; `damage` runs on the database `which` (its path is returned). */
function home(which: 'global' | 'legacy-ws', damage: (db: Database.Database) => void): { home: string; db: string } {
  const t = tempHome('sepia-cursor-damaged-')
  homes.push(t)
  writeCursorHome(t.home)
  const user = cursorUserDir(t.home)
  const path = which === 'global' ? join(user, 'globalStorage', 'state.vscdb') : join(user, 'workspaceStorage', OLD.legacyWs, 'state.vscdb')
  const db = new Database(path)
  damage(db)
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  return { home: t.home, db: path }
}

let baseline: string[] = []
describe('cursor: a damaged row is named, the rest loads (issue 16)', async () => {
  const t = tempHome('sepia-cursor-damaged-')
  homes.push(t)
  writeCursorHome(t.home)
  baseline = (await readGenerated(cursor, t.home)).sessions.map((s) => s.id)

  /** Read `h`; every baseline session but `hidden` loads, and one warning on `h.db` matches `message`. */
  async function expectNamed(h: { home: string; db: string }, hidden: string[], message: RegExp): Promise<void> {
    const r = await readGenerated(cursor, h.home)
    const ids = r.sessions.map((s) => s.id)
    for (const id of hidden) expect(ids).not.toContain(id)
    expect(baseline.filter((id) => !hidden.includes(id)).filter((id) => !ids.includes(id)), 'the rest loads').toEqual([])
    const named = r.discovery.filter((d) => d.path === h.db && d.severity === 'warning' && message.test(d.message))
    expect(named, r.discovery.map((d) => d.message).join('\n')).toHaveLength(1)
  }

  it('the fixture has the sessions the cases hide', () => {
    for (const id of [OLD.tab1, OLD.tab2, OLD.tab3, OLD.wsComposer, OLD.inline1, OLD.inline2]) expect(baseline).toContain(id)
  })

  it('a workspace chat-pane key cut short: the row id, the key and the 2 chats it holds', async () => {
    const h = home('legacy-ws', (db) => db.prepare('UPDATE ItemTable SET key = ? WHERE key = ?').run('workbench.pan', PANE_KEY))
    await expectNamed(h, [OLD.tab1, OLD.tab2], /^ItemTable row \d+ \(key "workbench\.pan"\) holds 2 Cursor chats under a key Cursor does not use/)
  })

  it('a workspace chat-pane key set to NULL or to bytes: a row whose key is not text', async () => {
    const nul = home('legacy-ws', (db) => db.prepare('UPDATE ItemTable SET key = NULL WHERE key = ?').run(PANE_KEY))
    await expectNamed(nul, [OLD.tab1, OLD.tab2], /^ItemTable row \d+ has NULL as its key, not text .*it holds 2 chats, not listed/)
    const blob = home('legacy-ws', (db) => db.prepare('UPDATE ItemTable SET key = ? WHERE key = ?').run(Buffer.concat([Buffer.from(PANE_KEY), Buffer.from([0xff, 0xc3, 0x28])]), PANE_KEY))
    await expectNamed(blob, [OLD.tab1, OLD.tab2], /^ItemTable row \d+ has a \d+-byte BLOB as its key/)
  })

  it('a workspace composer list replaced by an object of none of its fields', async () => {
    const h = home('legacy-ws', (db) => db.prepare('UPDATE ItemTable SET value = ? WHERE key = ?').run('{"a":{"a":1}}', 'composer.composerData'))
    await expectNamed(h, [OLD.wsComposer], /^ItemTable row "composer\.composerData" has no allComposers list and none of the fields of Cursor's stub/)
  })

  it('a workspace composer list replaced by an empty list', async () => {
    const h = home('legacy-ws', (db) => db.prepare('UPDATE ItemTable SET value = ? WHERE key = ?').run('[]', 'composer.composerData'))
    await expectNamed(h, [OLD.wsComposer], /^ItemTable row "composer\.composerData" is an empty list/)
  })

  it('a global composerData key damaged (a number stored as text, cut short, bytes): the row and the composer it hides', async () => {
    const key = `composerData:${OLD.inline1}`
    const num = home('global', (db) => db.prepare('UPDATE cursorDiskKV SET key = ? WHERE key = ?').run(42, key))
    await expectNamed(num, [OLD.inline1], new RegExp(`^cursorDiskKV row \\d+ \\(key "42(\\.0)?"\\) holds composer ${OLD.inline1} under a damaged key`))
    const cut = home('global', (db) => db.prepare('UPDATE cursorDiskKV SET key = ? WHERE key = ?').run('compo', key))
    await expectNamed(cut, [OLD.inline1], /^cursorDiskKV row \d+ \(key "compo"\) holds composer/)
    const bytes = home('global', (db) => db.prepare('UPDATE cursorDiskKV SET key = ? WHERE key = ?').run(Buffer.from(`${key}\0`), key))
    await expectNamed(bytes, [OLD.inline1], /^cursorDiskKV row \d+ \(key a \d+-byte BLOB\) holds composer/)
  })

  it('a global composerData key whose id changed: listed under the key, with a warning naming the document id', async () => {
    const other = `f${OLD.inline1.slice(1)}`
    const h = home('global', (db) => db.prepare('UPDATE cursorDiskKV SET key = ? WHERE key = ?').run(`composerData:${other}`, `composerData:${OLD.inline1}`))
    await expectNamed(h, [OLD.inline1], new RegExp(`^cursorDiskKV row "composerData:${other}" holds the document of composer ${OLD.inline1}`))
  })

  it('a field name damaged by a flipped byte: a composer with neither list is no draft, a tab with neither list is named', async () => {
    const key = `composerData:${OLD.inline1}`
    const g = home('global', (db) => db.prepare(`UPDATE cursorDiskKV SET value = replace(value, '"conversation"', '"conversatiom"') WHERE key = ?`).run(key))
    await expectNamed(g, [OLD.inline1], new RegExp(`^cursorDiskKV row "${key}": it has neither fullConversationHeadersOnly nor conversation; the composer is skipped`))
    const w = home('legacy-ws', (db) => db.prepare(`UPDATE ItemTable SET value = replace(value, '"bubbles"', '"bubblez"') WHERE key = ?`).run(PANE_KEY))
    await expectNamed(w, [OLD.tab1, OLD.tab2], new RegExp(`^ItemTable row "${PANE_KEY.replace(/\./g, '\\.')}" tab ${OLD.tab1} has neither bubbles nor messages`))
  })

  it('a damaged key index (the table intact): the workspace chats are read from the table', async () => {
    const h = home('legacy-ws', () => {})
    // Change one byte of the chat-pane key inside the key index page only ('w' -> 'x'): an index
    // lookup then finds no row, with no error; the table still holds it.
    const d = new Database(h.db, { readonly: true })
    const page = (d.prepare("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ItemTable'").get() as { rootpage: number }).rootpage
    const size = d.pragma('page_size', { simple: true }) as number
    d.close()
    const bytes = readFileSync(h.db)
    const at = bytes.subarray((page - 1) * size, page * size).indexOf(PANE_KEY) + (page - 1) * size
    expect(at).toBeGreaterThan((page - 1) * size)
    bytes[at] = 'x'.charCodeAt(0)
    writeFileSync(h.db, bytes)
    const probe = new Database(h.db, { readonly: true })
    expect(probe.prepare('SELECT value FROM ItemTable WHERE key = ?').get(PANE_KEY)).toBeUndefined()
    expect(probe.prepare('SELECT value FROM ItemTable WHERE +key = ?').get(PANE_KEY)).toBeDefined()
    probe.close()
    const ids = (await readGenerated(cursor, h.home)).sessions.map((s) => s.id)
    expect(baseline.filter((id) => !ids.includes(id))).toEqual([])
  })

  it('a damaged global key index (fuzz seed 202): the database is named as damaged, with the count of chats it hides', async () => {
    const h = home('global', () => {})
    // The byte fuzz seed 202 changed: 'D' -> '@' in the key "composerData:<inline2>" inside the
    // cursorDiskKV key index page ("composer@ata:…"). The index is then out of order: the range
    // scan discovery runs skips inline1 and inline2 with no error, and `PRAGMA quick_check` says ok.
    const d = new Database(h.db, { readonly: true })
    const page = (d.prepare("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'cursorDiskKV'").get() as { rootpage: number }).rootpage
    const size = d.pragma('page_size', { simple: true }) as number
    d.close()
    const bytes = readFileSync(h.db)
    const key = `composerData:${OLD.inline2}`
    const at = bytes.subarray((page - 1) * size, page * size).indexOf(key) + (page - 1) * size
    expect(at).toBeGreaterThan((page - 1) * size)
    bytes[at + 'composer'.length] = '@'.charCodeAt(0)
    writeFileSync(h.db, bytes)
    const probe = new Database(h.db, { readonly: true })
    const range = "key >= 'composerData:' AND key < 'composerData;'"
    const viaIndex = (probe.prepare(`SELECT key FROM cursorDiskKV WHERE ${range}`).all() as { key: string }[]).map((r) => r.key)
    const viaTable = (probe.prepare(`SELECT key FROM cursorDiskKV NOT INDEXED WHERE ${range}`).all() as { key: string }[]).map((r) => r.key)
    expect(viaTable.filter((k) => !viaIndex.includes(k)).sort()).toEqual([`composerData:${OLD.inline1}`, key].sort())
    expect(probe.pragma('quick_check', { simple: true })).toBe('ok')
    probe.close()
    await expectNamed(h, [OLD.inline1, OLD.inline2], /^the database is damaged: the cursorDiskKV key index lacks 2 composerData rows the table holds .*; 2 chats may be missing$/)
  })

  it('the undamaged fixture gets none of these warnings', async () => {
    const r = await readGenerated(cursor, t.home)
    expect(r.discovery.filter((d) => /damaged|does not use|not text|none of the fields/.test(d.message))).toEqual([])
  })
})
