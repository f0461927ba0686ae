/**
 * VS Code Copilot Chat: the chat sessions VS Code's chat panel (driven by the GitHub Copilot Chat
 * extension, microsoft/vscode-copilot-chat) keeps in every VS Code-family user folder:
 * `workspaceStorage/<hash>/chatSessions/<id>.json[l]` and `globalStorage/emptyWindowChatSessions/`.
 * Read-only. Shapes from the VS Code source (files and commits in read.ts and discover.ts); the
 * fixtures in fixtures/built/vscode-copilot-chat are built from those shapes, not recorded (no
 * public real sample was found and VS Code does not run here).
 */
import type { AgentDefinition } from '../types'
import { discoverVscodeCopilotChat } from './discover'
import { readVscodeCopilotChatSession } from './read'

export { FORMAT_JSON, FORMAT_JSONL } from './discover'

/** The VS Code Copilot Chat definition for the registry. */
export const vscodeCopilotChat: AgentDefinition = {
  id: 'vscode-copilot-chat',
  displayName: 'VS Code Copilot Chat',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: false },
  discover: discoverVscodeCopilotChat,
  read: readVscodeCopilotChatSession,
}
