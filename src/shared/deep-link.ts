/**
 * Deep links (issue 17): `sepia://session/<agent>/<id>` opens that session. The Electron app
 * registers the `sepia:` scheme (src/main/deep-links.ts) and hands a parsed link to its window as
 * the page's hash route `#/session/<agent>/<id>`; in browser mode the same route is typed or
 * linked directly (`http://127.0.0.1:PORT/#/session/<agent>/<id>`). Both ends parse with this
 * module, so a link is checked once by one set of rules:
 *
 * - the agent is one Sepia knows (`AGENT_IDS`);
 * - the id is 1-200 URL-unreserved characters (`A-Z a-z 0-9 . _ ~ -`), starting with a letter or
 *   digit, without `..`: every agent's id format fits (UUIDs, Cline's `1796022183774_v75nv`,
 *   OpenCode's `ses_…`, Devin's `amber-falcon`); nothing percent-encoded, no `/`, `\`, `?`, `#`;
 * - nothing else: no query, no fragment, no extra path segment (one trailing `/` is tolerated,
 *   some OSes add it).
 *
 * A link that breaks a rule is no link (undefined), never a partial one. The id is matched
 * against the library's own ids before anything opens, so a link can only select a session.
 *
 * No Node or Electron imports: the renderer imports this file.
 */
import { isAgentId, type AgentId } from './ir'

/** A session named by a link. */
export interface SessionLink {
  agent: AgentId
  id: string
}

/** The scheme Sepia registers with the OS (`sepia:`). */
export const DEEP_LINK_SCHEME = 'sepia'

const ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/

/** The session of `agent` and `id` when both follow the rules above. */
function checked(agent: string, id: string): SessionLink | undefined {
  if (!isAgentId(agent)) return undefined
  if (!ID.test(id) || id.includes('..')) return undefined
  return { agent, id }
}

/** `sepia://session/<agent>/<id>` → the session, or undefined (see the module comment). */
export function parseDeepLink(url: unknown): SessionLink | undefined {
  if (typeof url !== 'string' || url.length > 512) return undefined
  const m = /^sepia:\/\/session\/([^/]*)\/([^/]*)\/?$/i.exec(url)
  return m ? checked(m[1]!, m[2]!) : undefined
}

/** The deep link of a session (`sepia://session/<agent>/<id>`); undefined when the id cannot be linked. */
export function deepLinkOf(link: SessionLink): string | undefined {
  return checked(link.agent, link.id) ? `${DEEP_LINK_SCHEME}://session/${link.agent}/${link.id}` : undefined
}

/** The page's hash route of a session, without `#`: `/session/<agent>/<id>`. */
export function sessionRoute(link: SessionLink): string {
  return `/session/${link.agent}/${link.id}`
}

/**
 * The session route in a page hash: `#/session/<agent>/<id>`, alone or as one `&`-separated part
 * next to others (`#token=…&/session/…`, browser mode's first URL). Undefined when there is none
 * or it breaks a rule.
 */
export function parseSessionRoute(hash: string): SessionLink | undefined {
  for (const part of hash.replace(/^#/, '').split('&')) {
    const m = /^\/session\/([^/]*)\/([^/]*)\/?$/.exec(part)
    if (m) return checked(m[1]!, m[2]!)
  }
  return undefined
}
