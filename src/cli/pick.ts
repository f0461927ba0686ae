/**
 * The session a command line names: `sepia show|move|bundle|checkpoints|restore|put-back <id>`
 * take a whole id or its start (as `sepia list` prints ids, `abc123de` is enough when unique).
 */
import { SepiaError } from '../shared/api'
import type { SessionSummary } from '../shared/ir'
import { pasteableId, safeText } from './terminal'

/**
 * The one session of `sessions` that `id` names, as typed: an exact id first, else the sessions
 * whose id starts with `id` (of agent `agent` when given). When those are one session and its own
 * sub-agents (Claude Code sidechains are `<parent id>/sidechain-<uuid>`, so they share every prefix
 * of the parent's id), the top-level session is the one meant (and when several top-level sessions
 * match, only they are named). Resolves `undefined` when nothing
 * matches (each command says why in its own words); throws `BAD_ARGUMENT` naming up to 10 of the
 * matches when several remain, suggesting `--agent` only when it was not given and they are of
 * several agents.
 */
export function matchSession<S extends Pick<SessionSummary, 'id' | 'agent' | 'title' | 'parentSessionId'>>(sessions: readonly S[], id: string, agent?: string): S | undefined {
  const matches = sessions.filter((s) => (s.id === id || s.id.startsWith(id)) && (!agent || s.agent === agent))
  const exact = matches.filter((s) => s.id === id)
  let pick = exact.length > 0 ? exact : matches
  if (pick.length > 1) {
    // A match whose parent is also a match is that parent's sub-agent.
    const keys = new Set(pick.map((s) => `${s.agent}\0${s.id}`))
    const tops = pick.filter((s) => !(s.parentSessionId && keys.has(`${s.agent}\0${s.parentSessionId}`)))
    if (tops.length > 0) pick = tops
  }
  if (pick.length > 1) {
    const names = pick.slice(0, 10).map((s) => `  ${s.agent}  ${pasteableId(s.id)}  ${s.title ?? ''}`.trimEnd())
    const agents = new Set(pick.map((s) => s.agent))
    const hint = !agent && agents.size > 1 ? 'give more of the id or --agent' : 'give more of the id'
    throw new SepiaError({ code: 'BAD_ARGUMENT', message: safeText(`"${id}" matches ${pick.length} sessions; ${hint}:\n${names.join('\n')}${pick.length > 10 ? '\n  …' : ''}`) })
  }
  return pick[0]
}
