/**
 * Fuzz worker: reads one agent's home the way the library does (discover → read every ref → link)
 * and answers counts, so the main thread can kill it on a hang or when memory runs out. Started by
 * tests/fuzz.test.ts with tsx; one message in, one message out per input.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { parentPort } from 'node:worker_threads'
import { AGENTS } from '../../src/main/agents/registry'
import { layoutForHome } from '../../src/main/platform'

/** A request: read `agent`'s sessions under `home`. */
export interface FuzzRequest {
  seq: number
  agent: string
  home: string
  /** Read only the refs built from one of these files (all refs when absent). */
  only?: string[]
}

/** The answer: what loaded, what was reported, what threw. */
export interface FuzzAnswer {
  seq: number
  /** Session id of every ref discovery found. */
  discovered: string[]
  /** Id of every session read. */
  sessions: string[]
  /** Paths named by diagnostics (discovery and sessions, any severity but info). */
  diagnosticPaths: string[]
  /** Refs whose read threw (the library turns these into diagnostics): files and message. */
  rejected: { files: string[]; message: string }[]
  /** discover() threw (it must not). */
  discoverThrew?: string
  /** Bytes of heap in use after a collection, with the sessions read still held (what the read keeps). */
  heapUsed: number
}

// A collector to call before measuring, so `heapUsed` is what the read keeps, not old garbage.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

parentPort!.on('message', async (req: FuzzRequest) => {
  // Test hooks for the harness itself: a reader stuck in a loop, and one that eats memory.
  if (req.agent === '__spin__') for (;;);
  if (req.agent === '__eat__') {
    const hoard: number[][] = []
    for (;;) hoard.push(new Array<number>(1 << 20).fill(hoard.length + 0.5))
  }
  const agent = AGENTS.find((a) => a.id === req.agent)!
  gc()
  const answer: FuzzAnswer = { seq: req.seq, discovered: [], sessions: [], diagnosticPaths: [], rejected: [], heapUsed: 0 }
  try {
    const layout = await layoutForHome({ home: req.home })
    let found
    try {
      found = await agent.discover(layout, { now: () => 0 })
    } catch (e) {
      answer.discoverThrew = e instanceof Error ? `${e.name}: ${e.message}` : String(e)
      found = { refs: [], diagnostics: [] }
    }
    for (const d of found.diagnostics) if (d.severity !== 'info') answer.diagnosticPaths.push(d.path)
    const sessions = []
    for (const ref of found.refs) {
      answer.discovered.push(ref.sessionId)
      if (req.only && !ref.files.some((f) => req.only!.includes(f))) continue
      try {
        sessions.push(await agent.read(ref, { now: () => 0 }))
      } catch (e) {
        answer.rejected.push({ files: ref.files, message: e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 300) : String(e) })
      }
    }
    try {
      agent.link?.(sessions)
    } catch (e) {
      answer.rejected.push({ files: [], message: `link: ${e instanceof Error ? e.message : String(e)}` })
    }
    for (const s of sessions) {
      answer.sessions.push(s.id)
      for (const d of s.diagnostics) if (d.severity !== 'info') answer.diagnosticPaths.push(d.path)
    }
    // Measured while the sessions are still held: the memory the read keeps.
    gc()
    answer.heapUsed = process.memoryUsage().heapUsed
  } catch (e) {
    answer.discoverThrew = `setup: ${e instanceof Error ? e.message : String(e)}`
  }
  answer.heapUsed ||= process.memoryUsage().heapUsed
  parentPort!.postMessage(answer)
})
