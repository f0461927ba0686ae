/**
 * The one contract between the renderer (or the CLI) and the main process.
 *
 * `createApi()` in `src/main/api.ts` implements it once; two thin transports expose it: Electron
 * IPC (`src/main/transport/ipc.ts` + `src/preload`) and loopback HTTP
 * (`src/main/transport/http.ts`, used by browser mode and the end-to-end tests). Neither adds
 * logic. Every method returns a Promise; a failure rejects with a {@link SepiaError}.
 *
 * No Node or Electron imports: the renderer imports this file.
 */
import type { AgentId, Diagnostic, HomeOs, Session, SessionSummary } from './ir'

/** One agent in the library with what Sepia can do with it (registry capabilities as data). */
export interface AgentInfo {
  id: AgentId
  /** Human name, e.g. "Claude Code". */
  displayName: string
  /** Sessions found (sub-agent sessions included). */
  sessionCount: number
  capabilities: AgentCapabilities
}

/** What an agent's folder in `src/main/agents/` supports. */
export interface AgentCapabilities {
  /** A writer exists (convert target). */
  canWrite: boolean
  /** Checkpoints can be listed and restored. */
  hasCheckpoints: boolean
  /** The store keeps provider thinking signatures. */
  hasThinkingSignatures: boolean
}

/** A home folder Sepia reads. */
export interface HomeInfo {
  /** Absolute path. */
  path: string
  /** OS layout the folder follows (detected from its content for copied homes). */
  os: HomeOs
  /** True for the built-in demo library (fixtures). */
  isDemo: boolean
}

/** Everything the library view shows. */
export interface Library {
  homes: HomeInfo[]
  agents: AgentInfo[]
  /** Every session, newest first; sub-agent sessions carry `parentSessionId`. */
  sessions: SessionSummary[]
  /** Files that could not be read (path, line, reason) while the rest loaded. */
  diagnostics: Diagnostic[]
  /** ms since epoch when this library was built. */
  loadedAt: number
}

/** About the running app. */
export interface AppInfo {
  name: string
  version: string
  /** `electron` or `browser` (loopback HTTP). */
  mode: 'electron' | 'browser'
  /** IR JSON version. */
  irVersion: number
  /** The machine's OS. */
  platform: HomeOs
}

/** The methods of {@link SepiaApi}, as data: transports and the preload iterate this list. */
export const API_METHODS = [
  'getAppInfo',
  'getLibrary',
  'openHome',
  'openDemo',
  'getSession',
  'pickFolder',
] as const

export type ApiMethod = (typeof API_METHODS)[number]

/** The API. Arguments and results are plain JSON (they cross IPC and HTTP). */
export interface SepiaApi {
  /** Name, version, mode. */
  getAppInfo(): Promise<AppInfo>
  /**
   * The library of the current homes. Reads every store on first call and caches by file size
   * and mtime; `refresh: true` re-reads changed files.
   */
  getLibrary(options?: { refresh?: boolean }): Promise<Library>
  /**
   * Replace the current homes by one folder (a home, or a copied home on any OS) and return its
   * library. Rejects with `NOT_FOUND` when the folder does not exist, `NOT_A_DIRECTORY` when it
   * is a file.
   */
  openHome(path: string): Promise<Library>
  /** Open the built-in demo library (fixture homes). */
  openDemo(): Promise<Library>
  /**
   * One session, fully read. Rejects with `SESSION_NOT_FOUND` when no session of that agent and
   * id is in the library.
   */
  getSession(agent: AgentId, id: string): Promise<Session>
  /**
   * Ask the user for a folder with the system dialog. Resolves `null` when cancelled or when no
   * dialog exists (browser mode: the renderer then asks for a typed path).
   */
  pickFolder(): Promise<string | null>
}

/** Error codes that cross the bridge. */
export type ErrorCode =
  | 'NOT_FOUND'
  | 'NOT_A_DIRECTORY'
  | 'SESSION_NOT_FOUND'
  | 'UNKNOWN_AGENT'
  | 'UNKNOWN_METHOD'
  | 'BAD_ARGUMENT'
  | 'UNAUTHORIZED'
  | 'READ_FAILED'
  | 'INTERNAL'

/** An error as it crosses IPC or HTTP: `{code, message, path?, line?}`. */
export interface SepiaErrorShape {
  code: ErrorCode
  message: string
  path?: string
  line?: number
}

/** The error every API method rejects with. `message` is plain words for the user. */
export class SepiaError extends Error implements SepiaErrorShape {
  readonly code: ErrorCode
  readonly path?: string
  readonly line?: number
  constructor(shape: SepiaErrorShape) {
    super(shape.message)
    this.name = 'SepiaError'
    this.code = shape.code
    if (shape.path !== undefined) this.path = shape.path
    if (shape.line !== undefined) this.line = shape.line
  }

  /** The plain-JSON form that crosses a transport. */
  toJSON(): SepiaErrorShape {
    const out: SepiaErrorShape = { code: this.code, message: this.message }
    if (this.path !== undefined) out.path = this.path
    if (this.line !== undefined) out.line = this.line
    return out
  }

  /** Rebuild on the receiving side; anything that is not a SepiaError becomes `INTERNAL`. */
  static from(value: unknown): SepiaError {
    if (value instanceof SepiaError) return value
    if (value && typeof value === 'object' && 'code' in value && 'message' in value) {
      const v = value as SepiaErrorShape
      return new SepiaError({ code: v.code, message: String(v.message), path: v.path, line: v.line })
    }
    const message = value instanceof Error ? value.message : String(value)
    return new SepiaError({ code: 'INTERNAL', message })
  }
}

/** The envelope a transport returns: a value or an error, never a thrown exception. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: SepiaErrorShape }

/**
 * The API as a transport carries it: every method resolves an {@link ApiResult} envelope instead
 * of rejecting (Electron's contextBridge and JSON keep only plain data, not Error subclasses).
 * The preload exposes this shape as `window.sepia`; the HTTP client builds the same.
 */
export type EnvelopeApi = {
  [K in ApiMethod]: (...args: Parameters<SepiaApi[K]>) => Promise<ApiResult<Awaited<ReturnType<SepiaApi[K]>>>>
}

/** Turn an {@link EnvelopeApi} back into a {@link SepiaApi} that rejects with {@link SepiaError}. */
export function unwrapEnvelopeApi(envelope: EnvelopeApi): SepiaApi {
  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const method of API_METHODS) {
    const call = envelope[method] as (...args: unknown[]) => Promise<ApiResult<unknown>>
    api[method] = async (...args: unknown[]) => {
      const result = await call(...args)
      if (!result.ok) throw SepiaError.from(result.error)
      return result.value
    }
  }
  return api as unknown as SepiaApi
}

/** Call one API method and wrap the outcome in an envelope (used by both transports). */
export async function callEnveloped(api: SepiaApi, method: ApiMethod, args: unknown[]): Promise<ApiResult<unknown>> {
  try {
    const fn = api[method] as (...a: unknown[]) => Promise<unknown>
    return { ok: true, value: await fn.apply(api, args) }
  } catch (e) {
    return { ok: false, error: SepiaError.from(e).toJSON() }
  }
}
