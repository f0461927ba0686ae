/**
 * Which `~/.gemini/tmp/<slug>/` folder Gemini CLI 0.61 uses for a project, computed the way the CLI
 * does it, read-only. Source: @google/gemini-cli 0.61.0, packages/core/src/config/projectRegistry.ts
 * `ProjectRegistry.getShortId` (called by `Storage.initialize` with the base folders
 * `~/.gemini/tmp` and `~/.gemini/history`):
 *
 * 1. `~/.gemini/projects.json` `{projects: {<path>: <slug>}}` (slugs match `^[a-z0-9-]+$`; a file
 *    that does not fit is treated as empty) maps the project path to a slug, kept when no
 *    `<base>/<slug>/.project_root` names another path;
 * 2. else the first `<base>/<name>/.project_root` whose text (trimmed) is the project path;
 * 3. else a new slug: the folder name lower-cased, every character outside `[a-z0-9]` as `-`,
 *    runs of `-` merged, `-` trimmed at both ends (`project` when empty), then `<slug>-1`,
 *    `<slug>-2`... skipping slugs projects.json gives to another path and folders whose
 *    `.project_root` names another path.
 * The CLI then writes `.project_root` (the path, no newline) into `tmp/<slug>` and
 * `history/<slug>` when missing, and adds the projects.json entry. The writer creates the missing
 * `.project_root` files itself (new files, claiming the folder) and leaves projects.json alone: the
 * CLI finds the folder by its marker (step 2) and adds the entry on first use (realstores/README.md
 * "Gemini CLI 0.61.0": projects.json and .project_root are not needed; handwritten probe 02).
 * Paths are compared after `path.resolve`, lower-cased for a Windows home (`normalizePath`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, posix, win32 } from 'node:path'
import { isAbsoluteOn } from '../../../shared/convert'
import type { HomeOs } from '../../../shared/ir'

/** File that names the project a `tmp/<slug>` or `history/<slug>` folder belongs to. */
export const PROJECT_ROOT_FILE = '.project_root'

/** Where a project's chats go and which ownership markers are missing. */
export interface ProjectFolder {
  /** The folder name under `~/.gemini/tmp/` (and `~/.gemini/history/`). */
  slug: string
  /** The project path as the CLI normalizes it (the text of `.project_root`). */
  projectPath: string
  /** `.project_root` files that do not exist yet (absolute paths), to be created. */
  missingMarkers: string[]
}

/** The CLI's `slugify`: lower case, `[^a-z0-9]` → `-`, runs merged, ends trimmed; `project` when empty. */
export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '') || 'project'
  )
}

/**
 * The project path as the CLI compares it (`path.resolve`; lower case on Windows). A path that is
 * not absolute on `os` (a Windows path for a Linux home, or the other way) is kept as it is, never
 * resolved against the folder Sepia runs in: the result must not depend on the process's cwd
 * (issue 14). The convert plan warns about such a path (`foreign-project-path`).
 */
export function normalizeProjectPath(cwd: string, os: HomeOs): string {
  if (!isAbsoluteOn(cwd, os)) return os === 'win32' ? cwd.toLowerCase() : cwd
  return os === 'win32' ? win32.resolve(cwd).toLowerCase() : posix.resolve(cwd)
}

/** projects.json's map, or `{}` when it is missing or not in the CLI's schema. */
function registry(geminiDir: string): Record<string, string> {
  try {
    const doc = JSON.parse(readFileSync(join(geminiDir, 'projects.json'), 'utf8')) as { projects?: unknown }
    const p = doc.projects
    if (typeof p !== 'object' || p === null || Array.isArray(p)) return {}
    const entries = Object.entries(p as Record<string, unknown>)
    return entries.every(([, v]) => typeof v === 'string' && /^[a-z0-9-]+$/.test(v)) ? (p as Record<string, string>) : {}
  } catch {
    return {}
  }
}

/** Owner named by `<base>/<slug>/.project_root`: undefined when absent, null when unreadable. */
function ownerOf(base: string, slug: string, os: HomeOs): string | null | undefined {
  const marker = join(base, slug, PROJECT_ROOT_FILE)
  if (!existsSync(marker)) return undefined
  try {
    return normalizeProjectPath(readFileSync(marker, 'utf8').trim(), os)
  } catch {
    return null
  }
}

/** Sorted folder names of `dir` (none when it cannot be listed). */
function folders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()
  } catch {
    return []
  }
}

/** The `tmp/<slug>` folder Gemini CLI uses for `cwd` under `geminiDir` (see the module comment). Never writes. */
export function geminiProjectFolder(geminiDir: string, cwd: string, os: HomeOs): ProjectFolder {
  const projectPath = normalizeProjectPath(cwd, os)
  const bases = [join(geminiDir, 'tmp'), join(geminiDir, 'history')]
  const result = (slug: string): ProjectFolder => ({
    slug,
    projectPath,
    missingMarkers: bases.filter((b) => ownerOf(b, slug, os) === undefined).map((b) => join(b, slug, PROJECT_ROOT_FILE)),
  })
  // An unreadable marker counts as another owner (the CLI's verifySlugOwnership and claimNewSlug).
  const ownedByOther = (slug: string): boolean =>
    bases.some((b) => {
      const owner = ownerOf(b, slug, os)
      return owner !== undefined && owner !== projectPath
    })
  const projects = registry(geminiDir)
  const mapped = projects[projectPath]
  if (mapped !== undefined && !ownedByOther(mapped)) return result(mapped)
  for (const base of bases) {
    for (const name of folders(base)) if (ownerOf(base, name, os) === projectPath) return result(name)
  }
  const taken = new Set(Object.entries(projects).filter(([p]) => p !== projectPath).map(([, s]) => s))
  const slug = slugify((os === 'win32' ? win32 : posix).basename(projectPath) || 'project')
  for (let k = 0; ; k++) {
    const candidate = k === 0 ? slug : `${slug}-${k}`
    if (taken.has(candidate)) continue
    if (!ownedByOther(candidate)) return result(candidate)
  }
}
