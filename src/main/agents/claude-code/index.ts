/**
 * Claude Code: reads `~/.claude/projects/**.jsonl` transcripts and their sub-agent transcripts
 * (seed 002 "Claude Code"; fixtures/real/claude-code/README.md). Read-only for now (no writer);
 * file-history checkpoints and signed thinking blocks are kept.
 */
import type { AgentDefinition } from '../types'
import { discoverSessions } from './discover'
import { linkSessions } from './link'
import { readSession } from './read'

/** The Claude Code agent definition for the registry. */
export const claudeCode: AgentDefinition = {
  id: 'claude-code',
  displayName: 'Claude Code',
  capabilities: { canWrite: false, hasCheckpoints: true, hasThinkingSignatures: true },
  discover: discoverSessions,
  read: readSession,
  link: linkSessions,
}
