/**
 * `openInTerminal` (issue 17, "Open in terminal" after "Continue in…"): main remembers each
 * conversion it ran in this process, and opens a terminal only for one of those, with the resume
 * command the target's writer built (`WriteOutput.resumeCommand`) and the folder it gave. The
 * renderer names the converted session (target agent + new session id); it never passes a
 * command, and nothing read from a store is run as a command (a project folder from a store is
 * only ever a quoted argument of `cd`). The terminal per OS: src/main/platform/terminal.ts.
 */
import { resolve } from 'node:path'
import { SepiaError, type TerminalOpened } from '../../shared/api'
import type { ConvertResult } from '../../shared/convert'
import { isAgentId, type AgentId, type HomeOs } from '../../shared/ir'
import { pathFinder, spawnTerminal, terminalLaunch, type FindProgram, type Spawner } from '../platform/terminal'

/** What the book needs from its host. */
export interface ResumeBookDeps {
  /** This machine's OS. */
  platform: HomeOs
  /** The user's own home: a session written elsewhere is not where the agent here looks. */
  ownHome: string
  env: Readonly<Record<string, string | undefined>>
  /** Starts the terminal (tests record instead). Default: `spawnTerminal`. */
  spawn?: Spawner
  /** PATH lookup (default: `pathFinder(env, platform)`). */
  find?: FindProgram
}

interface Entry {
  command: string
  cwd?: string
  home: string
  displayName: string
}

/** Conversions of this process, and the terminal launch for each. */
export class ResumeBook {
  private readonly entries = new Map<string, Entry>()

  constructor(private readonly deps: ResumeBookDeps) {}

  /** Remember a finished conversion (called by `convertSession` with its own result). */
  remember(result: ConvertResult): void {
    const entry: Entry = { command: result.resumeCommand, home: result.target.home, displayName: result.target.displayName }
    if (result.cwd !== undefined) entry.cwd = result.cwd
    this.entries.set(`${result.target.agent}\0${result.sessionId}`, entry)
  }

  /**
   * Open the user's terminal running the resume command of the session Sepia converted to
   * `agent` under `sessionId`. Rejects `UNKNOWN_AGENT`, `BAD_ARGUMENT`, `NOT_FOUND` (not a
   * conversion of this run), `UNAVAILABLE` (written into another home, no terminal, no display).
   */
  async open(agent: AgentId, sessionId: string): Promise<TerminalOpened> {
    if (!isAgentId(agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(agent)}" is not an agent Sepia knows.` })
    if (typeof sessionId !== 'string' || sessionId === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A session id is required.' })
    const entry = this.entries.get(`${agent}\0${sessionId}`)
    if (!entry) {
      throw new SepiaError({
        code: 'NOT_FOUND',
        message: `Sepia can open a terminal only for a session it has just continued in another agent, and ${sessionId} is not one of them. Copy the command and paste it into a terminal instead.`,
      })
    }
    if (resolve(entry.home) !== resolve(this.deps.ownHome)) {
      throw new SepiaError({
        code: 'UNAVAILABLE',
        path: entry.home,
        message: `The session was written into ${entry.home}, not into your own home folder, so ${entry.displayName} on this computer would not find it. Copy the command and run it where that folder is the home.`,
      })
    }
    const launch = terminalLaunch(this.deps.platform, entry.cwd !== undefined ? { command: entry.command, cwd: entry.cwd } : { command: entry.command }, this.deps.find ?? pathFinder(this.deps.env, this.deps.platform), this.deps.env)
    await (this.deps.spawn ?? spawnTerminal)(launch)
    return { terminal: launch.terminal, command: launch.script }
  }
}
