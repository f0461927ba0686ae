/**
 * `forEachLine` (synchronous chunked reads) gives exactly the lines, numbers and offsets of
 * `readLines` (a read stream): CRLF, empty lines, no final newline, a BOM, multi-byte characters
 * and invalid UTF-8 anywhere (also cut by a chunk edge or at a line's end), lines longer than a
 * chunk, a start offset; and rejects with the file system error for a missing file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { forEachLine, readLines, type Line } from './lines'

const dir = mkdtempSync(join(tmpdir(), 'sepia-lines-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function viaStream(path: string, start?: number): Promise<Line[]> {
  const out: Line[] = []
  for await (const l of readLines(path, start === undefined ? {} : { start })) out.push(l)
  return out
}

async function viaChunks(path: string, chunkBytes: number, start?: number, size?: number): Promise<Line[]> {
  const out: Line[] = []
  const n = await forEachLine(path, (text, lineNo, offset) => out.push({ lineNo, text, offset }), { chunkBytes, yieldBytes: 64, ...(start === undefined ? {} : { start }), ...(size === undefined ? {} : { size }) })
  expect(n).toBe(out.length)
  return out
}

/** Deterministic bytes: text, CR/LF, multi-byte characters, invalid sequences, lone lead bytes. */
function noise(seed: number, length: number): Buffer {
  let a = seed
  const r = (): number => {
    a = (a * 1103515245 + 12345) >>> 0
    return a / 4294967296
  }
  const pieces = [Buffer.from('{"type":"user","text":"'), Buffer.from('é'), Buffer.from('日本'), Buffer.from('😀'), Buffer.from([0xe0, 0x80]), Buffer.from([0xf0, 0x9f]), Buffer.from([0xc3]), Buffer.from([0xff]), Buffer.from('\r\n'), Buffer.from('\n'), Buffer.from('\n\n'), Buffer.from('\r'), Buffer.from('plain ascii words ')]
  const out: Buffer[] = []
  let n = 0
  while (n < length) {
    const p = pieces[Math.floor(r() * pieces.length)]!
    out.push(p)
    n += p.length
  }
  return Buffer.concat(out)
}

describe('forEachLine', () => {
  it('gives the same lines as readLines for many byte patterns and chunk sizes', async () => {
    const files: Buffer[] = [
      Buffer.from('\ufeff{"a":1}\r\n\r\n{"b":2}\n{"c":3}'),
      Buffer.from('one\ntwo\n'),
      Buffer.from(''),
      Buffer.from('\n'),
      Buffer.concat([Buffer.from('x'.repeat(100_000)), Buffer.from('\ny\n')]),
      Buffer.concat([Buffer.from('ends cut '), Buffer.from([0xe2, 0x82]), Buffer.from('\nnext'), Buffer.from([0xe0, 0x80])]),
      ...Array.from({ length: 12 }, (_, i) => noise(i + 1, 3000 + i * 500)),
    ]
    let compared = 0
    for (const [i, bytes] of files.entries()) {
      const path = join(dir, `f${i}.jsonl`)
      writeFileSync(path, bytes)
      const want = await viaStream(path)
      for (const chunk of [1, 2, 3, 7, 64, 4096, 1 << 20]) {
        expect(await viaChunks(path, chunk), `file ${i}, chunk ${chunk}`).toEqual(want)
        compared++
      }
      expect(await viaChunks(path, 5, undefined, 3)).toEqual(want)
      if (bytes.length > 10) expect(await viaChunks(path, 5, 10)).toEqual(await viaStream(path, 10))
    }
    expect(compared).toBe(files.length * 7)
    const invalid = (await viaStream(join(dir, 'f5.jsonl'))).map((l) => l.text)
    expect(invalid).toEqual(['ends cut \ufffd', 'next\ufffd\ufffd'])
  })

  it('rejects with the file system error when the file is missing', async () => {
    await expect(forEachLine(join(dir, 'missing.jsonl'), () => undefined)).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
