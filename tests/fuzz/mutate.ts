/**
 * Mutations for the fuzz test (issue 9 item 8): truncation, random byte flips, huge numbers, deep
 * nesting, wrong types, NUL bytes, invalid UTF-8, empty files and huge lines — on the bytes of a
 * file, on one JSON value inside a JSON/JSONL file, or on one cell of a SQLite database. All
 * randomness comes from a seeded PRNG, so a failure is replayed with the same `FUZZ_SEED`.
 */
import Database from 'better-sqlite3'

/** Seeded PRNG (mulberry32): a function returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Rand = () => number
const int = (r: Rand, n: number) => Math.floor(r() * n)
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[int(r, xs.length)]!

/** Names of the mutations, for the report. */
export const MUTATIONS = ['truncate', 'flip', 'huge-number', 'deep-nesting', 'wrong-type', 'nul', 'invalid-utf8', 'empty', 'huge-line'] as const
export type Mutation = (typeof MUTATIONS)[number]

const HUGE_NUMBERS = ['1e309', '-1e309', '99999999999999999999999999999999', '1.7976931348623157e308', '-9007199254740993', '0.0000000000000000000001', '-0', '4294967296']
const DEEP = 20_000
const deep = (r: Rand) => (r() < 0.5 ? '['.repeat(DEEP) + ']'.repeat(DEEP) : '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP))
const wrongValue = (r: Rand): unknown => pick(r, [null, 0, -1, true, 'x', [], {}, [[[]]], { type: 42 }, 1e308, 'NaN', { role: null, content: 7 }])

/** Replace one random value of a parsed JSON value (by a random walk) with `make(old)`. */
function replaceRandom(root: unknown, r: Rand, make: (old: unknown) => unknown): unknown {
  if (root === null || typeof root !== 'object') return make(root)
  let node = root as Record<string, unknown>
  for (let depth = 0; depth < 12; depth++) {
    const keys = Object.keys(node)
    if (keys.length === 0) break
    const k = pick(r, keys)
    const child = node[k]
    if (child !== null && typeof child === 'object' && r() < 0.7) {
      node = child as Record<string, unknown>
      continue
    }
    node[k] = make(child)
    return root
  }
  const keys = Object.keys(node)
  if (keys.length) node[pick(r, keys)] = make(undefined)
  return root
}

const MARK = '\u0000__SEPIA_FUZZ__\u0000'
/** How JSON.stringify writes MARK. */
const PLACE = JSON.stringify(MARK)

/** A JSON text with one value changed: a huge number, deep nesting or a wrong type. */
function mutateJsonText(text: string, kind: 'huge-number' | 'deep-nesting' | 'wrong-type', r: Rand): string | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  let raw = ''
  const mutated = replaceRandom(value, r, (old) => {
    if (kind === 'wrong-type') return wrongValue(r)
    raw = kind === 'huge-number' ? pick(r, HUGE_NUMBERS) : deep(r)
    return old === MARK ? old : MARK
  })
  const out = JSON.stringify(mutated)
  return raw ? out.replace(PLACE, raw) : out
}

/** A mutated copy of a text store (JSON, JSONL or other text). */
export function mutateBytes(buf: Buffer, kind: Mutation, r: Rand, jsonl: boolean): Buffer {
  switch (kind) {
    case 'truncate':
      return buf.subarray(0, int(r, Math.max(1, buf.length)))
    case 'flip': {
      const out = Buffer.from(buf)
      for (let i = 0, n = 1 + int(r, 8); i < n && out.length; i++) {
        const at = int(r, out.length)
        out[at] = out[at]! ^ (1 << int(r, 8))
      }
      return out
    }
    case 'nul':
    case 'invalid-utf8': {
      const bytes = kind === 'nul' ? Buffer.from([0, 0]) : Buffer.from(pick(r, [[0xc3, 0x28], [0xff, 0xfe], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]]))
      const at = int(r, buf.length + 1)
      return Buffer.concat([buf.subarray(0, at), bytes, buf.subarray(kind === 'nul' && r() < 0.5 ? Math.min(buf.length, at + 1) : at)])
    }
    case 'empty':
      return Buffer.alloc(0)
    case 'huge-line':
      // 8 MB on one line: a string that never ends, then a record with a huge string value.
      return Buffer.concat([buf, Buffer.from(r() < 0.5 ? `\n{"type":"user","message":{"content":"${'A'.repeat(8 << 20)}"}}\n` : `\n"${'B'.repeat(8 << 20)}`)])
    default: {
      const text = buf.toString('utf8')
      if (jsonl) {
        const lines = text.split('\n')
        const candidates = lines.map((l, i) => [l, i] as const).filter(([l]) => l.trim().startsWith('{'))
        if (candidates.length === 0) return mutateBytes(buf, 'flip', r, jsonl)
        const [line, i] = pick(r, candidates)
        const m = mutateJsonText(line, kind, r)
        if (m === undefined) return mutateBytes(buf, 'flip', r, jsonl)
        lines[i] = m
        return Buffer.from(lines.join('\n'))
      }
      const m = mutateJsonText(text, kind, r)
      return m === undefined ? mutateBytes(buf, 'flip', r, jsonl) : Buffer.from(m)
    }
  }
}

/**
 * Change one cell of a SQLite database in place (a copy the test owns): JSON text gets a JSON
 * mutation, other cells a wrong type, a huge number or invalid UTF-8 bytes. Returns false when the
 * database has no row to change.
 */
export function mutateSqliteCell(path: string, kind: Mutation, r: Rand): boolean {
  const db = new Database(path)
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE '%VIRTUAL%'").all() as { name: string }[]).map((t) => t.name)
    for (let attempt = 0; attempt < 6 && tables.length; attempt++) {
      const q = `"${pick(r, tables).replace(/"/g, '""')}"`
      let count = 0
      try {
        count = (db.prepare(`SELECT count(*) AS n FROM ${q}`).get() as { n: number }).n
      } catch {
        continue
      }
      if (count === 0) continue
      let row: Record<string, unknown> | undefined
      try {
        row = db.prepare(`SELECT rowid AS __rowid, * FROM ${q} LIMIT 1 OFFSET ?`).get(int(r, count)) as Record<string, unknown>
      } catch {
        continue // WITHOUT ROWID
      }
      const cols = Object.keys(row).filter((c) => c !== '__rowid')
      if (!cols.length) continue
      const col = pick(r, cols)
      const old = row[col]
      const oldText = Buffer.isBuffer(old) ? old.toString('utf8') : typeof old === 'string' ? old : undefined
      let value: unknown
      const jsonKind = kind === 'huge-number' || kind === 'deep-nesting' || kind === 'wrong-type' ? kind : undefined
      const asJson = oldText !== undefined && jsonKind ? mutateJsonText(oldText, jsonKind, r) : undefined
      if (asJson !== undefined) value = Buffer.isBuffer(old) ? Buffer.from(asJson) : asJson
      else if (kind === 'invalid-utf8' || kind === 'nul') value = Buffer.concat([Buffer.from(oldText ?? 'x'), Buffer.from(kind === 'nul' ? [0] : [0xff, 0xc3, 0x28])])
      else if (kind === 'truncate' && oldText) value = oldText.slice(0, int(r, oldText.length))
      else if (kind === 'huge-number') value = pick(r, [9.2e18, -1, 1e308, 2 ** 53 + 1])
      else value = pick(r, [null, 42, 'not json {', Buffer.from([0xde, 0xad]), -1, 1e308])
      try {
        db.prepare(`UPDATE ${q} SET "${col.replace(/"/g, '""')}" = ? WHERE rowid = ?`).run(value as never, row.__rowid as number)
        return true
      } catch {
        continue // constraint: try another cell
      }
    }
    return false
  } finally {
    try {
      db.pragma('wal_checkpoint(TRUNCATE)')
    } catch {
      // not WAL
    }
    db.close()
  }
}
