/**
 * The floor of `npm run bench` (issue 15): one thread reads every file of the corpus home,
 * `JSON.parse`s every line of a JSONL file (and a `.json` file whole), and sums the token usage it
 * finds (`message.usage` of Claude Code records; `metrics` of Cline SDK messages; Codex
 * `token_count` events). Nothing is stored. No indexer can list sessions with less work than this,
 * so the bench prints Sepia's times as multiples of it.
 *
 *   node --import tsx bench/floor.ts <home>   prints one JSON line: {ms, bytes, files, lines, tokens, maxRssMB}
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** What the floor did: wall ms, bytes read, files, lines parsed, tokens summed. */
export interface FloorResult {
  ms: number
  bytes: number
  files: number
  lines: number
  tokens: number
}

function walk(dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) walk(p, out)
    else if (e.isFile() && (e.name.endsWith('.jsonl') || e.name.endsWith('.json'))) out.push(p)
  }
}

function usageOf(v: unknown): number {
  if (!v || typeof v !== 'object') return 0
  const o = v as Record<string, unknown>
  const msg = o['message'] as Record<string, unknown> | undefined
  const u = (msg?.['usage'] ?? o['metrics'] ?? (o['payload'] as Record<string, unknown> | undefined)?.['info']) as Record<string, unknown> | undefined
  if (!u || typeof u !== 'object') return 0
  let n = 0
  for (const k of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'inputTokens', 'outputTokens']) {
    const x = u[k]
    if (typeof x === 'number') n += x
  }
  return n
}

/** Run the floor over every `.jsonl`/`.json` file under `home`. */
export function runFloor(home: string): FloorResult {
  const t = performance.now()
  const files: string[] = []
  walk(home, files)
  let bytes = 0
  let lines = 0
  let tokens = 0
  for (const f of files) {
    bytes += statSync(f).size
    const text = readFileSync(f, 'utf8')
    if (f.endsWith('.json')) {
      try {
        const v = JSON.parse(text) as unknown
        lines++
        const list = Array.isArray(v) ? v : ((v as Record<string, unknown>)?.['messages'] as unknown[] | undefined)
        if (Array.isArray(list)) for (const m of list) tokens += usageOf(m)
      } catch {
        // not JSON: skipped, as a reader would report it
      }
      continue
    }
    let at = 0
    while (at < text.length) {
      let end = text.indexOf('\n', at)
      if (end < 0) end = text.length
      if (end > at) {
        try {
          tokens += usageOf(JSON.parse(text.slice(at, end)))
          lines++
        } catch {
          // a damaged line
        }
      }
      at = end + 1
    }
  }
  return { ms: performance.now() - t, bytes, files: files.length, lines, tokens }
}

const entry = process.argv[1] ?? ''
if (/[\\/]floor\.(ts|mjs|js)$/.test(entry)) {
  const r = runFloor(process.argv[2]!)
  process.stdout.write(JSON.stringify({ ...r, maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024) }) + '\n')
}
