/**
 * Sources of the resume matrix taken from real sessions people published (issue 14): the
 * public-real Claude Code and Codex homes under {@link PUBLIC_REAL_DIR}, copied from
 * `shared/samples/public-real/` with their SOURCES.md and licences (the fixtures land with the
 * issue's reader work). A home that is not there yet is skipped, so the matrix runs before and after.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { FixtureSource } from '../src/main/convert/fixture-sources'

/** The folder holding `<agent>/home` of each public-real source, relative to the repository root. */
export const PUBLIC_REAL_DIR = join('fixtures', 'public-real')

/** A public-real source: a {@link FixtureSource} whose label is `public-real-<agent>`. */
export interface PublicRealSource extends Omit<FixtureSource, 'label'> {
  label: 'public-real-claude-code' | 'public-real-codex'
}

/** The public-real sources whose home exists under `root` (the repository root). */
export function publicRealSources(root: string): PublicRealSource[] {
  const home = (agent: string) => () => join(root, PUBLIC_REAL_DIR, agent, 'home')
  const all: PublicRealSource[] = [
    { label: 'public-real-claude-code', agent: 'claude-code', home: home('claude-code') },
    { label: 'public-real-codex', agent: 'codex', home: home('codex') },
  ]
  return all.filter((s) => existsSync(s.home()))
}
