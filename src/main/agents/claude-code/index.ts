/**
 * Claude Code: reads `~/.claude/projects/**.jsonl` transcripts and their sub-agent transcripts
 * (seed 002 "Claude Code"; fixtures/real/claude-code/README.md); file-history checkpoints and
 * signed thinking blocks are kept; the catalog indexes through `readStream` (`stream.ts`). Convert
 * target: `write.ts` writes a new transcript that `claude --resume <id>` continues (provider
 * family Anthropic: its signed thinking is kept).
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { claudeCodeCensus } from './census'
import { discoverSessions, freshnessDeps } from './discover'
import { linkSessions } from './link'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readSession = lazy(() => import('./read').then((m) => m.readSession))
const readSessionStream = lazy(() => import('./stream').then((m) => m.readSessionStream))
const writeClaudeSession = lazy(() => import('./write').then((m) => m.writeClaudeSession))

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
