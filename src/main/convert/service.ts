/**
 * The convert methods of the API (`convertTargets`, `planConvert`, `convertSession`) over a library:
 * argument checks (types, absolute paths, known agents) and plain-words errors, then
 * `convert.ts`. The API (`src/main/api.ts`) and the CLI (`src/cli/convert.ts`) call these. A
 * session with no conversation (no user or assistant message: `isConversationMessage`, e.g. a
 * Gemini CLI chat holding only a hook warning) has no target and is not planned or converted
 * (`BAD_ARGUMENT`): the agents would open it as an empty chat, or not at all.
 */
import { randomUUID } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { SepiaError } from '../../shared/api'
import type { ConvertOptions, ConvertPlan, ConvertResult } from '../../shared/convert'
import { type AgentId, isAgentId, isConversationMessage, type Session } from '../../shared/ir'
import type { AgentDefinition, ReadContext } from '../agents/types'
import type { HomeLayout } from '../platform'
import { planConversion, type ProgressFn, runConversion } from './convert'
import { VOCABULARIES } from './vocab'

/** What the convert service needs from its host. */
export interface ConvertDeps {
  /**
   * The source session. The API passes it with secrets masked unless the user revealed that session
   * (`revealSecrets`), so a converted session carries what the user saw. Rejects `SESSION_NOT_FOUND`.
   */
  getSession(agent: AgentId, id: string): Promise<Session>
  /** The agents (the writable ones are targets). */
  agents: readonly AgentDefinition[]
  /** The layout of the home to write into: `home` (checked to be a folder), or the user's own. */
  targetLayout(home: string | undefined): Promise<HomeLayout>
  ctx: ReadContext
  /** Random UUIDs (default `crypto.randomUUID`). */
  newId?(): string
  /** Sepia's own data folder, where each convert is recorded as a write job (`util/write-journal.ts`). */
  appDataDir?: string
}

/** Extra options for tests and long-running hosts. */
export interface ConvertExtras {
  fault?: (step: string) => void
  onProgress?: ProgressFn
}

/** Options after checking. */
interface Checked {
  textOnly: boolean
  targetHome?: string
  cwd?: string
}

/** Check the options object that crossed the bridge. */
export function checkOptions(options: unknown): Checked {
  if (options === undefined || options === null) return { textOnly: false }
  if (typeof options !== 'object' || Array.isArray(options)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Convert options must be an object.' })
  const o = options as Record<string, unknown>
  if (o.textOnly !== undefined && typeof o.textOnly !== 'boolean') throw new SepiaError({ code: 'BAD_ARGUMENT', message: '"textOnly" must be true or false.' })
  const out: Checked = { textOnly: o.textOnly === true }
  for (const key of ['targetHome', 'cwd'] as const) {
    const v = o[key]
    if (v === undefined) continue
    if (typeof v !== 'string' || v.trim() === '' || v.includes('\0') || !isAbsolute(v.trim())) {
      throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${key}" must be an absolute folder path.` })
    }
    out[key] = resolve(v.trim())
  }
  return out
}

/** Reject unless `path` is an existing folder. */
export async function checkFolder(path: string, what: string): Promise<void> {
  let st
  try {
    st = await stat(path)
  } catch {
    throw new SepiaError({ code: 'NOT_FOUND', path, message: `${what} ${path} does not exist. Create it or choose another folder.` })
  }
  if (!st.isDirectory()) throw new SepiaError({ code: 'NOT_A_DIRECTORY', path, message: `${what} ${path} is a file, not a folder.` })
}

/** Reject a session with nothing to continue (`BAD_ARGUMENT`, plain words naming the session). */
function checkConversation(session: Session): Session {
  if (!session.nodes.some(isConversationMessage)) {
    throw new SepiaError({ code: 'BAD_ARGUMENT', message: `Session ${session.id} has no messages, so there is nothing to continue in another agent.` })
  }
  return session
}

/** The convert service. */
export function createConvertService(deps: ConvertDeps) {
  const checkIds = (agent: unknown, id: unknown): void => {
    if (!isAgentId(agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(agent)}" is not an agent Sepia knows.` })
    if (typeof id !== 'string' || id === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A session id is required.' })
  }
  const targetOf = (target: unknown): AgentDefinition => {
    if (!isAgentId(target)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(target)}" is not an agent Sepia knows.` })
    const def = deps.agents.find((a) => a.id === target)
    if (!def) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `Sepia does not know the agent "${target}".` })
    return def
  }
  const input = async (session: Session, target: AgentDefinition, o: Checked) => {
    if (o.targetHome) await checkFolder(o.targetHome, 'The folder to write into')
    const layout = await deps.targetLayout(o.targetHome)
    return { session, target, layout, textOnly: o.textOnly, now: deps.ctx.now, newId: deps.newId ?? randomUUID, ctx: deps.ctx, ...(o.cwd ? { cwd: o.cwd } : {}) }
  }

  return {
    /**
     * "Continue in...": a plan per writable agent, except the session's own agent when it already
     * is in the store that agent writes; none for a session with no conversation.
     */
    async targets(agent: AgentId, id: string, options?: Pick<ConvertOptions, 'textOnly'>): Promise<ConvertPlan[]> {
      checkIds(agent, id)
      const o = checkOptions(options)
      const session = await deps.getSession(agent, id)
      const out: ConvertPlan[] = []
      if (!session.nodes.some(isConversationMessage)) return out
      for (const t of deps.agents) {
        if (!t.write || !t.capabilities.canWrite) continue
        if (t.id === agent && VOCABULARIES[t.id]?.format === session.source.format) continue
        out.push(await planConversion(await input(session, t, { textOnly: o.textOnly })))
      }
      return out
    },
    /** What converting to `target` would do; writes nothing. Rejects `BAD_ARGUMENT` for a session with no conversation. */
    async plan(agent: AgentId, id: string, target: AgentId, options?: ConvertOptions): Promise<ConvertPlan> {
      checkIds(agent, id)
      const t = targetOf(target)
      const o = checkOptions(options)
      return planConversion(await input(checkConversation(await deps.getSession(agent, id)), t, o))
    },
    /** Convert, write, read back. Rejects `BAD_ARGUMENT` for a session with no conversation. */
    async convert(agent: AgentId, id: string, target: AgentId, options?: ConvertOptions, extras: ConvertExtras = {}): Promise<ConvertResult> {
      checkIds(agent, id)
      const t = targetOf(target)
      const o = checkOptions(options)
      const req = await input(checkConversation(await deps.getSession(agent, id)), t, o)
      return runConversion({ ...req, ...(deps.appDataDir ? { appDataDir: deps.appDataDir } : {}), ...(extras.fault ? { fault: extras.fault } : {}), ...(extras.onProgress ? { onProgress: extras.onProgress } : {}) })
    },
  }
}

/** The service's type. */
export type ConvertService = ReturnType<typeof createConvertService>
