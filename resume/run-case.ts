/**
 * One cell entry of the resume matrix: convert one source session into a fresh sandbox home for one
 * target, resume it with the real target CLI against the mock model, and check the request it sent.
 */
import { rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describeWarning } from '../src/shared/convert'
import type { Session } from '../src/shared/ir'
import { agentById } from '../src/main/agents/registry'
import { runConversion } from '../src/main/convert/convert'
import { layoutForHome } from '../src/main/platform'
import { checkRequests, targetsOwnDoing, undecodableImages } from './check'
import type { Driver } from './drivers/types'
import { expectationOf } from './expect'
import { startMock } from './mock/server'
import { makeSandbox, stopSandboxProcesses } from './sandbox'

/** The prompt typed after the resume; `RESUME-CHECK` selects the scenarios' one-line answer. */
export const RESUME_PROMPT = 'RESUME-CHECK: reply with one line.'

/** The outcome of one source session in one target. */
export interface CaseResult {
  source: string
  sessionId: string
  target: string
  ok: boolean
  /** The resume check's verdict line. */
  verdict: string
  missing: string[]
  /** Sepia's own read-back verification. */
  verified: boolean
  differences: string[]
  warnings: string[]
  newSessionId?: string
  error?: string
  /**
   * Why the case cannot pass although the conversion is right: the target itself compacted the
   * conversation, masked tool outputs, skipped command-like user messages, or refused a session
   * without turns (`targetsOwnDoing`, check.ts), and Sepia's read-back of what it wrote matched.
   */
  cannot?: string
  /** The agent's output, kept for failures. */
  output?: string
  seconds: number
  /** Sandbox kept for inspection (with --keep, or a failure with --keep-failed). */
  sandbox?: string
}

/** Options of {@link runCase}. */
export interface CaseOptions {
  driver: Driver
  bin: string
  textOnly: boolean
  keep: 'all' | 'failed' | 'none'
  scenariosDir: string
  log(message: string): void
}

/** Run one case (never throws: errors become a failed result). */
export async function runCase(source: string, session: Session, opts: CaseOptions): Promise<CaseResult> {
  const started = Date.now()
  const project = basename(session.workingDirectory ?? '') || 'project'
  const sandbox = makeSandbox(project)
  const result: CaseResult = { source, sessionId: session.id, target: opts.driver.agent, ok: false, verdict: '', missing: [], verified: false, differences: [], warnings: [], seconds: 0 }
  const logFile = join(sandbox.home, 'mock-requests.jsonl')
  const mock = await startMock({ scenarioFile: join(opts.scenariosDir, opts.driver.scenario), logFile, cwd: sandbox.cwd })
  const ctx = { sandbox, mock, bin: opts.bin, log: opts.log }
  try {
    await opts.driver.prepareHome(ctx)
    const converted = await runConversion({
      session,
      target: agentById(opts.driver.agent),
      layout: await layoutForHome({ home: sandbox.home }),
      textOnly: opts.textOnly,
      cwd: sandbox.cwd,
      now: Date.now,
      ctx: { now: Date.now },
    })
    result.newSessionId = converted.sessionId
    result.verified = converted.verification.ok
    result.differences = converted.verification.differences
    result.warnings = converted.warnings.map(describeWarning)
    const run = await opts.driver.resume(ctx, converted.sessionId, RESUME_PROMPT)
    writeFileSync(join(sandbox.home, 'agent-output.txt'), run.output)
    const expectation = expectationOf(session)
    const verdict = checkRequests(mock.entries(), expectation, RESUME_PROMPT, opts.textOnly)
    result.ok = verdict.ok && converted.verification.ok
    result.verdict = verdict.line
    result.missing = verdict.missing
    const own = targetsOwnDoing(opts.driver.agent, mock.entries(), expectation, verdict, run.output, { undecodableImages: undecodableImages(session) })
    if (own && converted.verification.ok) result.cannot = `${own}; Sepia's read-back of what it wrote matched`
    if (!result.ok) result.output = run.output.slice(-3000)
  } catch (e) {
    result.error = (e as Error).stack ?? String(e)
    result.verdict = `FAIL: ${(e as Error).message}`
  } finally {
    await mock.stop()
    await stopSandboxProcesses(sandbox.home)
    result.seconds = Math.round((Date.now() - started) / 100) / 10
    if (opts.keep === 'all' || (opts.keep === 'failed' && !result.ok)) result.sandbox = sandbox.home
    else rmSync(sandbox.home, { recursive: true, force: true })
  }
  return result
}
