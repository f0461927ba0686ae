/**
 * The review bundle manifest, `sepia-manifest.json` at the bundle's root (issue "Review bundles":
 * "writes a manifest (agent, path, size, sha256, mtime)"), and its check when a bundle is opened.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile, stat, utimes } from 'node:fs/promises'
import type { AgentId, Diagnostic, HomeOs } from '../../shared/ir'
import { isAgentId } from '../../shared/ir'
import { bundlePath } from './zip'

/** File name of the manifest at a bundle's root. */
export const MANIFEST_NAME = 'sepia-manifest.json'
/** The manifest's `format` tag. */
export const BUNDLE_FORMAT = 'sepia-review-bundle'

/** The manifest's `format` tag of a move bundle (one session, for another computer or folder; issue 19). */
export const MOVE_BUNDLE_FORMAT = 'sepia-move-bundle'

/**
 * What a move bundle carries besides its files (issue 19 "Move to another machine or folder"):
 * the session, where it lived, and the index rows its agent keeps outside the files.
 */
export interface MoveInfo {
  agent: AgentId
  /** The agent's own session id. */
  sessionId: string
  /** Sub-agent session ids bundled with it. */
  subagentIds: string[]
  /** The project folder as the source machine spelled it (`/home/ana/src/x`, `C:\Users\ana\x`). */
  projectPath: string
  /** How the source machine spells paths. */
  pathStyle: 'windows' | 'posix'
  /** The agent's store root on the source machine (`~/.claude`, `~/.codex`), as it was spelled there. */
  storeRoot: string
  /**
   * Always true: a move bundle holds the session exactly as stored, secrets included (it is the
   * user's own data going to their own machine). Review bundles are the ones that leave them out.
   */
  secretsIncluded: true
  /** Messages Sepia read in the session when it was bundled (the install's read-back expects as many). */
  nodeCount?: number
  /** Rows of the agent's index databases, by table (Codex `state_5.sqlite` `threads`, `thread_spawn_edges`). */
  indexRows?: Record<string, Record<string, unknown>[]>
}

/** One collected file. */
export interface ManifestFile {
  agent: AgentId
  /** Home-relative path with `/` separators (the bundle keeps the home's layout). */
  path: string
  /** Bytes. */
  size: number
  /** sha256 of the content, lowercase hex. */
  sha256: string
  /** The source file's modification time, ms since epoch. */
  mtime: number
  /** True for a credential file collected on request. */
  credential?: boolean
}

/** `sepia-manifest.json`. */
export interface BundleManifest {
  /** A review bundle (a whole home) or a move bundle (one session, {@link MoveInfo}). */
  format: typeof BUNDLE_FORMAT | typeof MOVE_BUNDLE_FORMAT
  version: 1
  /** ms since epoch. */
  createdAt: number
  /** e.g. `Sepia 0.1.0`. */
  createdBy: string
  /** Whose layout the collected home follows (a Windows profile stays `win32` wherever opened). */
  sourceOs: HomeOs
  /** The homes collected, as they were named on the source machine. */
  sourceHomes: string[]
  includeCredentials: boolean
  files: ManifestFile[]
  /** Present in a move bundle. */
  move?: MoveInfo
}

/** Read and check the shape of a manifest; undefined when absent, a string when broken. */
export async function readManifest(path: string): Promise<BundleManifest | string | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    return undefined
  }
  try {
    const m = JSON.parse(text) as Partial<BundleManifest>
    if ((m.format !== BUNDLE_FORMAT && m.format !== MOVE_BUNDLE_FORMAT) || !Array.isArray(m.files)) return 'it is not a Sepia review bundle manifest'
    if (m.format === MOVE_BUNDLE_FORMAT && (!m.move || !isAgentId(m.move.agent) || typeof m.move.sessionId !== 'string' || typeof m.move.projectPath !== 'string')) return 'its move section is incomplete'
    for (const f of m.files) {
      if (!f || typeof f.path !== 'string' || typeof f.sha256 !== 'string' || typeof f.size !== 'number' || !isAgentId(f.agent)) return 'a file entry is incomplete'
    }
    return m as BundleManifest
  } catch (e) {
    return `it is not valid JSON (${(e as Error).message})`
  }
}

/** sha256 (hex) of bytes in memory. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** sha256 (hex) and size of a file, streamed. */
export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256')
  let size = 0
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk)
    size += chunk.length
  }
  return { sha256: hash.digest('hex'), size }
}

/**
 * Check every manifest file under `dir`: missing files and size or sha256 mismatches become
 * warning diagnostics (the rest of the bundle still opens). With `restoreMtimes`, each file's
 * modification time is set back to the manifest's (a zip keeps only 2-second local times).
 */
export async function verifyBundle(
  dir: string,
  manifest: BundleManifest,
  options: { restoreMtimes?: boolean; check?: () => void; onFile?: (done: number, total: number) => void } = {},
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = []
  let done = 0
  for (const f of manifest.files) {
    options.check?.()
    const path = bundlePath(dir, f.path)
    try {
      const st = await stat(path)
      if (!st.isFile()) throw new Error('not a file')
      const got = await hashFile(path)
      if (got.size !== f.size || got.sha256 !== f.sha256) {
        out.push({ severity: 'warning', path, agent: f.agent, message: `This file differs from the bundle's manifest (${got.size} bytes, expected ${f.size}; sha256 ${got.sha256.slice(0, 12)}…, expected ${f.sha256.slice(0, 12)}…): it was changed or damaged after the bundle was made.` })
      } else if (options.restoreMtimes && Number.isFinite(f.mtime)) {
        await utimes(path, new Date(), new Date(f.mtime)).catch(() => undefined)
      }
    } catch {
      out.push({ severity: 'warning', path, agent: f.agent, message: `The bundle's manifest lists this file but it is missing: sessions stored in it cannot be shown.` })
    }
    options.onFile?.(++done, manifest.files.length)
  }
  return out
}
