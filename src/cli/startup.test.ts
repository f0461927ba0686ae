/**
 * CLI start-up (issue 15): the modules only one command needs are not loaded by every command.
 * Module loading was most of a warm `sepia list` (profile in BENCHMARKS.md), so the CLI entry's
 * static import graph reaches no package and not the commands (`--version` loads neither), and
 * the commands' static import graph, followed through the sources, must not reach the PostgreSQL driver, the
 * MCP SDK (and zod), isomorphic-git, `diff`, `fflate` or `fzstd`; those are loaded when
 * `push`/`serve --catalog`, `mcp`, a checkpoint read, an export, a zip bundle or a Zed thread needs them;
 * nor the API services no listing or search uses (src/main/api-services.ts), nor any agent's reader or
 * writer (each definition loads them on first use, src/main/agents/lazy.ts). Read from the source text
 * (no build needed); `import type` is erased.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..')
// `diff`, `fflate` and `fzstd` are required on first use (src/main/util/lazy-require.ts).
const HEAVY = ['pg', '@modelcontextprotocol/sdk', 'zod', 'isomorphic-git', 'diff', 'fflate', 'fzstd']

/** Static value imports of one source file: [specifier]. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const out: string[] = []
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
    if (m[1]) continue // import type / export type
    // `import { type A, type B } from` is erased too when every name is a type.
    const stmt = m[0]
    const names = /\{([^}]*)\}/.exec(stmt)?.[1]
    if (names && !/\bfrom\b[^{]*$/.test(stmt.slice(0, stmt.indexOf('{'))) && names.split(',').every((n) => n.trim() === '' || n.trim().startsWith('type '))) continue
    out.push(m[2]!)
  }
  return out
}

function resolveSource(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec)
  for (const p of [`${base}.ts`, join(base, 'index.ts'), base]) if (existsSync(p) && p.endsWith('.ts')) return p
  return undefined
}

/** Source files reached through static imports from `entry` (itself included). */
function reachedFiles(entry: string): string[] {
  const seen = new Set<string>()
  const walk = (file: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    for (const spec of staticImports(file)) {
      const next = spec.startsWith('.') ? resolveSource(file, spec) : undefined
      if (next) walk(next)
    }
  }
  walk(entry)
  return [...seen]
}

/** Packages reached through static imports from `entry`, with one path that reaches each. */
function reachedPackages(entry: string): Map<string, string[]> {
  const seen = new Set<string>()
  const found = new Map<string, string[]>()
  const walk = (file: string, path: string[]): void => {
    if (seen.has(file)) return
    seen.add(file)
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) {
        const next = resolveSource(file, spec)
        if (next) walk(next, [...path, next.slice(ROOT.length + 1)])
      } else if (!spec.startsWith('node:')) {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!
        if (!found.has(pkg)) found.set(pkg, path)
      }
    }
  }
  walk(entry, [entry.slice(ROOT.length + 1)])
  return found
}

describe('CLI start-up', () => {
  it('answers --version without loading a package or the commands: the entry imports src/cli/commands.ts when a command runs', () => {
    const entry = join(ROOT, 'src', 'cli', 'index.ts')
    expect(reachedPackages(entry)).toEqual(new Map())
    const files = reachedFiles(entry).map((f) => f.slice(ROOT.length + 1)).sort()
    expect(files).not.toContain(join('src', 'cli', 'commands.ts'))
    expect(files).not.toContain(join('src', 'main', 'api.ts'))
  })

  it('does not load the PostgreSQL driver, the MCP SDK, zod, isomorphic-git, diff, fflate or fzstd before a command needs them', () => {
    const reached = reachedPackages(join(ROOT, 'src', 'cli', 'commands.ts'))
    // The walk does find packages (the catalog's SQLite driver), so an empty result is not a pass by accident.
    expect(reached.has('better-sqlite3')).toBe(true)
    const heavy = HEAVY.filter((p) => reached.has(p)).map((p) => `${p} via ${reached.get(p)!.join(' -> ')}`)
    expect(heavy).toEqual([])
  })

  it('does not load node:child_process, node:http or node:zlib before a command spawns, serves or packs an archive blob', () => {
    const files = reachedFiles(join(ROOT, 'src', 'cli', 'commands.ts'))
    const builtins = files.flatMap((f) => staticImports(f).filter((s) => s === 'node:child_process' || s === 'node:http' || s === 'node:zlib').map((s) => `${s} in ${f.slice(ROOT.length + 1)}`))
    expect(files.length).toBeGreaterThan(100)
    expect(builtins).toEqual([])
  })

  it('does not load the services no listing or search needs (src/main/api-services.ts) before one of their methods is called', () => {
    const files = reachedFiles(join(ROOT, 'src', 'cli', 'commands.ts')).map((f) => f.slice(ROOT.length + 1))
    expect(files).toContain(join('src', 'main', 'api.ts'))
    // Each is the service's own module: what `createServices` builds (checked to exist, so a rename fails here).
    const lazy = ['api-services.ts', 'checkpoints/index.ts', 'bundle/service.ts', 'export/service.ts', 'convert/service.ts', 'convert/open-terminal.ts', 'updates.ts', 'move/service.ts', 'health/report.ts', 'health/problem-report.ts'].map((f) => join('src', 'main', f))
    for (const f of lazy) expect(existsSync(join(ROOT, f)), f).toBe(true)
    expect(lazy.filter((f) => files.includes(f))).toEqual([])
  })

  it('does not load an agent reader or writer before a session is read or written: definitions import() them (src/main/agents/lazy.ts)', () => {
    const files = reachedFiles(join(ROOT, 'src', 'cli', 'commands.ts')).map((f) => f.slice(ROOT.length + 1).split('\\').join('/'))
    // The walk does reach the definitions and their discovery, so an empty result is not a pass by accident.
    expect(files).toContain('src/main/agents/registry.ts')
    expect(files).toContain('src/main/agents/codex/index.ts')
    expect(files).toContain('src/main/agents/codex/discover.ts')
    const READER = /^src\/main\/agents\/[^/]+\/(?:[^/]+\/)*(?:read|write|stream|timeline|recover)(?:-(?!schema)[a-z0-9-]+)?\.ts$/
    expect(files.filter((f) => READER.test(f))).toEqual([])
  })
})
