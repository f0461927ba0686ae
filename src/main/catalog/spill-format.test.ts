/**
 * The spill file of the lighter first pass (`rows.ts`): every row's text comes back exactly as it
 * went in (raw UTF-8 after its row line, or inside the JSON line when it is not well-formed
 * UTF-16), across read chunks, past the write buffer, and a file cut short ends at its last whole entry.
 */
import { mkdtempSync, readFileSync, statSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RawMessageRow } from './extract'
import { readSpillFile, RowSpill, type SpillEntry } from './rows'

const texts = [
  '',
  'plain',
  'two\nlines\r\nand "quotes" \\ backslashes \u0000 nul',
  '量子計算機 and emoji 🎉 and é',
  'lone high \uD83D surrogate',
  'lone low \uDE00 surrogate',
  '\n',
  'x'.repeat(3 << 20), // more than the write buffer (1 MiB)
  '日本語'.repeat(700_000), // ~6 MB of UTF-8: crosses the 4 MiB read chunks
  '{"looks":"like json"}\n[1,2,3]\n',
]

function row(seq: number, text: string): RawMessageRow {
  const r: RawMessageRow = { seq, nodeId: `n${seq}`, role: seq % 2 ? 'assistant' : 'user', toolNames: seq % 3 ? '' : ' Bash ', contentLength: text.length, text }
  if (seq % 2) r.model = 'claude-x'
  if (seq % 4 === 1) r.usage = { inputTokens: seq, outputTokens: 2 * seq }
  if (seq % 5) r.createdAt = 1_700_000_000_000 + seq
  return r
}

/** The spill's entries: those kept in memory (here only those before the first row), then the file's. */
async function entries(spill: RowSpill): Promise<SpillEntry[]> {
  const out: SpillEntry[] = [...spill.memory]
  await readSpillFile(spill.path, (e) => out.push(e))
  return out
}

describe('spill file', () => {
  it('gives back every entry and every text exactly, in order', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sepia-spillfmt-')), 'rows.jsonl')
    const spill = new RowSpill(path, 0)
    const key = { home: '/h/ä', agent: 'claude-code', sessionId: 's1' }
    spill.begin(key, 'stamp-1')
    const rows = [...texts, ...texts.slice(0, 7)].map((t, i) => row(i, t))
    for (const r of rows.slice(0, 5)) spill.row(r)
    spill.restart()
    for (const r of rows) spill.row(r)
    spill.end([[3, ' Read ']])
    spill.close()
    const got = await entries(spill)
    expect(got[0]).toEqual({ s: ['/h/ä', 'claude-code', 's1', 'stamp-1'] })
    expect(got[6]).toEqual({ r: 1 })
    expect(got.at(-1)).toEqual({ e: 1, f: [[3, ' Read ']] })
    const read = [...got.slice(1, 6), ...got.slice(7, -1)] as unknown[][]
    const want = [...rows.slice(0, 5), ...rows]
    expect(read).toHaveLength(want.length)
    read.forEach((e, i) => {
      const r = want[i]!
      expect(e).toEqual([r.seq, r.nodeId, r.role, r.createdAt ?? null, r.model ?? null, r.toolNames, r.contentLength, r.text, r.usage ?? null])
    })
    // The lone surrogates stay in the JSON line; the well-formed texts are raw bytes.
    expect(readFileSync(path, 'utf8')).toContain('"lone high \\ud83d surrogate"')
    expect(readFileSync(path, 'utf8')).toContain('\n{"looks":"like json"}\n[1,2,3]\n\n')
  })

  it('ends at the last whole entry of a file cut short', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sepia-spillfmt-')), 'rows.jsonl')
    const spill = new RowSpill(path, 0)
    spill.begin({ home: '/h', agent: 'codex', sessionId: 'a' }, 'st')
    spill.row(row(0, 'first text'))
    spill.end()
    spill.begin({ home: '/h', agent: 'codex', sessionId: 'b' }, 'st')
    spill.row(row(1, 'a text that will be cut short'))
    spill.close()
    const whole = await entries(spill)
    expect(whole).toHaveLength(5)
    truncateSync(path, statSync(path).size - 10)
    const cut = await entries(spill)
    expect(cut).toEqual(whole.slice(0, 4))
  })
})
