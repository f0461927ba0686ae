/**
 * The table of agents (STYLE.md "one folder per agent, one table of agents"). Adding an agent is
 * adding a folder under `src/main/agents/` and one line here. Capabilities are data on each
 * definition, never `if (agent === ...)` elsewhere.
 */
import type { AgentId } from '../../shared/ir'
import { SepiaError } from '../../shared/api'
import { aider } from './aider'
import { amp } from './amp'
import { claudeCode } from './claude-code'
import { cline, pearai, rooCode } from './cline'
import { codex } from './codex'
import { continueAgent } from './continue'
import { copilotCli } from './copilot-cli'
import { crush } from './crush'
import { cursor } from './cursor'
import { cursorAgent } from './cursor-agent'
import { devin } from './devin'
import { droid } from './droid'
import { gemini } from './gemini'
import { goose } from './goose'
import { kiloCode } from './kilo-code'
import { kiro } from './kiro'
import { lettaCode } from './letta-code'
import { opencode } from './opencode'
import { openhands } from './openhands'
import { pi } from './pi'
import { qwenCode } from './qwen-code'
import { vscodeCopilotChat } from './vscode-copilot-chat'
import { zed } from './zed'
import type { AgentDefinition } from './types'

/** Every agent Sepia reads, in display order. */
export const AGENTS: readonly AgentDefinition[] = [claudeCode, cline, rooCode, kiloCode, pearai, cursor, cursorAgent, codex, gemini, opencode, devin, copilotCli, goose, qwenCode, pi, openhands, aider, crush, vscodeCopilotChat, continueAgent, zed, kiro, droid, amp, lettaCode]

/** The definition of one agent. Throws SepiaError `UNKNOWN_AGENT` for an id with no reader. */
export function agentById(id: AgentId | string): AgentDefinition {
  const found = AGENTS.find((a) => a.id === id)
  if (!found) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `Sepia cannot read "${id}" sessions yet.` })
  return found
}
