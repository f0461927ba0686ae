/**
 * One measurement in a fresh process (so start-up and memory are its own), for `bench/run.ts`:
 *
 *   tsx bench/probe.ts warm <home> <catalog>         warm start: open the catalog, list the library
 *   tsx bench/probe.ts page <home> <catalog> <id>    open the large Claude Code session: first page
 *   tsx bench/probe.ts read <home> <file>            read one Claude Code session with the reader
 *   tsx bench/probe.ts index <home> <catalog>        cold index of the home through the catalog
 *                                                    (worker threads, no search phase)
 *
 * Prints one JSON line: timings in ms, `maxRssMB` (peak resident memory of this process).
 */
import { createApi } from '../src/main/api'
import { AGENTS } from '../src/main/agents/registry'
import { findAppRoot } from '../src/main/context'
import { LibraryService } from '../src/main/library'
import { layoutForHome } from '../src/main/platform'

const [mode, home, arg, id] = process.argv.slice(2)
const t0 = performance.now()
const ctx = { now: Date.now }
const out: Record<string, unknown> = { mode }

if (mode === 'warm') {
  const homes = [{ layout: await layoutForHome({ home: home! }), isDemo: false }]
  const t1 = performance.now()
  const lib = new LibraryService(homes, AGENTS, ctx, { catalogPath: arg! })
  const library = await lib.load()
  out.libraryMs = performance.now() - t1
  out.sessions = library.sessions.length
  // Through the API as the app calls it (secrets masking of the whole list included).
  const dir = arg!.replace(/[\\/]catalog\.sqlite$/, '')
  const api = createApi({ mode: 'electron', version: 'bench', platform: 'linux', homes: [home!], fixturesDir: `${findAppRoot()}/fixtures`, env: {}, ownHome: home!, appDataDir: dir })
  const t2 = performance.now()
  const viaApi = await api.getLibrary()
  out.apiMs = performance.now() - t2
  out.apiSessions = viaApi.sessions.length
  process.exitCode = 0
} else if (mode === 'page') {
  const homes = [{ layout: await layoutForHome({ home: home! }), isDemo: false }]
  const lib = new LibraryService(homes, AGENTS, ctx, { catalogPath: arg! })
  const t1 = performance.now()
  const page = await lib.getSessionPage('claude-code', id!, { offset: 0, limit: 100 })
  out.firstPageMs = performance.now() - t1
  out.totalNodes = page.totalNodes
  const t2 = performance.now()
  await lib.getSessionPage('claude-code', id!, { offset: Math.floor(page.totalNodes / 2), limit: 100 })
  out.nextPageMs = performance.now() - t2
} else if (mode === 'read') {
  const cc = AGENTS.find((a) => a.id === 'claude-code')!
  const { refs } = await cc.discover(await layoutForHome({ home: home! }), ctx)
  const ref = refs.find((r) => r.files[0] === arg)!
  const t1 = performance.now()
  const s = await cc.read(ref, ctx)
  out.readMs = performance.now() - t1
  out.nodes = s.nodes.length
  out.bytes = ref.size
} else if (mode === 'index') {
  const homes = [{ layout: await layoutForHome({ home: home! }), isDemo: false }]
  const lib = new LibraryService(homes, AGENTS, ctx, { catalogPath: arg! })
  lib.refresher.textIndexing = false
  const t1 = performance.now()
  const r = await lib.refresh()
  out.indexMs = performance.now() - t1
  out.bytes = r.bytes
  out.sessions = r.read
  out.failed = r.failed
  out.MBps = r.bytes / 1e6 / (r.ms / 1000)
  await lib.close()
}
out.totalMs = performance.now() - t0
out.maxRssMB = Math.round(process.resourceUsage().maxRSS / 1024)
process.stdout.write(JSON.stringify(out) + '\n')
process.exit(0)
