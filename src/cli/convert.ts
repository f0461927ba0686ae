/**
 * `sepia convert`: continue a session in another agent (the API's `planConvert` / `convertSession`).
 *
 *   sepia convert <session-id> --to <agent> [--agent ID] [--home DIR] [--target-home DIR] [--project DIR] [--dry-run] [--text-only] [--json]
 *
 * `--to` names the target agent (any writable agent of the registry: {@link CONVERT_TARGETS}). The session is written into
 * `--target-home` (default: your own home, where the target agent looks). `--dry-run` prints what
 * would be dropped or changed and writes nothing. `--project` writes the session for another
 * project folder on this computer (default: the source session's; needed when it is from another OS). `--text-only` writes tool calls as plain text.
 * Exit codes: 0 written (and read back the same), 1 failure or read-back differences (and a refusal,
 * nothing written: a project folder from another OS without `--project`), 2 bad usage. A `--project`
 * folder that does not exist yet is a note (the project may be cloned there after).
 */
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { SepiaError } from '../shared/api'
import { type ConvertOptions, type ConvertPlan, type ConvertResult, describeWarning, type TranscriptCounts, WARNING_SEVERITY } from '../shared/convert'
import { type AgentId, isAgentId } from '../shared/ir'
import type { SepiaService } from '../main/api'
import { AGENTS } from '../main/agents/registry'
import { oneLine } from '../main/ir/build'
import { sessionNotFound } from './terminal'
import { unknownAgentError } from './agent-arg'
import { plural } from '../shared/plural'
import { matchSession } from './pick'

/** Ids of the agents Sepia can write a session into (`capabilities.canWrite` in the registry, src/main/agents/registry.ts). */
export const CONVERT_TARGETS: readonly AgentId[] = AGENTS.filter((a) => a.capabilities.canWrite && a.write !== undefined).map((a) => a.id)

/** `words` joined by ", " and wrapped to lines of at most `width` characters, each after `indent`. */
export function wrapList(words: readonly string[], indent: string, width = 100): string {
  const lines: string[] = []
  let line = ''
  for (const [i, w] of words.entries()) {
    const piece = w + (i < words.length - 1 ? ',' : '')
    if (line && indent.length + line.length + 1 + piece.length > width) {
      lines.push(line)
      line = piece
    } else line = line ? `${line} ${piece}` : piece
  }
  if (line) lines.push(line)
  return lines.map((l) => indent + l).join('\n')
}

const COL = ' '.repeat(48)

/** Usage lines for the CLI's help; the targets come from the registry. */
export const CONVERT_USAGE = `  sepia convert <session-id> --to <agent> [--target-home DIR] [--project DIR] [--dry-run] [--text-only] [--json]
${COL}continue a session in another agent; --to is one of:
${wrapList(CONVERT_TARGETS, COL)}
${COL}--dry-run shows what changes and writes nothing;
${COL}--project sets the project folder on this computer
`

/** Options read from the command line. */
export interface ConvertCliOptions {
  to?: string
  agent?: string
  targetHome?: string
  /** `--project DIR`: the project folder on this computer (resolved against the shell's folder). */
  project?: string
  dryRun?: boolean
  textOnly?: boolean
  json?: boolean
  /** The `--home` arguments as passed (repeated in hints such as "Run sepia list --home DIR"). */
  homes?: string[]
}

type Out = NodeJS.WritableStream

const counts = (c: TranscriptCounts): string =>
  `${plural(c.userMessages, 'user message')}, ${plural(c.assistantMessages, 'assistant message')}, ${plural(c.toolCalls, 'tool call')} (${c.pairedCalls} with a result)`

function warningLines(plan: ConvertPlan): string[] {
  if (plan.warnings.length === 0) return ['  nothing is dropped or changed']
  const mark = { loss: 'lost   ', change: 'changed', info: 'note   ' } as const
  return plan.warnings.map((w) => `  ${mark[WARNING_SEVERITY[w.kind]]} ${describeWarning(w)}`)
}

function describeSource(plan: ConvertPlan): string {
  return `${plan.source.agent} session ${plan.source.id}${plan.source.title ? ` ("${oneLine(plan.source.title, 60)}")` : ''}`
}

/** The plan as text. */
export function formatPlan(plan: ConvertPlan): string {
  return [
    `Convert ${describeSource(plan)} to ${plan.target.displayName}${plan.textOnly ? ' (text only)' : ''}`,
    `  into ${plan.target.home}: ${plural(plan.files.length, 'file')}, writing ${counts(plan.counts)}`,
    'What changes:',
    ...warningLines(plan),
    ...(plan.projectFolder ? [`Project folder: ${plan.projectFolder}${plan.foreignProjectFolder ? ' (from another OS: choose one on this computer with --project DIR)' : ''}`] : []),
    `Dry run: nothing was written. After converting, resume with: ${(plan.resumeShellCommand ?? plan.resumeCommand).replace(plan.sessionId, '<new id>')}`,
    '',
  ].join('\n')
}

/** The result as text. */
export function formatResult(r: ConvertResult): string {
  const v = r.verification
  return [
    `Wrote ${r.target.displayName} session ${r.sessionId} from ${describeSource(r)}`,
    ...r.files.map((f) => `  ${f}`),
    ...r.backups.map((b) => `  backup of the database before the row was added: ${b}`),
    'Resume it with:',
    `  ${r.resumeShellCommand}`,
    'What changed:',
    ...warningLines(r),
    v.ok ? `Read back with Sepia's ${r.target.displayName} reader: the same (${counts(v.readBack)}).` : `Read back with Sepia's ${r.target.displayName} reader: DIFFERENT`,
    ...v.differences.map((d) => `  ${d}`),
    '',
  ].join('\n')
}

/**
 * Run `sepia convert`. Resolves the exit code; API errors are thrown (as SepiaError) for the
 * caller to print.
 */
export async function runConvert(api: SepiaService, args: string[], o: ConvertCliOptions, out: Out, err: Out): Promise<number> {
  const id = args[0]
  if (!id || !o.to) {
    err.write(`sepia: sepia convert needs a session id and --to <agent>.\n\n${CONVERT_USAGE}`)
    return 2
  }
  if (!isAgentId(o.to)) throw unknownAgentError(o.to, CONVERT_TARGETS, AGENTS, 'writes')
  const lib = await api.getLibrary()
  if (lib.index?.error) err.write(`warning: ${lib.index.error}. The session list may be out of date; converting anyway.\n`)
  const source = matchSession(lib.sessions, id, o.agent)
  if (!source) throw sessionNotFound(id, lib.homes, o.homes)
  const options: ConvertOptions = { textOnly: o.textOnly === true }
  if (o.targetHome) {
    const abs = resolve(o.targetHome)
    api.paths.allow(abs, 'picked') // typed on the command line: chosen by the user
    options.targetHome = abs
  }
  if (o.project) {
    // A Windows path typed on Linux or macOS (`D:\work\app`) is no folder here: resolve() would make it a relative name.
    if (process.platform !== 'win32' && /^([A-Za-z]:[\\/]|\\\\)/.test(o.project)) {
      throw new SepiaError({ code: 'BAD_ARGUMENT', message: `--project ${o.project} is a Windows path, not a folder on this computer. Give the project's folder here (for example ${process.env['HOME'] ?? '/home/you'}/src/app); nothing was written.` })
    }
    const folder = resolve(o.project)
    // As install-bundle says it (src/main/move/service.ts): a note, since the project may be cloned after.
    if (!isFolder(folder)) err.write(`note: the folder ${folder} does not exist on this computer yet: put the project there (clone or copy it) before resuming.\n`)
    options.cwd = folder
  }
  const target = o.to as AgentId
  if (!o.dryRun && !o.project) {
    // A project folder from another OS (`C:\Users\…` on Linux) cannot be resumed in: the target
    // would be told to `cd` into a folder this computer cannot have. Nothing is written.
    const plan = await api.planConvert(source.agent, source.id, target, options)
    if (plan.foreignProjectFolder) {
      throw new SepiaError({
        code: 'BAD_ARGUMENT',
        message: `The session's project folder ${plan.projectFolder ?? ''} is from another OS, not a folder on this computer. Pass --project <folder on this computer> to say where the project is here; nothing was written.`,
      })
    }
  }
  if (o.dryRun) {
    const plan = await api.planConvert(source.agent, source.id, target, options)
    out.write(o.json ? JSON.stringify(plan, null, 2) + '\n' : formatPlan(plan))
    return 0
  }
  const result = await api.convertSession(source.agent, source.id, target, options)
  out.write(o.json ? JSON.stringify(result, null, 2) + '\n' : formatResult(result))
  return result.verification.ok ? 0 : 1
}

/** True when `path` is a folder that exists. */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
