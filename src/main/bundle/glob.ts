/**
 * A tiny glob matcher for the store globs of a review bundle (seed 000 "Parser plan" style):
 * `/`-separated patterns where `**` is any number of folders, `*` any run of characters within a
 * name, `?` one character, `{a,b}` alternatives. Matching ignores case (a Windows profile copied
 * to Linux keeps its spelling, and the same store may be spelt differently across OS versions).
 */

/** A compiled pattern: one matcher per path segment, `**` kept as is. */
export type Glob = readonly (RegExp | '**')[]

/** Compile a `/`-separated glob. */
export function compileGlob(pattern: string): Glob {
  return pattern
    .split('/')
    .filter((s) => s !== '')
    .map((seg) => (seg === '**' ? '**' : segmentRegExp(seg)))
}

function segmentRegExp(seg: string): RegExp {
  let re = ''
  let inBraces = false
  for (const ch of seg) {
    if (ch === '*') re += '.*'
    else if (ch === '?') re += '.'
    else if (ch === '{') {
      re += '(?:'
      inBraces = true
    } else if (ch === '}' && inBraces) {
      re += ')'
      inBraces = false
    } else if (ch === ',' && inBraces) re += '|'
    else re += ch.replace(/[.+^$()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${re}$`, 'i')
}

/** True when the path (its segments) matches the glob entirely. */
export function matchGlob(glob: Glob, segs: readonly string[], gi = 0, si = 0): boolean {
  if (gi === glob.length) return si === segs.length
  const g = glob[gi]!
  if (g === '**') {
    for (let k = si; k <= segs.length; k++) if (matchGlob(glob, segs, gi + 1, k)) return true
    return false
  }
  return si < segs.length && g.test(segs[si]!) && matchGlob(glob, segs, gi + 1, si + 1)
}

/**
 * True when some path inside the folder `dirSegs` could match the glob, so a walk must descend
 * into it (lets the walk skip whole trees such as git snapshots and worktrees).
 */
export function couldMatchInside(glob: Glob, dirSegs: readonly string[], gi = 0, si = 0): boolean {
  if (si === dirSegs.length) return gi < glob.length
  if (gi === glob.length) return false
  const g = glob[gi]!
  if (g === '**') return true
  return g.test(dirSegs[si]!) && couldMatchInside(glob, dirSegs, gi + 1, si + 1)
}

/** True when any glob matches. */
export function matchAny(globs: readonly Glob[], segs: readonly string[]): boolean {
  return globs.some((g) => matchGlob(g, segs))
}
