/**
 * Turn what a user typed or picked as "the folder to open" into an absolute home folder.
 *
 * People type `~/backup`, paste `file:///...` URLs, or pick the agent's own folder (`.claude`,
 * `.cline`, `AppData`) instead of the home that contains it. Each of those is understood; what
 * cannot be understood is refused with plain words instead of being resolved against Sepia's own
 * working folder.
 */
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SepiaError } from '../shared/api'

/** Folder names that sit directly in a home; picking one means "the home above it". */
const IN_HOME = new Set(['.claude', '.cline', '.codex', '.gemini', '.cursor', '.config', '.local', 'AppData', 'Library', '.kilocode', '.agents'])

/** Result of {@link normalizeHomeInput}. */
export interface HomeInput {
  /** The absolute home folder to open. */
  path: string
  /** Set when the input was adjusted (shown to the user), e.g. "Opened the home that contains .claude". */
  note?: string
}

/**
 * Normalise a typed or picked folder. `ownHome` expands `~`; `platform` decides what an absolute
 * path looks like. Throws SepiaError `BAD_ARGUMENT` for an empty, relative or foreign-OS path.
 */
export function normalizeHomeInput(input: string, ownHome: string, platform: NodeJS.Platform = process.platform): HomeInput {
  let p = String(input ?? '').trim().replace(/^["']|["']$/g, '')
  if (p === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Type the full path of a folder to open.' })
  if (/^file:\/\//i.test(p)) {
    try {
      p = fileURLToPath(p)
    } catch {
      throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${input}" is not a file address Sepia understands. Type the folder's path instead.` })
    }
  }
  if (p === '~' || p.startsWith('~/') || p.startsWith('~\\')) p = join(ownHome, p.slice(2))
  if (platform !== 'win32' && /^[a-zA-Z]:[\\/]/.test(p)) {
    throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${p}" is a Windows path. On this computer, type where that folder is now, for example /media/usb/Users/ana.` })
  }
  if (!isAbsolute(p)) {
    throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${p}" is not a full path. Type the whole path, starting with ${platform === 'win32' ? 'a drive letter such as C:\\' : '/ (or ~ for your home folder)'}.` })
  }
  p = resolve(p)
  let note: string | undefined
  // `.claude/projects` or `.cline/data` picked: climb to the home.
  for (let i = 0; i < 3; i++) {
    const name = basename(p)
    if (IN_HOME.has(name) && dirname(p) !== p) {
      note = `Opened ${dirname(p)}, the folder that contains ${name}.`
      p = dirname(p)
      break
    }
    const parent = dirname(p)
    if (parent === p || !IN_HOME.has(basename(parent))) {
      if (basename(parent) === 'projects' && basename(dirname(parent)) === '.claude') {
        p = parent
        continue
      }
      break
    }
    p = parent
  }
  return note ? { path: p, note } : { path: p }
}
