/**
 * VS Code Copilot Chat: the chat sessions VS Code's chat panel (driven by the GitHub Copilot Chat
 * extension, microsoft/vscode-copilot-chat) keeps in every VS Code-family user folder:
 * `workspaceStorage/<hash>/chatSessions/<id>.json[l]` and `globalStorage/emptyWindowChatSessions/`.
 * Read-only. Shapes from the VS Code source (files and commits in read.ts and discover.ts); the
 * fixtures in fixtures/built/vscode-copilot-chat are built from those shapes, not recorded (no
 * public real sample was found and VS Code does not run here).
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { discoverVscodeCopilotChat } from './discover'

export { FORMAT_JSON, FORMAT_JSONL } from './discover'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readVscodeCopilotChatSession = lazy(() => import('./read').then((m) => m.readVscodeCopilotChatSession))

/** The VS Code Copilot Chat definition for the registry. */
export const vscodeCopilotChat: AgentDefinition = {
  id: 'vscode-copilot-chat',
  displayName: 'VS Code Copilot Chat',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: false },
  discover: discoverVscodeCopilotChat,
  read: readVscodeCopilotChatSession,
}
