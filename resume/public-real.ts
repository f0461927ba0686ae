/**
 * Sources of the resume matrix taken from real sessions people published (issue 14): every
 * public-real Claude Code and Codex case under {@link PUBLIC_REAL_DIR}
 * (`fixtures/public-real/<agent>/<case>/home`, copied byte for byte from
 * `shared/samples/public-real/` with their SOURCES.md and licences). The matrix reads one home per
 * source, so the cases of one agent are copied once into a single temporary home (their store
 * files have distinct names: session UUIDs, dated rollout names; the shared index files Codex keeps
 * per home, `history.jsonl` and `session_index.jsonl`, are concatenated, and any other file two
 * cases share keeps the first case's copy). An agent with no case is skipped.
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import type { FixtureSource } from '../tests/builders/fixture-sources'

/** The folder holding `<agent>/<case>/home` of each public-real source, relative to the repository root. */
export const PUBLIC_REAL_DIR = join('fixtures', 'public-real')

/** A public-real source: a {@link FixtureSource} whose label is `public-real-<agent>`. */
export interface PublicRealSource extends Omit<FixtureSource, 'label'> {
  label: 'public-real-claude-code' | 'public-real-codex'
  /** The case homes merged into {@link FixtureSource.home}. */
  caseHomes: string[]
}

/** The `<case>/home` folders of one agent under `root` (the repository root), sorted. */
export function publicRealCaseHomes(root: string, agent: string): string[] {
  const dir = join(root, PUBLIC_REAL_DIR, agent)
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'home')))
    .map((e) => join(dir, e.name, 'home'))
    .sort()
}

/** The public-real sources with at least one case under `root`; each home is merged on first use. */
export function publicRealSources(root: string): PublicRealSource[] {
  const source = (label: PublicRealSource['label'], agent: 'claude-code' | 'codex'): PublicRealSource => {
    const caseHomes = publicRealCaseHomes(root, agent)
    let merged: string | undefined
    const home = (): string => {
      if (merged === undefined) {
        merged = mkdtempSync(join(tmpdir(), `sepia-${label}-`))
        for (const h of caseHomes) mergeInto(h, merged)
      }
      return merged
    }
    return { label, agent, home, caseHomes }
  }
  return [source('public-real-claude-code', 'claude-code'), source('public-real-codex', 'codex')].filter((s) => s.caseHomes.length > 0)
}

/** Copy every regular file of `from` into `to`; a `.jsonl` already there gets the new lines appended. */
function mergeInto(from: string, to: string): void {
  for (const e of readdirSync(from, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue
    const src = join(e.parentPath, e.name)
    const dst = join(to, relative(from, src))
    mkdirSync(dirname(dst), { recursive: true })
    if (!existsSync(dst)) copyFileSync(src, dst)
    else if (e.name.endsWith('.jsonl')) {
      const text = readFileSync(src, 'utf8')
      const prev = readFileSync(dst, 'utf8')
      appendFileSync(dst, prev.endsWith('\n') || prev === '' ? text : `\n${text}`)
    }
  }
}
