/**
 * Argument checks at the bridge (issue 16, Electron checklist "validate the sender and the
 * arguments"): before a transport calls a method, its arguments must have the shapes of the
 * shared `SepiaApi` types — how many, and each one's JSON type. The methods still check values
 * (an unknown agent, a path outside the policy); this table stops wrong shapes early, with one
 * message. It is a `Record<ApiMethod, …>`, so a new API method without an entry does not compile.
 */
import type { ApiMethod, SepiaErrorShape } from '../../shared/api'

/** One argument: `a` agent id, `s` string, `o` plain object, `n` number; a trailing `?` makes it optional. */
type Arg = 'a' | 's' | 's?' | 'o' | 'o?' | 'n?'

/** The arguments of every method, from `SepiaApi` in src/shared/api.ts. */
export const API_ARGS: Record<ApiMethod, readonly Arg[]> = {
  getAppInfo: [],
  getLibrary: ['o?'],
  openHome: ['s'],
  openDemo: [],
  getSession: ['a', 's'],
  pickFolder: [],
  approveFolder: ['s', 's'],
  exportSessions: ['o'],
  exportSessionContent: ['a', 's', 's', 'o?'],
  collectForReview: ['o'],
  getRecentHomes: [],
  getTaskProgress: ['s'],
  cancelTask: ['s'],
  revealSecrets: ['a', 's'],
  hideSecrets: ['a', 's'],
  listCheckpoints: ['a', 's', 'o?'],
  previewRestore: ['a', 's', 's', 'o?'],
  restoreCheckpoint: ['a', 's', 's', 'o?'],
  undoRestore: ['s'],
  listRestores: [],
  convertTargets: ['a', 's', 'o?'],
  planConvert: ['a', 's', 'a', 'o?'],
  convertSession: ['a', 's', 'a', 'o?'],
  openInTerminal: ['a', 's'],
  getPreferences: [],
  setPreferences: ['o'],
  search: ['s', 'o?'],
  getUsage: ['o?'],
  exportUsageCsv: ['o?'],
  getIndexStatus: [],
  getChanges: ['s?'],
  getSessionPage: ['a', 's', 'o?'],
  getSessionNode: ['a', 's', 's'],
  findInSession: ['a', 's', 's', 'o?'],
  getHealth: [],
  reportProblem: ['s', 's?'],
  getTimeline: ['o?'],
  exportTimeline: ['s', 'o?'],
  getAgentSettings: ['o?'],
  getArchiveStatus: [],
  setArchiveSettings: ['o'],
  pruneArchive: [],
  putBack: ['a', 's'],
  getRetentionWarnings: [],
  bundleSession: ['a', 's', 'o'],
  installBundle: ['s', 'o?'],
  moveSession: ['a', 's', 'o'],
}

function fits(v: unknown, a: Arg): boolean {
  if (a.endsWith('?') && (v === undefined || v === null)) return true
  if (a[0] === 's' || a[0] === 'a') return typeof v === 'string'
  if (a[0] === 'n') return typeof v === 'number' && Number.isFinite(v)
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

const WORD: Record<string, string> = { a: 'an agent id', s: 'text', o: 'an object', n: 'a number' }

/** `undefined` when `args` fit `method`'s shapes, else a `BAD_ARGUMENT` error to answer with. */
export function checkArgs(method: ApiMethod, args: readonly unknown[]): SepiaErrorShape | undefined {
  const shape = API_ARGS[method]
  if (args.length > shape.length) return { code: 'BAD_ARGUMENT', message: `${method} takes at most ${shape.length} argument(s), not ${args.length}.` }
  for (let i = 0; i < shape.length; i++) {
    // An agent that is not even text is an unknown agent (the code the methods give too).
    if (!fits(args[i], shape[i]!) && shape[i] === 'a') return { code: 'UNKNOWN_AGENT', message: `"${String(args[i])}" is not an agent Sepia knows.` }
    if (!fits(args[i], shape[i]!)) return { code: 'BAD_ARGUMENT', message: `Argument ${i + 1} of ${method} must be ${WORD[shape[i]![0]!]}${shape[i]!.endsWith('?') ? ' (or left out)' : ''}.` }
  }
  return undefined
}
