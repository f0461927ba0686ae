/**
 * Claude Code: reads `~/.claude/projects/**.jsonl` transcripts and their sub-agent transcripts
 * (seed 002 "Claude Code"; fixtures/real/claude-code/README.md); file-history checkpoints and
 * signed thinking blocks are kept; the catalog indexes through `readStream` (`stream.ts`). Convert
 * target: `write.ts` writes a new transcript that `claude --resume <id>` continues (provider
 * family Anthropic: its signed thinking is kept).
 */
import type { AgentDefinition } from '../types'
import { claudeCodeCensus } from './census'
import { discoverSessions, freshnessDeps } from './discover'
import { linkSessions } from './link'
import { readSession } from './read'
import { readSessionStream } from './stream'
import { writeClaudeSession } from './write'

/** The Claude Code agent definition for the registry. */
export const claudeCode: AgentDefinition = {
  id: 'claude-code',
  displayName: 'Claude Code',
  capabilities: { canWrite: true, hasCheckpoints: true, hasThinkingSignatures: true, providerFamily: 'anthropic' },
  discover: discoverSessions,
  freshness: freshnessDeps,
  read: readSession,
  readStream: (ref, ctx, out) => readSessionStream(ref, ctx, out),
  link: linkSessions,
  write: writeClaudeSession,
  census: claudeCodeCensus,
}
