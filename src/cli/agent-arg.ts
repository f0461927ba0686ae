/**
 * The message for an `--agent` / `--to` value that is not an agent id (a first-user try typed
 * `--to claude` and `--to windsurf` and was told only that Sepia does not know them).
 */
import type { AgentId } from '../shared/ir'
import { SepiaError } from '../shared/api'

/** A name reduced to lowercase letters and digits ("Claude Code" → "claudecode"). */
function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '')
}

/** Apps whose chats Sepia lists but cannot read (encrypted; README "Windsurf (Cascade), Trae"). */
const ENCRYPTED: Record<string, string> = { windsurf: 'Windsurf', cascade: 'Windsurf', trae: 'Trae' }

/**
 * The ids of `agents` that `name` most likely means: the ids or display names equal to it once
 * squashed, else those that start with it (≥ 3 characters), else those it starts with
 * ("claudecodecli" → claude-code). Empty when none is close.
 */
export function closeAgents(name: string, agents: readonly { id: AgentId; displayName: string }[]): AgentId[] {
  const n = squash(name)
  if (n.length === 0) return []
  const forms = agents.map((a) => ({ id: a.id, forms: [squash(a.id), squash(a.displayName)] }))
  const equal = forms.filter((a) => a.forms.includes(n))
  if (equal.length > 0) return equal.map((a) => a.id)
  if (n.length >= 3) {
    const longer = forms.filter((a) => a.forms.some((f) => f.startsWith(n)))
    if (longer.length > 0) return longer.map((a) => a.id)
  }
  return forms.filter((a) => a.forms.some((f) => f.length >= 3 && n.startsWith(f))).map((a) => a.id)
}

/**
 * The UNKNOWN_AGENT error for `name`, naming what it was meant for. `choices` are the ids the
 * option takes (every agent for `--agent`, the writable ones for `--to`); `agents` gives their
 * display names. Says "Did you mean ..." for a close id, and that Windsurf/Trae chats are
 * encrypted (listed, never read or written).
 */
export function unknownAgentError(name: string, choices: readonly AgentId[], agents: readonly { id: AgentId; displayName: string }[], verb: 'reads' | 'writes'): SepiaError {
  const enc = ENCRYPTED[squash(name)]
  if (enc) {
    return new SepiaError({
      code: 'UNKNOWN_AGENT',
      message: `${enc} keeps its chats encrypted; Sepia can list them (sepia doctor) but not ${verb === 'writes' ? 'write' : 'read'} them. Sepia ${verb}: ${choices.join(', ')}.`,
    })
  }
  const close = closeAgents(name, agents.filter((a) => choices.includes(a.id)))
  const hint = close.length > 0 ? ` Did you mean ${close.join(' or ')}?` : ''
  return new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${name}" is not an agent id.${hint} Sepia ${verb}: ${choices.join(', ')}.` })
}
