/**
 * `npx tsx bench/serve-lag.ts [ROOT]`: how long the built `sepia serve` (of ROOT, default this
 * checkout; `npx electron-vite build` there first) keeps its event loop from other requests while
 * it opens the renderer bench's 200 MB Claude Code session (`writeHugeSession`, seeded, kept in
 * `$SEPIA_BENCH_DIR/serve-lag/`) the way the renderer asks: page 0, two pages at a jump while the
 * whole read runs, then a page every 100 ms until pages are final, then two far pages.
 *
 * The server runs with a preloaded 5 ms timer (`--require`) that writes every turn more than
 * 30 ms late (`process.hrtime`, µs, and the lag, wall ms: a loaded machine's waits for a core count
 * too) and with `--cpu-prof`; each late turn is printed with the functions of most self time in
 * the profile's samples of that stretch and the two commonest stacks (V8's profile clock and
 * `process.hrtime` are both the monotonic clock). Page answers are printed with their ms, their
 * `stats.messages` (a prefix's count until the whole read is there) and `partial`. BENCHMARKS.md
 * "Renderer, session 12".
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeHugeSession } from './corpus'
import { sleep, startServe, waitIndexIdle } from './serve'

const root = process.argv[2] ?? join(import.meta.dirname, '..')
const base = join(process.env['SEPIA_BENCH_DIR']?.trim() || join(tmpdir(), 'sepia-bench'), 'serve-lag')
mkdirSync(base, { recursive: true })
const meta = join(base, 'session.json')
let h: { home: string; id: string }
if (existsSync(meta)) h = JSON.parse(readFileSync(meta, 'utf8')) as { home: string; id: string }
else {
  const w = writeHugeSession(join(base, 'session'), 200e6)
  h = { home: w.home, id: w.id }
  writeFileSync(meta, JSON.stringify(h))
}
const dir = mkdtempSync(join(tmpdir(), 'sepia-serve-lag-'))
const lagFile = join(dir, 'lag.txt')
const preload = join(dir, 'lag.cjs')
writeFileSync(
  preload,
  `const fs = require('fs'); let last = process.hrtime.bigint()
setInterval(() => { const now = process.hrtime.bigint(); const lag = Number(now - last) / 1e6 - 5
  if (lag > 30) fs.appendFileSync(${JSON.stringify(lagFile)}, (now / 1000n) + ' ' + lag.toFixed(1) + '\\n'); last = now }, 5).unref()
`,
)
for (const d of ['data', 'user', 'prof']) mkdirSync(join(dir, d))
const env = { ...process.env, HOME: join(dir, 'user'), SEPIA_DATA_DIR: join(dir, 'data') }
const s = await startServe({ root, home: h.home, env, nodeFlags: ['--require', preload, '--cpu-prof', '--cpu-prof-dir', join(dir, 'prof')] })
try {
  await waitIndexIdle(s)
  rmSync(lagFile, { force: true })
  const t0 = performance.now()
  const page = async (offset: number): Promise<boolean> => {
    const t = performance.now()
    const p = await s.call<{ partial?: boolean; stats?: { messages: number } }>('getSessionPage', 'claude-code', h.id, { offset, limit: 100 })
    // A prefix's page counts the prefix's messages; a page of the whole read counts them all.
    console.log(`${((t - t0) / 1000).toFixed(2)} s  page ${offset}: ${(performance.now() - t).toFixed(0)} ms, ${p.stats?.messages} messages${p.partial ? ', partial' : ''}`)
    return p.partial === true
  }
  await page(0)
  await Promise.all([page(600), page(700)])
  for (let i = 0; i < 600; i++) {
    if (!(await page(1200 + (i % 5) * 100)) && i > 0) break
    await sleep(100)
  }
  for (const o of [12000, 23800]) await page(o)
  await sleep(500)
} finally {
  await s.stop()
}

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
const file = readdirSync(join(dir, 'prof')).find((f) => f.endsWith('.cpuprofile'))
const prof = JSON.parse(readFileSync(join(dir, 'prof', file!), 'utf8')) as { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] }
const byId = new Map(prof.nodes.map((n) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const times: number[] = []
let at = prof.startTime
for (const d of prof.timeDeltas) times.push((at += d))
const name = (n: ProfileNode): string => `${(n.callFrame.functionName || '(anon)').slice(0, 40)}@${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`
const lags = existsSync(lagFile) ? readFileSync(lagFile, 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number) as [number, number]) : []
console.log(`\n${lags.length} turns more than 30 ms late; the longest ${Math.max(0, ...lags.map((l) => l[1])).toFixed(0)} ms`)
for (const [end, lag] of lags) {
  const start = end - lag * 1000
  const self = new Map<string, number>()
  const stacks = new Map<string, number>()
  for (let i = 0; i < times.length; i++) {
    if (times[i]! < start || times[i]! > end) continue
    const n = byId.get(prof.samples[i]!)!
    self.set(name(n), (self.get(name(n)) ?? 0) + 1)
    const chain: string[] = []
    for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) chain.push((byId.get(id)!.callFrame.functionName || '(anon)').slice(0, 40))
    const key = chain.reverse().slice(1, 9).join(' > ')
    stacks.set(key, (stacks.get(key) ?? 0) + 1)
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${v}`).join(', ')
  const st = [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([k, v]) => `${v}: ${k}`).join(' | ')
  console.log(`lag ${lag.toFixed(0)} ms (samples): ${top}\n    ${st}`)
}
rmSync(dir, { recursive: true, force: true })
