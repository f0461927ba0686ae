/**
 * Converting a session to another agent ("Continue in..."): the shapes that cross the bridge.
 *
 * A conversion reads a session into the IR, prepares it for the target (main thread only, tool
 * calls mapped to the target's vocabulary and paired with their results, thinking kept only where
 * the target's model accepts it), writes it with the target agent's writer under a new session id,
 * and reads it back with the target's reader to verify it. Everything the target cannot hold is
 * reported as a {@link ConvertWarning} before anything is written (STYLE.md "Lossy work is
 * reported, not silent": pandoc's `BlockNotRendered`/`SkippedContent`).
 *
 * No Node or Electron imports: the renderer imports this file.
 */
import type { AgentId, HomeOs } from './ir'
import { plural } from './plural'

/**
 * The model provider whose API a target agent replays a session to. A thinking block's signature
 * is only valid for the provider that sealed it (seed 002 "Thinking signatures": "Unsigned thinking
 * is still dropped on write: the backend rejects it on replay").
 * `any`: the agent can use any provider (Cline), so no provider seal can be trusted to match.
 */
export type ProviderFamily = 'anthropic' | 'openai' | 'google' | 'devin' | 'cursor' | 'any'

/**
 * What a conversion drops or changes, counted. A closed union: `describeWarning` and
 * `WARNING_SEVERITY` are exhaustive tables over `kind`, so a new kind does not compile until it
 * has words.
 */
export type ConvertWarning =
  /** Thinking with no provider signature (Cline, Codex, Gemini, OpenCode reasoning). */
  | { kind: 'thinking-unsigned-dropped'; count: number }
  /** Signed thinking whose provider is not the target's. */
  | { kind: 'thinking-other-provider-dropped'; count: number; from: ProviderFamily; to: ProviderFamily }
  /** Calls of one source tool written as a target tool (arguments translated). */
  | { kind: 'tool-mapped'; count: number; from: string; to: string }
  /** Calls of a tool with no counterpart in the target: name and arguments kept as they were. */
  | { kind: 'tool-kept'; count: number; name: string }
  /** Calls that ran several items at once (Cline fan-out, multi-hunk patches) split into one call per item. */
  | { kind: 'tool-split'; count: number; name: string; into: number }
  /** Text-only conversion: tool calls and results written as plain text. */
  | { kind: 'tools-as-text'; count: number }
  /** Tool call ids the target would refuse (characters outside `[A-Za-z0-9_-]`), rewritten. */
  | { kind: 'tool-id-rewritten'; count: number }
  /** Tool results whose call is missing, written as plain user text. */
  | { kind: 'orphan-result-as-text'; count: number }
  /** Tool calls with no recorded result: a placeholder result was added (an unpaired call is dropped by the target). */
  | { kind: 'unpaired-call-result-added'; count: number }
  /** Tool results stored away from their call, moved right after it. */
  | { kind: 'result-moved'; count: number }
  /** Images the target cannot hold, written as a short note. */
  | { kind: 'image-as-note'; count: number }
  /** Images whose data does not decode as base64 (a published copy with redacted runs): a note instead, never written (issue 14). */
  | { kind: 'image-undecodable'; count: number }
  /** Attached files the target cannot hold, written as a short note. */
  | { kind: 'file-as-note'; count: number }
  /** Content blocks of a kind Sepia does not model, with no text to keep. */
  | { kind: 'block-dropped'; count: number; blockType: string }
  /** Markers that are not conversation turns (compaction, model change, interruption, unknown events). */
  | { kind: 'event-dropped'; count: number; event: string }
  /** Text the agent injected (system reminders, environment details), hidden in the source too. */
  | { kind: 'injected-context-dropped'; count: number }
  /** System messages (system prompts, notices); the target builds its own. */
  | { kind: 'system-message-dropped'; count: number }
  /** Messages on abandoned branches (rewinds, edits); only the main thread is converted. */
  | { kind: 'branch-dropped'; count: number }
  /** Devin's rendered/unrendered assistant twins written once (seed 002 "Format surprises"). */
  | { kind: 'twin-folded'; count: number }
  /** Sub-agent runs carried as their spawning call and its report; the sub-agent's own conversation is not included. */
  | { kind: 'subagent-flattened'; count: number }
  /** A sub-agent run whose own conversation Sepia found no transcript of (no session linked to its call). */
  | { kind: 'subagent-no-transcript'; count: number }
  /** Messages whose token usage or cost the target has no field for. */
  | { kind: 'usage-not-representable'; count: number }
  /**
   * Input-token counts measured with another agent's prompt, left out because the target sizes its
   * context from them (Cline compacts a resumed session whose last input count looks too large).
   */
  | { kind: 'input-usage-dropped'; count: number }
  /** Checkpoints (workspace snapshots) of the source agent; they do not transfer. */
  | { kind: 'checkpoints-dropped'; count: number }
  /** Messages left with no content after the steps above. */
  | { kind: 'empty-message-dropped'; count: number }
  /** User messages written but left out by the target when it resumes (Gemini CLI skips texts starting with `/` or `?`). */
  | { kind: 'message-skipped-by-target'; count: number }
  /** Secrets (API keys, tokens) written masked, as Sepia shows them; revealing the session first carries them over. */
  | { kind: 'secrets-masked'; count: number }
  /**
   * The session's project folder is not an absolute path on the target machine (a Windows path
   * converted for Linux or macOS, or the other way): the target cannot find the session from it.
   * Choose the project folder on this computer (`ConvertOptions.cwd`, `sepia convert --project`).
   */
  | { kind: 'foreign-project-path'; count: number; path: string; os: HomeOs }

/** The kinds of {@link ConvertWarning}. */
export type ConvertWarningKind = ConvertWarning['kind']

/** How much a warning matters: `loss` (not carried over), `change` (carried in another form), `info`. */
export type WarningSeverity = 'loss' | 'change' | 'info'

/** Severity per kind (exhaustive). */
export const WARNING_SEVERITY: Record<ConvertWarningKind, WarningSeverity> = {
  'thinking-unsigned-dropped': 'loss',
  'thinking-other-provider-dropped': 'loss',
  'tool-mapped': 'change',
  'tool-kept': 'info',
  'tool-split': 'change',
  'tools-as-text': 'change',
  'tool-id-rewritten': 'info',
  'orphan-result-as-text': 'change',
  'unpaired-call-result-added': 'change',
  'result-moved': 'info',
  'image-as-note': 'loss',
  'image-undecodable': 'loss',
  'file-as-note': 'loss',
  'block-dropped': 'loss',
  'event-dropped': 'info',
  'injected-context-dropped': 'info',
  'system-message-dropped': 'info',
  'branch-dropped': 'loss',
  'twin-folded': 'info',
  'subagent-flattened': 'loss',
  'subagent-no-transcript': 'loss',
  'usage-not-representable': 'loss',
  'input-usage-dropped': 'info',
  'checkpoints-dropped': 'loss',
  'empty-message-dropped': 'info',
  'message-skipped-by-target': 'loss',
  'secrets-masked': 'change',
  'foreign-project-path': 'loss',
}

const OS_NAMES: Record<HomeOs, string> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' }

const FAMILY_NAMES: Record<ProviderFamily, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  google: 'Google',
  devin: 'Devin',
  cursor: 'Cursor',
  any: 'a provider chosen at resume time',
}

/** 'it' for one, 'them' for more: the pronoun that agrees with a count. */
const them = (n: number): string => (n === 1 ? 'it' : 'them')

type Describers = { [K in ConvertWarningKind]: (w: Extract<ConvertWarning, { kind: K }>) => string }

const DESCRIBE: Describers = {
  'thinking-unsigned-dropped': (w) =>
    `${plural(w.count, 'thinking block')} without a provider signature left out: the target would send ${them(w.count)} back to its model, which rejects unsigned thinking.`,
  'thinking-other-provider-dropped': (w) =>
    w.from === 'any'
      ? `${plural(w.count, 'signed thinking block')} left out: the source agent talks to whichever provider it was set up with, so which provider signed ${w.count === 1 ? 'it' : 'them'} is not recorded, and a target sends signed thinking back only to the provider that signed it.`
      : w.to === 'any'
        ? `${plural(w.count, 'signed thinking block')} from ${FAMILY_NAMES[w.from]} left out: only ${FAMILY_NAMES[w.from]} accepts its signature, and the target talks to whichever provider it is set up with.`
        : `${plural(w.count, 'signed thinking block')} from ${FAMILY_NAMES[w.from]} left out: only ${FAMILY_NAMES[w.from]} accepts its signature, and the target talks to ${FAMILY_NAMES[w.to]}.`,
  'tool-mapped': (w) => `${plural(w.count, `${w.from} call`)} written as ${w.to}.`,
  'tool-kept': (w) => `${plural(w.count, `${w.name} call`)} kept with the original name and arguments: the target has no such tool.`,
  'tool-split': (w) => `${plural(w.count, `${w.name} call`)} that ran several items split into ${w.into} calls, each with its own result.`,
  'tools-as-text': (w) => `${plural(w.count, 'tool call')} and the results written as plain text (text only).`,
  'tool-id-rewritten': (w) => `${plural(w.count, 'tool call id')} rewritten to characters the target accepts.`,
  'orphan-result-as-text': (w) => `${plural(w.count, 'tool result')} whose call is missing written as plain user text.`,
  'unpaired-call-result-added': (w) =>
    `${plural(w.count, 'tool call')} had no recorded result: a placeholder result was added, because the target drops a call without one.`,
  'result-moved': (w) => `${plural(w.count, 'tool result')} moved right after the call it answers.`,
  'image-as-note': (w) => `${plural(w.count, 'image')} replaced by a short note: the target cannot hold ${them(w.count)}.`,
  'image-undecodable': (w) => `${plural(w.count, 'image')} replaced by a short note: the data does not decode as base64, and the target would stop on it.`,
  'file-as-note': (w) => `${plural(w.count, 'attached file')} replaced by a short note: the target cannot hold ${them(w.count)}.`,
  'block-dropped': (w) => `${plural(w.count, `"${w.blockType}" block`)} with no text left out.`,
  'event-dropped': (w) => `${plural(w.count, `${w.event} marker`)} left out (not a conversation turn).`,
  'injected-context-dropped': (w) => `${plural(w.count, 'message')} of injected context (reminders, environment details) left out.`,
  'system-message-dropped': (w) => `${plural(w.count, 'system message')} left out: the target adds its own.`,
  'branch-dropped': (w) => `${plural(w.count, 'message')} on abandoned branches left out: only the main thread is converted.`,
  'twin-folded': (w) => `${plural(w.count, 'duplicated assistant message')} (rendered/unrendered twins) written once.`,
  'subagent-flattened': (w) =>
    w.count === 1
      ? `1 sub-agent run kept as the call that started it and its report; the sub-agent's own conversation stays a separate session.`
      : `${w.count} sub-agent runs, each kept as the call that started it and its report; each sub-agent's own conversation stays a separate session.`,
  'subagent-no-transcript': (w) =>
    w.count === 1
      ? `1 sub-agent run kept as the call that started it and its report; this home holds no transcript of the sub-agent's own conversation, so the report is all there is of it.`
      : `${w.count} sub-agent runs, each kept as the call that started it and its report; this home holds no transcript of the sub-agents' own conversations, so the reports are all there is of them.`,
  'usage-not-representable': (w) => `Token usage or cost of ${plural(w.count, 'message')} has no place in the target and is left out.`,
  'input-usage-dropped': (w) =>
    `Input-token counts of ${plural(w.count, 'message')} left out: they were measured with another agent's prompt, and the target would size its context from them.`,
  'checkpoints-dropped': (w) => `${plural(w.count, 'checkpoint')} of the source agent left out: they do not transfer.`,
  'empty-message-dropped': (w) => `${plural(w.count, 'message')} left empty by the steps above left out.`,
  'message-skipped-by-target': (w) =>
    `${plural(w.count, 'user message')} beginning with "/" or "?" written, but the target takes ${them(w.count)} for commands and leaves ${them(w.count)} out when it resumes: its model will not see ${them(w.count)}.`,
  'foreign-project-path': (w) =>
    `The project folder ${w.path} is not a folder on ${OS_NAMES[w.os]}, so the target agent will not find this session there. Choose the project folder on this computer.`,
  'secrets-masked': (w) => `${plural(w.count, 'secret')} (API keys, tokens) written masked, as Sepia shows them; reveal the session's secrets first to carry them over.`,
}

/** One warning in plain words, e.g. "3 run_commands calls written as Bash." */
export function describeWarning(w: ConvertWarning): string {
  return (DESCRIBE[w.kind] as (x: ConvertWarning) => string)(w)
}

/** The key two warnings are merged on (kind plus the kind's own fields). */
function warningKey(w: ConvertWarning): string {
  const { count: _c, ...rest } = w
  return JSON.stringify(rest)
}

/**
 * Merge warnings of the same kind (and same tool names, families...) by summing counts; drops
 * zero counts. Order: losses first, then changes, then info; stable within a severity.
 */
export function mergeWarnings(list: readonly ConvertWarning[]): ConvertWarning[] {
  const byKey = new Map<string, ConvertWarning>()
  for (const w of list) {
    if (w.count <= 0) continue
    const key = warningKey(w)
    const prev = byKey.get(key)
    if (prev) prev.count += w.count
    else byKey.set(key, { ...w })
  }
  const rank: Record<WarningSeverity, number> = { loss: 0, change: 1, info: 2 }
  return [...byKey.values()].sort((a, b) => rank[WARNING_SEVERITY[a.kind]] - rank[WARNING_SEVERITY[b.kind]])
}

/** Counts of a conversation as written or read back (main thread, no events or injected context). */
export interface TranscriptCounts {
  userMessages: number
  assistantMessages: number
  toolCalls: number
  toolResults: number
  /** Tool calls whose result is present. */
  pairedCalls: number
}

/** Options of a conversion, as the API takes them. */
export interface ConvertOptions {
  /** Write tool calls and results as plain text instead of tool blocks. Default false. */
  textOnly?: boolean
  /**
   * The home folder to write into (absolute path of an existing folder). Default: the user's own
   * home, where the target agent looks for its sessions.
   */
  targetHome?: string
  /**
   * The one-time token from `approveFolder` for the folder written into, when the user typed it or
   * it came from a store (issue 16). Not needed for a folder picked in the system dialog.
   */
  grant?: string
  /**
   * The project folder the converted session belongs to (absolute). Default: the source session's
   * working directory. The target finds sessions by it (Claude Code's project folder).
   */
  cwd?: string
}

/** The source of a conversion. */
export interface ConvertSource {
  agent: AgentId
  id: string
  title?: string
  workingDirectory?: string
  /** The source session's primary file. */
  path?: string
}

/** The target of a conversion. */
export interface ConvertTarget {
  agent: AgentId
  displayName: string
  /** Home folder written into. */
  home: string
  providerFamily?: ProviderFamily
}

/**
 * What a conversion would do, computed without writing anything (the Convert dialog, `sepia
 * convert --dry-run`). `sessionId`/`files` preview the writer's output; the real run makes a new id.
 */
export interface ConvertPlan {
  source: ConvertSource
  target: ConvertTarget
  textOnly: boolean
  /** What is dropped or changed, counted; losses first. */
  warnings: ConvertWarning[]
  /** Number of warnings whose severity is `loss` (0 = nothing is lost). */
  losses: number
  /** What would be written. */
  counts: TranscriptCounts
  /** A preview id in the target's format (not reserved). */
  sessionId: string
  /** Files that would be created (absolute paths). */
  files: string[]
  /** The command that resumes the session, e.g. `claude --resume <id>`, run in {@link cwd}. */
  resumeCommand: string
  /** The folder to run {@link resumeCommand} in. */
  cwd?: string
  /**
   * The project folder the converted session is written for (the source's, or `ConvertOptions.cwd`
   * when the caller re-targeted it). The Convert dialog prefills "Project folder on this computer" with it.
   */
  projectFolder?: string
  /** True when {@link projectFolder} is not an absolute path on the target machine (from another OS). */
  foreignProjectFolder?: boolean
  /** `cd <cwd> && <resumeCommand>` quoted for the target's shell (PowerShell on Windows), ready to paste. */
  resumeShellCommand?: string
}

/** The outcome of reading the written session back with the target's own reader. */
export interface ConvertVerification {
  /** True when the read-back has the same turns, tool pairs and texts as what was written. */
  ok: boolean
  /** Plain-words differences (empty when ok). */
  differences: string[]
  written: TranscriptCounts
  readBack: TranscriptCounts
}

/** A finished conversion. */
export interface ConvertResult extends Omit<ConvertPlan, 'sessionId' | 'files'> {
  /** The new session's id in the target's format. */
  sessionId: string
  /** Files created (absolute paths). */
  files: string[]
  /** Copies made of databases before a row was added (absolute paths). */
  backups: string[]
  /** `cd <cwd> && <resumeCommand>`, ready to paste into a shell. */
  resumeShellCommand: string
  verification: ConvertVerification
}

/** Quote a path for a POSIX shell (single quotes; plain paths stay as they are). */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/**
 * Quote one argument for the shell of `os`: POSIX single quotes (`'\''` for a quote inside) on
 * Linux and macOS, PowerShell single quotes (`''` for a quote inside) on Windows. Plain words
 * (letters, digits, `_./:@%+=,-`) stay as they are.
 */
export function quoteArg(s: string, os: HomeOs): string {
  if (/^[A-Za-z0-9_./:@%+=,-]+$/.test(s)) return s
  return os === 'win32' ? `'${s.replace(/'/g, "''")}'` : shellQuote(s)
}

/** `cd <cwd>` then `command`, in the shell of `os` (PowerShell's `Set-Location -LiteralPath` on Windows). */
export function cdAndRun(cwd: string | undefined, command: string, os: HomeOs): string {
  if (!cwd) return command
  return os === 'win32' ? `Set-Location -LiteralPath ${quoteArg(cwd, os)}; ${command}` : `cd ${quoteArg(cwd, os)} && ${command}`
}

/**
 * True when `path` is an absolute path on a machine of `os`: `/...` on Linux and macOS; `C:\...`,
 * `C:/...` or a UNC path `\\server\share` on Windows. A Windows path is not absolute on Linux
 * (Node's `posix.resolve` would put the process's folder in front of it), nor `/home/x` on Windows.
 */
export function isAbsoluteOn(path: string, os: HomeOs): boolean {
  if (os === 'win32') return /^[A-Za-z]:[\\/]/.test(path) || /^[\\/]{2}[^\\/]/.test(path)
  return path.startsWith('/')
}
