/**
 * What a converted OpenCode-family session takes from the target machine: the project its folder
 * belongs to, and the model the home's CLI is configured with.
 *
 * Project id (OpenCode 1.18.33 / Kilo 7.7.7 `Project.resolve`, read in the CLIs' bundled source;
 * realstores/README.md "OpenCode 1.18.33 and Kilo Code CLI 7.7.7": `project.id` = the repository's
 * root commit hash): outside a git repository `global` (worktree `/`); inside one, the id the CLI
 * cached in `<git common dir>/opencode` (Kilo: `/kilo`) when it has run there, else a hash of the
 * `origin` remote URL (not reproduced here), else the first of the sorted root commits
 * (`git rev-list --max-parents=0 HEAD`). The session list of a folder shows the sessions of its
 * project only, so the id decides where the converted session is listed; a `project` row the
 * database already has for the folder (`project_directory.directory` or `project.worktree`) wins.
 */
import type Database from 'better-sqlite3'
import { lazyRequire } from '../../util/lazy-require'
import { readFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'

// Loaded on first use: node:child_process is ~5-10 ms to load and a warm `sepia list` or `sepia search` never spawns (issue 15).
const childProcess = lazyRequire<typeof import('node:child_process')>('node:child_process')

/** The project a session folder belongs to. */
export interface ProjectInfo {
  id: string
  /** `project.worktree`: the repository's top folder, `/` for the global project. */
  worktree: string
  vcs?: 'git'
  /** True when the id is the one the CLI cached in the repository (it wins over database rows). */
  cached?: boolean
}

function git(cwd: string, args: string[]): string | undefined {
  try {
    return childProcess().execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim()
  } catch {
    return undefined
  }
}

/**
 * The project of `cwd` as the CLI named `cacheName` (`opencode`, `kilo`) resolves it from the
 * folder alone (see the module comment). Runs `git`; never throws (no git, no repository: global).
 */
export function projectOfFolder(cwd: string, cacheName: string): ProjectInfo {
  const top = git(cwd, ['rev-parse', '--show-toplevel'])
  const common = git(cwd, ['rev-parse', '--git-common-dir'])
  if (!top || !common) return { id: 'global', worktree: '/' }
  const commonDir = isAbsolute(common) ? common : resolve(cwd, common)
  let cached: string | undefined
  try {
    cached = readFileSync(join(commonDir, cacheName), 'utf8').trim() || undefined
  } catch {
    cached = undefined
  }
  const roots = (git(top, ['rev-list', '--max-parents=0', 'HEAD']) ?? '').split('\n').map((s) => s.trim()).filter(Boolean).sort()
  if (cached) return { id: cached, worktree: top, vcs: 'git', cached: true }
  return { id: roots[0] ?? 'global', worktree: top, vcs: 'git' }
}

/** The id of a project the open database already has for `cwd` (its directory or worktree). */
export function projectInDb(db: Database.Database, cwd: string): string | undefined {
  const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name))
  if (tables.has('project_directory')) {
    const r = db.prepare('SELECT project_id FROM project_directory WHERE directory = ? LIMIT 1').get(cwd) as { project_id?: unknown } | undefined
    if (typeof r?.project_id === 'string') return r.project_id
  }
  if (tables.has('project')) {
    const r = db.prepare("SELECT id FROM project WHERE worktree = ? AND id <> 'global' ORDER BY time_updated DESC LIMIT 1").get(cwd) as { id?: unknown } | undefined
    if (typeof r?.id === 'string') return r.id
  }
  return undefined
}

/** True when the open database has a `project` row `id`. */
export function hasProject(db: Database.Database, id: string): boolean {
  return db.prepare('SELECT 1 AS x FROM project WHERE id = ?').get(id) !== undefined
}

/**
 * The model the home's CLI is set up with, as `{providerID, modelID}`: `model` ("<provider>/<model>")
 * of `<xdg config>/<dir>/<dir>.json`, `<dir>.jsonc` or `config.json` (OpenCode's global config
 * files), else the newest of `recent` in `<xdg state>/<dir>/model.json` (the model last picked in the
 * terminal UI); undefined when neither says. OpenCode 1.18.33's terminal UI shows no earlier turn
 * of a session whose user messages name no model (tried in resume/), while `run -s` then takes the
 * default model; a model the home cannot reach would stop `run -s`.
 */
export function configuredModel(xdgConfigHome: string, xdgStateHome: string, dir: string): { providerID: string; modelID: string } | undefined {
  for (const name of [`${dir}.json`, `${dir}.jsonc`, 'config.json']) {
    let text: string
    try {
      text = readFileSync(join(xdgConfigHome, dir, name), 'utf8')
    } catch {
      continue
    }
    let value: unknown
    try {
      value = (JSON.parse(text) as { model?: unknown }).model
    } catch {
      // JSONC (comments, trailing commas): the first top-level-looking "model" key
      value = /^\s{0,2}"model"\s*:\s*"([^"]+)"/m.exec(text)?.[1]
    }
    const m = typeof value === 'string' ? /^([^/]+)\/(.+)$/.exec(value) : null
    if (m) return { providerID: m[1]!, modelID: m[2]! }
  }
  try {
    const state = JSON.parse(readFileSync(join(xdgStateHome, dir, 'model.json'), 'utf8')) as { recent?: { providerID?: unknown; modelID?: unknown }[] }
    const r = state.recent?.[0]
    if (typeof r?.providerID === 'string' && typeof r.modelID === 'string') return { providerID: r.providerID, modelID: r.modelID }
  } catch {
    // no state file
  }
  return undefined
}
