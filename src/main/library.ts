/**
 * The library: every session under the open homes, read through the agent registry.
 *
 * Sessions are read once and cached by their files' size and mtime; a refresh re-reads only what
 * changed. (The persistent SQLite catalog for 10,000+ sessions replaces this in-memory cache.)
 */
import type { AgentInfo, HomeInfo, Library } from '../shared/api'
import { SepiaError } from '../shared/api'
import type { AgentId, Diagnostic, Session, SessionSummary } from '../shared/ir'
import { summarize } from './ir/build'
import type { HomeLayout } from './platform'
import type { AgentDefinition, ReadContext, StoreRef } from './agents/types'

/** One open home: its layout and whether it is the demo library. */
export interface OpenHome {
  layout: HomeLayout
  isDemo: boolean
}

interface Entry {
  ref: StoreRef
  session: Session
  summary: SessionSummary
}

/** Reads and caches the sessions of a set of homes. */
export class LibraryService {
  private entries = new Map<string, Entry>()
  private cache = new Map<string, { stamp: string; session: Session }>()
  private library: Library | undefined

  constructor(
    private homes: OpenHome[],
    private readonly agents: readonly AgentDefinition[],
    private readonly ctx: ReadContext,
  ) {}

  /** The homes currently open. */
  get openHomes(): readonly OpenHome[] {
    return this.homes
  }

  /** Replace the open homes (drops the previous library, keeps the file cache). */
  setHomes(homes: OpenHome[]): void {
    this.homes = homes
    this.library = undefined
  }

  /** Build (or return the cached) library. `refresh` re-discovers and re-reads changed files. */
  async load(refresh = false): Promise<Library> {
    if (this.library && !refresh) return this.library
    const diagnostics: Diagnostic[] = []
    const entries = new Map<string, Entry>()
    for (const home of this.homes) {
      for (const agent of this.agents) {
        let found
        try {
          found = await agent.discover(home.layout, this.ctx)
        } catch (e) {
          diagnostics.push({ severity: 'error', path: home.layout.home, agent: agent.id, message: `Could not look for ${agent.displayName} sessions: ${errorText(e)}` })
          continue
        }
        diagnostics.push(...found.diagnostics)
        const sessions: { ref: StoreRef; session: Session }[] = []
        await forEachLimit(found.refs, 8, async (ref) => {
          const session = await this.readRef(agent, ref, diagnostics)
          if (session) sessions.push({ ref, session })
        })
        sessions.sort((a, b) => a.ref.files[0]!.localeCompare(b.ref.files[0]!))
        try {
          agent.link?.(sessions.map((s) => s.session))
        } catch (e) {
          diagnostics.push({ severity: 'warning', path: home.layout.home, agent: agent.id, message: `Could not link sub-agent sessions: ${errorText(e)}` })
        }
        for (const { ref, session } of sessions) {
          const key = sessionKey(session.agent, session.id)
          if (entries.has(key)) continue // the same session seen twice (two homes): first wins
          entries.set(key, { ref, session, summary: summarize(session, ref.home) })
          for (const d of session.diagnostics) if (d.severity !== 'info') diagnostics.push(d)
        }
      }
    }
    this.entries = entries
    const sessions = [...entries.values()].map((e) => e.summary)
    sessions.sort((a, b) => (b.lastActivityAt ?? b.createdAt ?? 0) - (a.lastActivityAt ?? a.createdAt ?? 0))
    const agents: AgentInfo[] = this.agents.map((a) => ({
      id: a.id,
      displayName: a.displayName,
      capabilities: a.capabilities,
      sessionCount: sessions.filter((s) => s.agent === a.id).length,
    }))
    const homes: HomeInfo[] = this.homes.map((h) => ({ path: h.layout.home, os: h.layout.os, isDemo: h.isDemo }))
    this.library = { homes, agents, sessions, diagnostics, loadedAt: this.ctx.now() }
    return this.library
  }

  /** One session of the library. Rejects with `SESSION_NOT_FOUND`. */
  async getSession(agent: AgentId, id: string): Promise<Session> {
    if (!this.library) await this.load()
    const entry = this.entries.get(sessionKey(agent, id))
    if (!entry) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `No ${agent} session with id ${id} is in the open folders.` })
    return entry.session
  }

  private async readRef(agent: AgentDefinition, ref: StoreRef, diagnostics: Diagnostic[]): Promise<Session | undefined> {
    const stamp = `${ref.size}:${ref.mtimeMs}`
    const cacheKey = `${agent.id}\u0000${ref.sessionId}\u0000${ref.files.join('\u0000')}`
    const cached = this.cache.get(cacheKey)
    if (cached && cached.stamp === stamp) return structuredClone(cached.session)
    try {
      const session = await agent.read(ref, this.ctx)
      this.cache.set(cacheKey, { stamp, session: structuredClone(session) })
      return session
    } catch (e) {
      diagnostics.push({ severity: 'error', path: ref.files[0] ?? ref.home, agent: agent.id, sessionId: ref.sessionId, message: `Could not read this session: ${errorText(e)}` })
      return undefined
    }
  }
}

/** The key of a session in the library: `<agent>/<id>`. */
export function sessionKey(agent: AgentId, id: string): string {
  return `${agent}/${id}`
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!
      await fn(item)
    }
  })
  await Promise.all(workers)
}
