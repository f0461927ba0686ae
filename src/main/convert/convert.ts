/**
 * One conversion, from a read source session to a target agent's store:
 * prepare (`prepare.ts`) → write with the target's writer (`AgentDefinition.write`) → read back
 * and compare (`verify.ts`). `planConversion` stops before writing (the writer runs with
 * `dryRun`), so the Convert dialog and `sepia convert --dry-run` show the warnings first.
 */
import { randomUUID } from 'node:crypto'
import { SepiaError } from '../../shared/api'
import { cdAndRun, type ConvertPlan, type ConvertResult, type ConvertWarning, isAbsoluteOn, mergeWarnings, WARNING_SEVERITY } from '../../shared/convert'
import type { HomeOs, Session } from '../../shared/ir'
import { readBack } from '../agents/read-back'
import type { AgentDefinition, ReadContext, WriteOptions, WriteResult } from '../agents/types'
import type { HomeLayout } from '../platform'
import { prepareForTarget, type TargetProfile } from './prepare'
import { transcriptOf } from './transcript'
import { sourceToolRecord } from './source-record'
import { verifyWritten } from './verify'
import { VOCABULARIES } from './vocab'
import { runWriteJob } from '../util/write-journal'

/** Progress of a long operation: `done` of `total` steps, in `phase` (plain words). */
export type ProgressFn = (done: number, total: number, phase: string) => void

/** Everything one conversion needs (I/O injected: clock, ids, fault hook). */
export interface ConversionInput {
  /** The source session (as the host chose to pass it: masked or revealed). */
  session: Session
  target: AgentDefinition
  /** The home written into. */
  layout: HomeLayout
  textOnly: boolean
  /** Working directory for the converted session (default: the source's). */
  cwd?: string
  now(): number
  /** Random UUIDs (default `crypto.randomUUID`). */
  newId?(): string
  ctx: ReadContext
  /** Test hook passed to the writer. */
  fault?: (step: string) => void
  onProgress?: ProgressFn
  /**
   * Sepia's own data folder: when given, the write is a recorded write job there
   * (`util/write-journal.ts`), so a kill mid-write is finished or cleaned on the next start.
   */
  appDataDir?: string
}

/** The preparation profile of `target`. Throws `CANNOT_WRITE` when it has no writer. */
export function targetProfile(target: AgentDefinition): TargetProfile {
  const vocabulary = VOCABULARIES[target.id]
  if (!target.write || !target.capabilities.canWrite || !vocabulary) {
    throw new SepiaError({ code: 'CANNOT_WRITE', message: `Sepia cannot write ${target.displayName} sessions yet. Choose another agent to continue in.` })
  }
  const profile: TargetProfile = { agent: target.id, displayName: target.displayName, vocabulary }
  if (target.capabilities.providerFamily) profile.providerFamily = target.capabilities.providerFamily
  return profile
}

function writeOptions(input: ConversionInput, dryRun: boolean): WriteOptions {
  const opts: WriteOptions = {
    layout: input.layout,
    textOnly: input.textOnly,
    dryRun,
    now: input.now,
    newId: input.newId ?? randomUUID,
    sourceRef: { agent: input.session.agent, sessionId: input.session.id },
  }
  const path = input.session.source.files[0]
  if (path !== undefined) opts.sourceRef.path = path
  if (input.fault) opts.fault = input.fault
  return opts
}

async function write(input: ConversionInput, prepared: Session, dryRun: boolean): Promise<WriteResult> {
  try {
    return await input.target.write!(prepared, writeOptions(input, dryRun))
  } catch (e) {
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the ${input.target.displayName} session: ${(e as Error).message}. Nothing was left behind.` })
  }
}

function planFrom(input: ConversionInput, profile: TargetProfile, prepared: Session, written: WriteResult, prepWarnings: ConvertPlan['warnings']): ConvertPlan {
  const s = input.session
  const masked: ConvertPlan['warnings'] = s.maskedSecrets ? [{ kind: 'secrets-masked', count: s.maskedSecrets }] : []
  const foreign = foreignProject(prepared.workingDirectory, input.layout.os)
  const warnings = mergeWarnings([...prepWarnings, ...written.warnings, ...masked, ...(foreign ? [foreign] : [])])
  const plan: ConvertPlan = {
    source: { agent: s.agent, id: s.id },
    target: { agent: profile.agent, displayName: profile.displayName, home: input.layout.home },
    textOnly: input.textOnly,
    warnings,
    losses: warnings.filter((w) => WARNING_SEVERITY[w.kind] === 'loss').length,
    counts: transcriptOf(prepared).counts,
    sessionId: written.output.sessionId,
    files: written.output.files,
    resumeCommand: written.output.resumeCommand,
  }
  if (profile.providerFamily) plan.target.providerFamily = profile.providerFamily
  if (s.title !== undefined) plan.source.title = s.title
  if (s.workingDirectory !== undefined) plan.source.workingDirectory = s.workingDirectory
  if (s.source.files[0] !== undefined) plan.source.path = s.source.files[0]
  if (written.output.cwd !== undefined) plan.cwd = written.output.cwd
  if (prepared.workingDirectory !== undefined) plan.projectFolder = prepared.workingDirectory
  if (foreign) plan.foreignProjectFolder = true
  plan.resumeShellCommand = cdAndRun(written.output.cwd, written.output.resumeCommand, input.layout.os)
  return plan
}

/** The `foreign-project-path` warning when `cwd` is not an absolute path on a machine of `os`. */
export function foreignProject(cwd: string | undefined, os: HomeOs): ConvertWarning | undefined {
  if (cwd === undefined || cwd === '' || isAbsoluteOn(cwd, os)) return undefined
  return { kind: 'foreign-project-path', count: 1, path: cwd, os }
}

/** What converting would do; writes nothing. Throws `CANNOT_WRITE`. */
export async function planConversion(input: ConversionInput): Promise<ConvertPlan> {
  const profile = targetProfile(input.target)
  const prepared = prepareForTarget(input.session, profile, { textOnly: input.textOnly, ...(input.cwd ? { cwd: input.cwd } : {}) })
  const dry = await write(input, prepared.session, true)
  return planFrom(input, profile, prepared.session, dry, prepared.warnings)
}

/**
 * Convert: prepare, write under a new id, read back and compare. Throws `CANNOT_WRITE`, or
 * `WRITE_FAILED` when writing failed (the writer left nothing behind). A read-back difference does
 * not throw: it is reported in `verification`.
 */
export async function runConversion(input: ConversionInput): Promise<ConvertResult> {
  const progress = input.onProgress ?? (() => undefined)
  const profile = targetProfile(input.target)
  progress(0, 3, 'Preparing the session')
  const prepared = prepareForTarget(input.session, profile, { textOnly: input.textOnly, ...(input.cwd ? { cwd: input.cwd } : {}) })
  progress(1, 3, `Writing the ${profile.displayName} session`)
  const writeNow = () => write(input, prepared.session, false)
  const written = input.appDataDir ? await runWriteJob(input.appDataDir, 'convert', [input.layout.home], writeNow) : await writeNow()
  progress(2, 3, 'Reading it back')
  let back: Session | undefined
  try {
    back = await readBack(input.target, input.layout, written.output.sessionId, input.ctx)
  } catch (e) {
    back = undefined
    void e
  }
  const verification = verifyWritten(prepared.session, back, profile.displayName, await sourceToolRecord(input.session), input.session)
  progress(3, 3, 'Done')
  const plan = planFrom(input, profile, prepared.session, written, prepared.warnings)
  return {
    ...plan,
    sessionId: written.output.sessionId,
    files: written.output.files,
    backups: written.output.backups,
    resumeShellCommand: plan.resumeShellCommand ?? written.output.resumeCommand,
    verification,
  }
}
