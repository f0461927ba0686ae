/**
 * The conversation as a target replays it, for comparing what was written with what the target's
 * reader reads back (and for round-trip tests): the main thread's user texts, assistant texts with
 * their tool calls, and tool results, with counts. Events, injected context (but the expanded prompt
 * of a slash command, `isCommandPrompt`, which a conversion writes) and system messages are not part
 * of it; texts are compared with whitespace collapsed.
 */
import type { TranscriptCounts } from '../../shared/convert'
import { isCommandPrompt, type MessageNode, type Session } from '../../shared/ir'
import { selectThread } from './thread'

/** One turn of the projection. */
export interface TranscriptEntry {
  role: 'user' | 'assistant' | 'tool'
  /** Text with whitespace collapsed. */
  text: string
  /** Assistant: names of the tools it called, in order. */
  calls?: string[]
}

/** A projection and its counts. */
export interface Transcript {
  entries: TranscriptEntry[]
  counts: TranscriptCounts
}

/**
 * True when `n`, the prompt a slash command expanded into ({@link isCommandPrompt}), follows the
 * user turn that typed the command (`prev`: `/review Scope: …`, Claude Code, no images in either):
 * a conversion writes the two as one user message, the expanded prompt first and the typed line
 * after it (`<prompt>\n\n/review Scope: …`). One turn, as the person gave it, rather than two user
 * messages in a row; and a target that takes a user message beginning with "/" for a command and
 * leaves it out when it resumes (Gemini CLI, Qwen Code: `message-skipped-by-target`) keeps it.
 */
export function foldsIntoCommandTurn(prev: MessageNode | undefined, n: MessageNode): prev is MessageNode {
  return (
    prev !== undefined &&
    isCommandPrompt(n) &&
    prev.role === 'user' &&
    prev.isMeta !== true &&
    !prev.event &&
    prev.content.trimStart().startsWith('/') &&
    !prev.blocks?.length &&
    !n.blocks?.length
  )
}

/** The text of a command turn and the prompt it expanded into, written as one user message ({@link foldsIntoCommandTurn}). */
export function foldedCommandText(turn: MessageNode, prompt: MessageNode): string {
  return `${prompt.content.trim()}\n\n${turn.content.trim()}`
}

/** Collapse whitespace and trim. */
export function normText(s: string): string {
  return s.replace(/\s+/g, ' ').trim()
}

/** The projection of `session` (see the module comment). */
export function transcriptOf(session: Session): Transcript {
  const { nodes } = selectThread(session)
  const entries: TranscriptEntry[] = []
  const counts: TranscriptCounts = { userMessages: 0, assistantMessages: 0, toolCalls: 0, toolResults: 0, pairedCalls: 0 }
  const resultIds = new Set<string>()
  for (const n of nodes) if (n.role === 'tool' && n.toolCallId && !n.event) resultIds.add(n.toolCallId)
  let prev: MessageNode | undefined
  for (const n of nodes) {
    if (n.event || (n.isMeta && !isCommandPrompt(n)) || n.role === 'system') continue
    const before = prev
    prev = n
    const text = normText(n.content)
    if (foldsIntoCommandTurn(before, n) && entries[entries.length - 1]?.role === 'user') {
      // The command turn and its expanded prompt are one user message in what a conversion writes.
      entries[entries.length - 1]!.text = normText(foldedCommandText(before, n))
      continue
    }
    if (n.role === 'user') {
      if (text === '' && !n.blocks?.length) continue
      counts.userMessages++
      entries.push({ role: 'user', text })
    } else if (n.role === 'assistant') {
      const calls = (n.toolCalls ?? []).map((c) => c.name)
      if (text === '' && calls.length === 0) continue
      counts.assistantMessages++
      counts.toolCalls += calls.length
      counts.pairedCalls += (n.toolCalls ?? []).filter((c) => resultIds.has(c.id)).length
      entries.push(calls.length ? { role: 'assistant', text, calls } : { role: 'assistant', text })
    } else {
      counts.toolResults++
      entries.push({ role: 'tool', text })
    }
  }
  return { entries, counts }
}

const COUNT_WORDS: Record<keyof TranscriptCounts, string> = {
  userMessages: 'user messages',
  assistantMessages: 'assistant messages',
  toolCalls: 'tool calls',
  toolResults: 'tool results',
  pairedCalls: 'tool calls with a result',
}

const clip = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}...` : s)

/**
 * Differences between what was written (`expected`) and what was read back (`actual`), in plain
 * words; at most `max` turn-level differences are listed. Empty when they match.
 */
export function compareTranscripts(expected: Transcript, actual: Transcript, max = 10): string[] {
  const out: string[] = []
  for (const k of Object.keys(COUNT_WORDS) as (keyof TranscriptCounts)[]) {
    if (expected.counts[k] !== actual.counts[k]) out.push(`${COUNT_WORDS[k]}: wrote ${expected.counts[k]}, read back ${actual.counts[k]}`)
  }
  const n = Math.max(expected.entries.length, actual.entries.length)
  let listed = 0
  for (let i = 0; i < n && listed < max; i++) {
    const e = expected.entries[i]
    const a = actual.entries[i]
    if (!e || !a) {
      out.push(e ? `turn ${i + 1} (${e.role}) is missing after reading back: "${clip(e.text)}"` : `turn ${i + 1} (${a!.role}) was read back but not written: "${clip(a!.text)}"`)
      listed++
      continue
    }
    if (e.role !== a.role) out.push(`turn ${i + 1}: wrote a ${e.role} message, read back a ${a.role} message`)
    else if (e.text !== a.text) out.push(`turn ${i + 1} (${e.role}): text differs: wrote "${clip(e.text)}", read back "${clip(a.text)}"`)
    else if ((e.calls ?? []).join(',') !== (a.calls ?? []).join(',')) out.push(`turn ${i + 1}: tool calls differ: wrote ${(e.calls ?? []).join(', ') || 'none'}, read back ${(a.calls ?? []).join(', ') || 'none'}`)
    else continue
    listed++
  }
  return out
}
