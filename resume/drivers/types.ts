/**
 * A driver per target agent: how the real CLI is installed, pointed at the mock model and made to
 * resume a session (shared kit `realstores/lib/agents.sh`, `realstores/README.md` table "How each
 * agent is pointed at the mock and made to resume").
 */
import type { Mock } from '../mock/server'
import type { AgentPackage, Sandbox } from '../sandbox'

/** What a driver gets for one resume. */
export interface DriverContext {
  sandbox: Sandbox
  mock: Mock
  /** The installed binary. */
  bin: string
  log(message: string): void
}

/** What a resume printed. */
export interface ResumeRun {
  /** Exit status (undefined for terminal UIs stopped with Ctrl-C). */
  exitCode?: number | null
  /** What the agent printed (or the screen, for terminal UIs). */
  output: string
}

/** One target agent. */
export interface Driver {
  /** Sepia agent id of the target. */
  agent: 'claude-code' | 'cline' | 'codex' | 'opencode' | 'kilo-code' | 'gemini' | 'qwen-code' | 'pi'
    | 'copilot-cli' | 'droid' | 'continue'
  package: AgentPackage
  /** Scenario file name in `resume/scenarios/`. */
  scenario: string
  /** Before the session is written: configure the provider the way a user would (Cline `auth`). */
  prepareHome(ctx: DriverContext): Promise<void>
  /** Resume `sessionId` and send `prompt` (it holds the scenario marker `RESUME-CHECK`). */
  resume(ctx: DriverContext, sessionId: string, prompt: string): Promise<ResumeRun>
}
