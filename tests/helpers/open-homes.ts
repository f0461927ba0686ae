/**
 * The real fixture homes the catalog suites build a library from, and the `OpenHome`s of a list of
 * home folders (shared by src/main/catalog/catalog.test.ts, rows.test.ts and feed.test.ts, which
 * each kept a copy).
 */
import { join } from 'node:path'
import { findAppRoot } from '../../src/main/context'
import type { OpenHome } from '../../src/main/library'
import { layoutForHome } from '../../src/main/platform'

/** `fixtures/real/<name>/home` of the seven agents' real stores the catalog tests compare against fresh reads. */
export const CATALOG_HOMES: readonly string[] = ['claude-code', 'cline', 'cline-legacy', 'codex', 'gemini', 'kilo', 'opencode'].map((n) => join(findAppRoot(), 'fixtures/real', n, 'home'))

/** One `OpenHome` (its platform layout, not a demo) per home folder, in order. */
export async function openHomes(paths: readonly string[]): Promise<OpenHome[]> {
  return Promise.all(paths.map(async (home) => ({ layout: await layoutForHome({ home }), isDemo: false })))
}
