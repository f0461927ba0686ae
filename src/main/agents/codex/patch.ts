/**
 * `apply_patch` text → IR diffs and locations.
 *
 * Grammar (codex-rs `apply-patch/apply_patch_tool_instructions.md`; fixtures/real/codex tools
 * scenario and fixtures/public/codex claude-code-log sample):
 *
 * ```
 * *** Begin Patch
 * *** Add File: <path>        then lines "+<text>"
 * *** Delete File: <path>
 * *** Update File: <path>     then optional "*** Move to: <path>", then hunks:
 * @@ <context>                lines " <ctx>", "-<old>", "+<new>"; "*** End of File" may close one
 * *** End Patch
 * ```
 *
 * An added file becomes `{path, newText}` (each `+` line plus a newline, as Codex writes it);
 * each update hunk becomes `{path, oldText, newText}` (context and removed / context and added
 * lines, joined by newlines, like an editor's old/new strings); a deletion is a location only.
 * Relative paths are resolved against the turn's working directory when it is known (Codex
 * resolves them there; its `FileChange` events record the joined absolute path).
 */
import type { ToolCallDiff, ToolCallLocation } from '../../../shared/ir'

/** Diffs and touched paths of one patch. */
export interface PatchFacts {
  diffs: ToolCallDiff[]
  locations: ToolCallLocation[]
}

/** `p` joined to `cwd` unless it is absolute (POSIX or Windows) or no cwd is known. */
export function resolvePath(p: string, cwd: string | undefined): string {
  if (!cwd || p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\')) return p
  const sep = cwd.includes('\\') && !cwd.includes('/') ? '\\' : '/'
  const rel = p.startsWith('./') || p.startsWith('.\\') ? p.slice(2) : p
  return cwd.endsWith(sep) ? cwd + rel : cwd + sep + rel
}

const HEADER = /^\*\*\* (Add File|Delete File|Update File|Move to): (.+)$/

/**
 * Parse the first `*** Begin Patch` ... `*** End Patch` block of `text` (or the whole text when it
 * has file headers but no Begin marker). Undefined when it names no file.
 */
export function parsePatch(text: string, cwd?: string): PatchFacts | undefined {
  const begin = text.indexOf('*** Begin Patch')
  const lines = (begin === -1 ? text : text.slice(begin)).split(/\r?\n/)
  const diffs: ToolCallDiff[] = []
  const locations: ToolCallLocation[] = []
  let mode: 'none' | 'add' | 'update' = 'none'
  let path = ''
  let added: string[] = []
  let oldLines: string[] = []
  let newLines: string[] = []
  let changed = false

  const flushHunk = () => {
    if (mode === 'update' && changed) diffs.push({ path, oldText: oldLines.join('\n'), newText: newLines.join('\n') })
    oldLines = []
    newLines = []
    changed = false
  }
  const flushFile = () => {
    if (mode === 'add') diffs.push({ path, newText: added.map((l) => l + '\n').join('') })
    flushHunk()
    mode = 'none'
    added = []
  }

  for (const line of lines) {
    if (line.startsWith('*** End Patch')) break
    const h = HEADER.exec(line)
    if (h) {
      const target = resolvePath(h[2]!.trim(), cwd)
      if (h[1] === 'Move to') {
        locations.push({ path: target })
        continue
      }
      flushFile()
      locations.push({ path: target })
      path = target
      mode = h[1] === 'Add File' ? 'add' : h[1] === 'Update File' ? 'update' : 'none'
      continue
    }
    if (mode === 'add') {
      if (line.startsWith('+')) added.push(line.slice(1))
      continue
    }
    if (mode !== 'update') continue
    if (line.startsWith('@@') || line.startsWith('*** End of File')) {
      flushHunk()
      continue
    }
    if (line.startsWith('-')) {
      oldLines.push(line.slice(1))
      changed = true
    } else if (line.startsWith('+')) {
      newLines.push(line.slice(1))
      changed = true
    } else if (line.startsWith(' ') || line === '') {
      oldLines.push(line.slice(1))
      newLines.push(line.slice(1))
    }
  }
  flushFile()
  return locations.length > 0 ? { diffs, locations } : undefined
}

/**
 * The patch text a call carries, if any: the raw input of a freeform `apply_patch`, the `input`
 * of a function-style `apply_patch`, or a shell command (`["apply_patch", patch]`, a heredoc
 * `cmd`) holding `*** Begin Patch`.
 */
export function patchTextOf(name: string, args: unknown): string | undefined {
  const isPatchTool = name === 'apply_patch'
  if (typeof args === 'string') return isPatchTool || args.includes('*** Begin Patch') ? args : undefined
  if (typeof args !== 'object' || args === null) return undefined
  const a = args as Record<string, unknown>
  if (isPatchTool && typeof a.input === 'string') return a.input
  if (isPatchTool && typeof a.patch === 'string') return a.patch
  const candidates: unknown[] = [a.cmd, a.command, ...(Array.isArray(a.command) ? a.command : [])]
  for (const c of candidates) if (typeof c === 'string' && c.includes('*** Begin Patch')) return c
  return undefined
}
