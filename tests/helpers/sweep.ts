/**
 * The read-only API sweep (issue 9 items 1, 3 and 7): every method in `API_METHODS` at run time is
 * called with sample arguments from {@link READ_SWEEP}, through the same envelope the transports
 * use, and every answer is kept for the caller to check (no source changed, no network, no
 * secret). A method in neither READ_SWEEP nor {@link WRITE_METHODS} is returned in `unknown`, and
 * the suites fail on it: a new API method cannot slip past the safety tests.
 *
 * To add a method: a read-only one gets a row in READ_SWEEP returning the argument lists to call
 * it with (`env` has the library's sessions and temporary folders outside the homes); one that
 * writes into the user's files by design goes to WRITE_METHODS (its own tests inject faults).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { API_METHODS, callEnveloped, type ApiMethod, type ApiResult, type Library } from '../../src/shared/api'
import type { AgentId, SessionSummary } from '../../src/shared/ir'
import type { SepiaService } from '../../src/main/api'
import { findAppRoot, type AppContext } from '../../src/main/context'

/** An API context over `homes`, with its own app data folder, an empty own home and a fixed clock. */
export function sweepContext(homes: string[]): AppContext {
  return {
    mode: 'browser',
    version: '0.0.0-test',
    platform: 'linux',
    homes,
    fixturesDir: join(findAppRoot(), 'fixtures'),
    env: {},
    ownHome: mkdtempSync(join(tmpdir(), 'sepia-own-home-')),
    appDataDir: mkdtempSync(join(tmpdir(), 'sepia-app-data-')),
    now: () => 1_800_000_000_000,
  }
}

/** Methods that write into the user's files by design (convert, restore): never swept. */
export const WRITE_METHODS: readonly string[] = [
  'convertSession',
  'restoreCheckpoint',
  'undoRestore',
  // Issue 19: put an archived session back into its agent's store.
  'putBack',
  // Issue 19: write into agent stores (install, move), or a session bundle that keeps secrets by design (src/main/move/service.test.ts).
  'bundleSession',
  'installBundle',
  'moveSession',
]

/** One call and its answer. */
export interface SweepCall {
  method: string
  args: unknown[]
  result: ApiResult<unknown>
}

/** What a plan gets: the API, the library, the homes, and temporary folders outside them. */
export interface SweepEnv {
  api: SepiaService
  homes: string[]
  library: Library
  /** Every session of the library. */
  sessions: SessionSummary[]
  /** The first session of each agent (for the heavier calls). */
  onePerAgent: SessionSummary[]
  /** A new temporary folder (allowed as a user-picked folder), named after `purpose`. */
  tempDir(purpose: string): string
  /** Answers so far, by method. */
  calls: Map<string, SweepCall[]>
}

type Plan = (env: SweepEnv) => unknown[][] | Promise<unknown[][]>

const TEXT_FORMATS = ['md', 'html', 'json', 'atif'] as const
/** Words the fixture transcripts hold, and words next to the secrets the leak test seeds. */
export const SEARCH_QUERIES = ['List the files', 'Makefile', 'NOTES', 'key', 'token', 'Bearer', 'password', 'export', 'secret', 'aws', 'cookie', 'sk', 'ghp', 'AKIA']
const okValues = <T>(env: SweepEnv, method: string): { args: unknown[]; value: T }[] =>
  (env.calls.get(method) ?? []).flatMap((c) => (c.result.ok ? [{ args: c.args, value: c.result.value as T }] : []))

/**
 * Read-only methods → argument lists, in call order (later rows may use earlier answers).
 * `openHome` and `openDemo` come last: they replace the open homes.
 */
export const READ_SWEEP: Record<string, Plan> = {
  getAppInfo: () => [[]],
  getLibrary: () => [[], [{ refresh: true }]],
  getSession: (e) => e.sessions.map((s) => [s.agent, s.id]),
  revealSecrets: (e) => e.sessions.map((s) => [s.agent, s.id]),
  hideSecrets: (e) => e.onePerAgent.map((s) => [s.agent, s.id]),
  pickFolder: () => [[]],
  approveFolder: (e) => [[e.tempDir('approve'), 'export']],
  getSessionPage: (e) => [...e.sessions.map((s) => [s.agent, s.id]), ...e.onePerAgent.map((s) => [s.agent, s.id, { offset: 0, limit: 5, maxChars: 60 }])],
  // Words a seeded secret or a fixture holds, and one that matches nothing.
  findInSession: (e) => e.onePerAgent.flatMap((s) => [[s.agent, s.id, 'the'], [s.agent, s.id, 'sk-', { includeMeta: true, limit: 5 }], [s.agent, s.id, 'zzqx-none']]),
  getSessionNode: (e) =>
    okValues<{ agent: string; id: string; nodes: { nodeId: string }[] }>(e, 'getSession')
      .filter(({ value }) => e.onePerAgent.some((s) => s.id === value.id && s.agent === value.agent))
      .flatMap(({ value }) => value.nodes.slice(0, 4).map((n) => [value.agent, value.id, n.nodeId])),
  getIndexStatus: async (e) => {
    // Let the catalog finish its search phase, so search answers with every message.
    for (let i = 0; i < 300; i++) {
      const st = await callEnveloped(e.api, 'getIndexStatus' as ApiMethod, [])
      if (!st.ok || !(st.value as { running?: boolean }).running) break
      await new Promise((r) => setTimeout(r, 100))
    }
    return [[]]
  },
  search: () => SEARCH_QUERIES.map((q) => [q]),
  getUsage: () => (['day', 'project', 'model', 'session', 'agent'] as const).map((by) => [{ by }]),
  exportUsageCsv: () => [[{ by: 'session' }]],
  getChanges: () => [[]],
  exportSessions: (e) => TEXT_FORMATS.map((format) => [{ sessions: e.onePerAgent.map((s) => ({ agent: s.agent, id: s.id })), format, outDir: e.tempDir(`export-${format}`), taskId: `sweep-${format}` }]),
  exportSessionContent: (e) => e.onePerAgent.flatMap((s) => TEXT_FORMATS.map((f) => [s.agent, s.id, f])),
  getTaskProgress: () => [['sweep-md']],
  cancelTask: () => [['sweep-none']],
  collectForReview: (e) => [[{ target: 'folder', outPath: join(e.tempDir('collect'), 'bundle') }]],
  getRecentHomes: () => [[]],
  listCheckpoints: (e) => e.sessions.map((s) => [s.agent, s.id]),
  previewRestore: (e) =>
    okValues<{ checkpoints?: { id: string }[] }>(e, 'listCheckpoints')
      .flatMap(({ args, value }) => (value.checkpoints ?? []).slice(0, 3).map((c) => [args[0], args[1], c.id, { targetDir: e.tempDir('preview') }]))
      .slice(0, 30),
  listRestores: () => [[]],
  convertTargets: (e) => e.sessions.map((s) => [s.agent, s.id]),
  // Nothing was converted in the sweep: every call is refused (NOT_FOUND) and no terminal opens.
  openInTerminal: (e) => e.onePerAgent.map((s) => [s.agent, s.id]),
  getPreferences: () => [[]],
  // Writes only the app's own preferences file (in the sweep's temporary app data folder); off.
  setPreferences: () => [[{ checkForUpdates: false }]],
  planConvert: (e) =>
    e.onePerAgent.flatMap((s) =>
      e.library.agents.filter((a) => a.capabilities.canWrite && a.id !== s.agent).map((a) => [s.agent, s.id, a.id, { targetHome: e.tempDir('convert-home') }]),
    ),
  getTimeline: (e) => [[], [{ limit: 50, sortBy: 'text' }], ...e.onePerAgent.map((s) => [{ agent: s.agent, sessionId: s.id }])],
  exportTimeline: () => [['csv'], ['jsonl']],
  getAgentSettings: () => [[]],
  getHealth: () => [[]],
  // The archive (issue 19) writes only inside the app data folder.
  getArchiveStatus: () => [[]],
  setArchiveSettings: () => [[{ capBytes: 64 << 20 }]],
  pruneArchive: () => [[]],
  getRetentionWarnings: () => [[]],
  // Writes only a masked copy into a folder the user picked (never into a store).
  reportProblem: (e) => e.onePerAgent.filter((s) => s.files[0] !== undefined).map((s) => [s.files[0], e.tempDir('report')]),
  openHome: (e) => e.homes.map((h) => [h]),
  openDemo: () => [[]],
}

/** Result of {@link runSweep}. */
export interface SweepReport {
  calls: SweepCall[]
  /** API methods with no READ_SWEEP row that are not in WRITE_METHODS. */
  unknown: string[]
  /** Root of every temporary folder the sweep made (exports, previews, bundles). */
  tempRoot: string
}

/** Call every read-only API method present in `API_METHODS`. */
export async function runSweep(api: SepiaService, homes: string[]): Promise<SweepReport> {
  const tempRoot = mkdtempSync(join(tmpdir(), 'sepia-sweep-'))
  const library = await api.getLibrary()
  const seen = new Set<AgentId>()
  const env: SweepEnv = {
    api,
    homes,
    library,
    sessions: library.sessions,
    onePerAgent: library.sessions.filter((s) => !seen.has(s.agent) && seen.add(s.agent)),
    tempDir: (purpose) => {
      const dir = mkdtempSync(join(tempRoot, `${purpose}-`))
      api.paths.allow(dir, 'picked')
      return dir
    },
    calls: new Map(),
  }
  const present = new Set<string>(API_METHODS)
  const unknown = API_METHODS.filter((m) => !(m in READ_SWEEP) && !WRITE_METHODS.includes(m))
  const calls: SweepCall[] = []
  for (const [method, plan] of Object.entries(READ_SWEEP)) {
    if (!present.has(method)) continue
    for (const args of await plan(env)) {
      const result = await callEnveloped(api, method as ApiMethod, args)
      const call = { method, args, result }
      calls.push(call)
      env.calls.set(method, [...(env.calls.get(method) ?? []), call])
    }
  }
  return { calls, unknown, tempRoot }
}

/** Methods that were called and never answered with a value (each call rejected), with their errors. */
export function neverResolved(report: SweepReport): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  const byMethod = new Map<string, SweepCall[]>()
  for (const c of report.calls) byMethod.set(c.method, [...(byMethod.get(c.method) ?? []), c])
  for (const [m, cs] of byMethod) if (!cs.some((c) => c.result.ok)) out[m] = cs.map((c) => (c.result.ok ? '' : `${c.result.error.code}: ${c.result.error.message}`)).slice(0, 3)
  return out
}
