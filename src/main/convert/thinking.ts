/**
 * Thinking-signature rules (seed 002 "Thinking signatures / opaque reasoning": "Unsigned thinking is
 * still dropped on write: the backend rejects it on replay"; only Devin and Claude seal thinking,
 * Cursor fully redacts it):
 * - a signed thinking block is written only to a target whose provider family is the one that
 *   sealed it (an Anthropic signature is checked by Anthropic only);
 * - unsigned thinking is never written as thinking;
 * - either way the user is told (a warning, counted).
 * The sealing family comes from the message's model name, else from the source agent.
 */
import type { ProviderFamily } from '../../shared/convert'
import type { AgentId, MessageNode, Session } from '../../shared/ir'
import { familyOfModel } from '../convert-shared/model-family'

/** Families of agents that seal thinking with their own scheme or use one provider only. */
const AGENT_FAMILY: Partial<Record<AgentId, ProviderFamily>> = {
  'claude-code': 'anthropic',
  codex: 'openai',
  gemini: 'google',
  devin: 'devin',
  cursor: 'cursor',
  'cursor-agent': 'cursor',
}

/** Agents whose signatures are their own scheme whatever the model (Devin `sealed.v1`, Cursor redacted blobs). */
const OWN_SEAL = new Set<AgentId>(['devin', 'cursor', 'cursor-agent'])

/** The family whose API sealed this node's thinking. */
export function sealFamily(node: MessageNode, session: Session): ProviderFamily {
  if (OWN_SEAL.has(session.agent)) return AGENT_FAMILY[session.agent]!
  return familyOfModel(node.model) ?? familyOfModel(session.model) ?? AGENT_FAMILY[session.agent] ?? 'any'
}

/** What to do with a node's thinking for a target of family `target`. */
export type ThinkingDecision = 'none' | 'keep' | 'unsigned' | 'other-provider'

/** Decide per {@link ThinkingDecision} (see the module comment). */
export function thinkingDecision(node: MessageNode, session: Session, target: ProviderFamily | undefined): ThinkingDecision {
  const hasThinking = (node.thinking ?? '') !== '' || node.thinkingSignature !== undefined
  if (!hasThinking) return 'none'
  if (!node.thinkingSignature) return 'unsigned'
  const from = sealFamily(node, session)
  return target !== undefined && target !== 'any' && from === target ? 'keep' : 'other-provider'
}
