/**
 * The plan of a review bundle: which files of a home to copy and where each goes in the bundle.
 *
 * A file's place is its home-relative path with `/` separators, so the bundle keeps the home's
 * layout (a Windows profile keeps `AppData/Roaming/...` and opens as a Windows home anywhere). A
 * store an environment variable moved out of its default place (`CLAUDE_CONFIG_DIR`,
 * `CODEX_HOME`, `CLINE_DIR`, `XDG_DATA_HOME`...) is put back at its default place in the bundle,
 * where a reader of a copied home looks for it.
 */
import type { Dirent } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import type { AgentId } from '../../shared/ir'
import type { AgentDefinition, ReadContext } from '../agents/types'
import { layoutForHome, pathApiFor, type HomeLayout } from '../platform'
import { findCredentialFiles } from '../secrets'
import { compileGlob, couldMatchInside, matchAny, matchGlob, type Glob } from './glob'
import { CREDENTIAL_GLOBS, EXCLUDED, SQLITE_FILE, SQLITE_SIDECARS, storeRoots } from './rules'

/** One file (or a SQLite database with its companions) to copy. */
export interface PlannedFile {
  agent: AgentId
  /** Absolute source path. */
  abs: string
  /** Bundle path (home-relative, `/` separators). */
  dest: string
  size: number
  mtimeMs: number
  credential: boolean
  /** For a SQLite database: its `-wal`/`-shm`/`-journal` files that exist, copied together. */
  sidecars?: PlannedFile[]
}

/** The plan for one home. */
export interface HomePlan {
  layout: HomeLayout
  files: PlannedFile[]
  credentialsLeftOut: number
  warnings: string[]
}

/** Options for {@link planHome}. */
export interface PlanOptions {
  includeCredentials: boolean
  /** Agents whose discovery also names files to copy. */
  agents: readonly AgentDefinition[]
  ctx: ReadContext
  check?: () => void
}

/** Plan the copy of one home (its layout built by the caller: own home with env, or copied). */
export async function planHome(layout: HomeLayout, options: PlanOptions): Promise<HomePlan> {
  const p = pathApiFor(layout.home)
  const warnings: string[] = []
  const toDest = await destMapper(layout)
  const credentialPaths = new Map((await findCredentialFiles(layout)).map((c) => [c.path, c.agent]))
  const files = new Map<string, PlannedFile>()
  let credentialsLeftOut = 0
  const leftOut = new Set<string>()

  const consider = async (agent: AgentId, abs: string, known?: { size: number; mtimeMs: number }) => {
    const dest = toDest(abs)
    if (dest === undefined) {
      warnings.push(`${abs} is outside the home folder and not a known store location; it was not collected.`)
      return
    }
    if (files.has(dest.toLowerCase())) return
    const segs = dest.split('/')
    if (matchAny(EXCLUDED, segs)) return
    const credential = credentialPaths.has(abs) || matchAny(CREDENTIAL_GLOBS, segs)
    if (credential && !options.includeCredentials) {
      if (!leftOut.has(abs)) credentialsLeftOut++
      leftOut.add(abs)
      return
    }
    let info = known
    if (!info) {
      try {
        const st = await stat(abs)
        if (!st.isFile()) return
        info = { size: st.size, mtimeMs: st.mtimeMs }
      } catch {
        return
      }
    }
    files.set(dest.toLowerCase(), { agent, abs, dest, ...info, credential })
  }

  for (const root of storeRoots(layout)) {
    options.check?.()
    const globs = root.include.map(compileGlob)
    await walk(root.dir, [], globs, async (abs, rel, st) => {
      options.check?.()
      if (SQLITE_SIDECARS.some((s) => abs.endsWith(s)) && rel.length > 0) {
        const main = abs.slice(0, abs.lastIndexOf('-'))
        if (SQLITE_FILE.test(main)) return // copied with its database
      }
      await consider(root.agent, abs, st)
    }, (dirRel) => {
      const dest = toDest(p.join(root.dir, ...dirRel))
      return dest !== undefined && matchAny(EXCLUDED, [...dest.split('/'), 'x'])
    }, warnings)
  }

  // Every file an agent's own discovery names, so the bundle opens with the same sessions.
  for (const agent of options.agents) {
    options.check?.()
    try {
      const found = await agent.discover(layout, options.ctx)
      for (const ref of found.refs) for (const f of ref.files) if (!SQLITE_SIDECARS.some((s) => f.endsWith(s))) await consider(ref.agent, f)
    } catch (e) {
      warnings.push(`Could not look for ${agent.displayName} sessions: ${(e as Error).message}`)
    }
  }
  // Credential files: copied on request; otherwise counted (whether or not a glob reached them).
  for (const [abs, agent] of credentialPaths) {
    if (options.includeCredentials) await consider(agent, abs)
    else if (!leftOut.has(abs)) {
      leftOut.add(abs)
      credentialsLeftOut++
    }
  }

  // SQLite databases travel with their -wal/-shm/-journal files.
  for (const f of files.values()) {
    if (!SQLITE_FILE.test(f.abs)) continue
    for (const suffix of SQLITE_SIDECARS) {
      try {
        const st = await stat(f.abs + suffix)
        if (st.isFile()) (f.sidecars ??= []).push({ agent: f.agent, abs: f.abs + suffix, dest: f.dest + suffix, size: st.size, mtimeMs: st.mtimeMs, credential: f.credential })
      } catch {
        // absent
      }
    }
  }
  const list = [...files.values()].sort((a, b) => (a.dest < b.dest ? -1 : a.dest > b.dest ? 1 : 0))
  return { layout, files: list, credentialsLeftOut, warnings }
}

/** Walk `dir`, descending only where a glob could match, never following symbolic links. */
async function walk(
  dir: string,
  rel: string[],
  globs: readonly Glob[],
  onFile: (abs: string, rel: string[], st: { size: number; mtimeMs: number }) => Promise<void>,
  excluded: (rel: string[]) => boolean,
  warnings: string[],
): Promise<void> {
  let entries: Dirent[]
  try {
    entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') warnings.push(`Could not list ${dir}: ${(e as Error).message}`)
    return
  }
  const p = pathApiFor(dir)
  for (const e of entries) {
    const childRel = [...rel, e.name]
    const abs = p.join(dir, e.name)
    if (e.isSymbolicLink()) continue
    if (e.isDirectory()) {
      if (!globs.some((g) => couldMatchInside(g, childRel)) || excluded(childRel)) continue
      await walk(abs, childRel, globs, onFile, excluded, warnings)
    } else if (e.isFile() && globs.some((g) => matchGlob(g, childRel))) {
      try {
        const st = await stat(abs)
        await onFile(abs, childRel, { size: st.size, mtimeMs: st.mtimeMs })
      } catch (err) {
        warnings.push(`Could not read ${abs}: ${(err as Error).message}`)
      }
    }
  }
}

/**
 * A function giving the bundle path of an absolute path under this layout, or undefined when it
 * lies outside the home and outside every store folder an env variable moved.
 */
async function destMapper(layout: HomeLayout): Promise<(abs: string) => string | undefined> {
  const p = pathApiFor(layout.home)
  const def = layout.isOwnHome ? await layoutForHome({ home: layout.home, os: layout.os }) : layout
  const pairs: [actual: string, target: string][] = [
    [layout.claudeConfigDir, def.claudeConfigDir],
    [layout.codexHome, def.codexHome],
    [layout.clineDataDir, def.clineDataDir],
    [layout.clineDir, def.clineDir],
    [layout.xdgConfigHome, def.xdgConfigHome],
    [layout.xdgDataHome, def.xdgDataHome],
    [layout.configRoot, def.configRoot],
    [layout.dataRoot, def.dataRoot],
    ...(layout.localAppData && def.localAppData ? [[layout.localAppData, def.localAppData] as [string, string]] : []),
    [layout.home, layout.home],
  ]
  pairs.sort((a, b) => b[0].length - a[0].length)
  const inside = (parent: string, child: string): string | undefined => {
    const r = p.relative(parent, child)
    return r === '' || r.startsWith('..') || p.isAbsolute(r) ? (r === '' ? '' : undefined) : r
  }
  return (abs: string) => {
    for (const [actual, target] of pairs) {
      const rest = inside(actual, abs)
      if (rest === undefined) continue
      const base = inside(layout.home, target)
      if (base === undefined) return undefined
      const joined = [base, rest].filter(Boolean).join(p.sep)
      return joined.split(/[\\/]+/).join('/') || undefined
    }
    return undefined
  }
}
