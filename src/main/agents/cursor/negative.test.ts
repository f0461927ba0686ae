/** Cursor IDE negative cases (fixtures-negative.ts): each shows a diagnostic, the rest loads. */
import { writeFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { expectGolden } from '../../../../tests/helpers/golden'
import { closeCursorSnapshots, cursor } from './index'
import { tempHome } from '../../../../tests/builders/cursor/fixtures'
import { NEG, writeNegativeStore } from '../../../../tests/builders/cursor/fixtures-negative'
import { readGenerated, withoutHome } from '../../../../tests/builders/cursor/testing'

const t = tempHome()
afterAll(() => {
  closeCursorSnapshots()
  t.cleanup()
})

describe('cursor: negative store', async () => {
  writeNegativeStore(t.home)
  const r = await readGenerated(cursor, t.home)
  const main = r.byId(NEG.main)
  const messages = main.diagnostics.map((d) => `${d.severity}: ${d.message}`)

  it('matches the golden', () => {
    expectGolden('cursor/negative', withoutHome({ discovery: r.discovery, sessions: r.sessions }, t.home))
  })

  it('lists the readable composers only; bad composer rows and drafts are not sessions', () => {
    expect(r.sessions.map((s) => s.id)).toEqual([NEG.main, NEG.blobComposer])
    const disc = r.discovery.map((d) => d.message)
    expect(disc.some((m) => m.includes(`composerData:${NEG.nullComposer}`) && m.includes('NULL'))).toBe(true)
    expect(disc.some((m) => m.includes(`composerData:${NEG.badComposer}`) && m.includes('not JSON'))).toBe(true)
    expect(disc.some((m) => m.includes('composer.composerHeaders'))).toBe(true)
    expect(disc.some((m) => m.includes('workspace.json is not a JSON object'))).toBe(true)
    expect(r.sessions.some((s) => s.id === NEG.draft)).toBe(false)
  })

  it('the messy composer keeps every good bubble in header order', () => {
    expect(main.nodes.map((n) => n.content)).toEqual(['Clean up the rows', 'Stored as a BLOB.', 'Python-literal bubble', 'Cleaned.'])
    expect(main.nodes[3]!.usage).toBeUndefined()
  })

  it('one diagnostic per bad row: NULL, missing, binary BLOB, non-JSON; notes for BLOB JSON and Python literal; orphans counted', () => {
    expect(messages.filter((m) => m.includes('value is NULL'))).toHaveLength(1)
    expect(messages.filter((m) => m.includes('which has no bubbleId row'))).toHaveLength(1)
    expect(messages.filter((m) => m.includes('BLOB that is not JSON'))).toHaveLength(1)
    expect(messages.filter((m) => m.includes('value is not JSON'))).toHaveLength(1)
    expect(messages.filter((m) => m.startsWith('info') && m.includes('stored as a BLOB'))).toHaveLength(1)
    expect(messages.filter((m) => m.includes('python-literal'))).toHaveLength(1)
    expect(messages.filter((m) => m.includes('not in its header list'))).toHaveLength(1)
    expect(main.metadata.orphanBubbles).toBe(2)
    for (const d of main.diagnostics) expect(d.path).toMatch(/globalStorage\/state\.vscdb$/)
  })

  it('a stub workspace list (no allComposers, no workspace.json) gives no project; secrets only noted', () => {
    expect(main.workingDirectory).toBeUndefined()
    expect(main.metadata.encryptionKeysPresent).toEqual(['speculativeSummarizationEncryptionKey'])
    expect(JSON.stringify(main)).not.toContain('bm90LWEtcmVhbC1rZXk')
  })

  it('a composer stored as a BLOB of JSON is read, with a note', () => {
    const s = r.byId(NEG.blobComposer)
    expect(s.nodes.map((n) => n.content)).toEqual(['hello from a blob', 'hi'])
    expect(s.diagnostics.map((d) => d.severity)).toEqual(['info'])
  })
})

describe('cursor: a damaged composer row that looks like an unsent draft is named (issue 16)', () => {
  it('fullConversationHeadersOnly of the wrong type: a diagnostic naming the database and the row', async () => {
    const d = tempHome()
    try {
      const db = writeNegativeStore(d.home)
      const w = new Database(db)
      w.prepare("UPDATE cursorDiskKV SET value = json_set(value, '$.fullConversationHeadersOnly', json('{\"a\":1}')) WHERE key = ?").run(`composerData:${NEG.main}`)
      w.close()
      const r = await readGenerated(cursor, d.home)
      expect(r.sessions.map((s) => s.id)).toEqual([NEG.blobComposer])
      const named = r.discovery.filter((x) => x.message.includes(`composerData:${NEG.main}`))
      expect(named).toHaveLength(1)
      expect(named[0]!.path).toBe(db)
      expect(named[0]!.message).toMatch(/fullConversationHeadersOnly is object, not a list/)
      // The real unsent draft stays quiet.
      expect(r.discovery.some((x) => x.message.includes(`composerData:${NEG.draft}`))).toBe(false)
    } finally {
      closeCursorSnapshots()
      d.cleanup()
    }
  })
})

describe('cursor: an empty global state.vscdb is named (issue 16, found by npm run fuzz)', () => {
  it('a 0-byte global database: a diagnostic naming it', async () => {
    const d = tempHome()
    try {
      const db = writeNegativeStore(d.home)
      writeFileSync(db, '')
      const r = await readGenerated(cursor, d.home)
      expect(r.discovery.filter((x) => x.path === db).map((x) => x.message)).toEqual([expect.stringMatching(/neither a cursorDiskKV nor an ItemTable/)])
    } finally {
      closeCursorSnapshots()
      d.cleanup()
    }
  })
})
