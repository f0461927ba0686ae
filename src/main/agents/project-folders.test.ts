/**
 * Project-folder discovery (Aider, Crush): a store in a folder another agent's session names is
 * found through `ReadContext.projectFolders` wherever it is; the walk of the home stops at
 * WALK_MAX_DEPTH levels and skips hidden and bulk folders.
 */
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../tests/helpers/golden'
import { guardAgents } from '../paths'
import { layoutForHome } from '../platform'
import { aider } from './aider'
import { crush } from './crush'
import { WALK_MAX_DEPTH } from './project-folders'

const AIDER_MD = join(REPO_ROOT, 'fixtures/public-real/aider/zen-mcp-interrupted/home/git/github/zen-mcp-server/.aider.chat.history.md')
const CRUSH_DB = join(REPO_ROOT, 'fixtures/public-real/crush/dbos-api-error/home/codeZ/dbos-transact-golang/.crush/crush.db')

function project(root: string, ...parts: string[]): string {
  const dir = join(root, ...parts)
  mkdirSync(join(dir, '.crush'), { recursive: true })
  cpSync(AIDER_MD, join(dir, '.aider.chat.history.md'))
  cpSync(CRUSH_DB, join(dir, '.crush', 'crush.db'))
  return dir
}

describe('project-folder discovery', () => {
  it('finds stores in folders the catalog knows, outside the home or deeper than the walk', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-pf-home-'))
    const outside = project(mkdtempSync(join(tmpdir(), 'sepia-pf-out-')), 'proj')
    const deep = project(home, ...Array.from({ length: WALK_MAX_DEPTH + 1 }, (_, i) => `d${i}`))
    const hidden = project(home, '.hidden', 'proj')
    const bulk = project(home, 'node_modules', 'pkg')
    const shallow = project(home, 'a', 'b')
    const layout = await layoutForHome({ home, os: 'linux' })
    for (const agent of [aider, crush]) {
      const alone = await agent.discover(layout, { now: () => 0 })
      const dirs = (refs: typeof alone.refs) => new Set(refs.map((r) => r.files[0]!.replace(/[/\\](\.aider\.chat\.history\.md|\.crush[/\\]crush\.db)$/, '')))
      expect([...dirs(alone.refs)], agent.id).toEqual([shallow])
      // A known "folder" that is a file (each marker's stat fails with ENOTDIR) is no project, and no failure.
      const known = await agent.discover(layout, { now: () => 0, projectFolders: () => [outside, deep, hidden, bulk, join(home, 'missing'), join(shallow, '.aider.chat.history.md')] })
      expect([...dirs(known.refs)].sort(), agent.id).toEqual([outside, deep, hidden, bulk, shallow].sort())
    }
  })

  it('the symlink guard keeps a known project outside the home, but not one reached through a link', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-pf-guard-'))
    const outside = project(mkdtempSync(join(tmpdir(), 'sepia-pf-target-')), 'proj')
    const linked = project(mkdtempSync(join(tmpdir(), 'sepia-pf-target2-')), 'proj')
    symlinkSync(linked, join(home, 'link'))
    const layout = await layoutForHome({ home, os: 'linux' })
    for (const agent of guardAgents([aider, crush])) {
      const found = await agent.discover(layout, { now: () => 0, projectFolders: () => [outside, join(home, 'link')] })
      expect(new Set(found.refs.map((r) => r.hints?.projectDir)), agent.id).toEqual(new Set([outside]))
      expect(found.diagnostics.some((d) => d.message.includes('symbolic link')), agent.id).toBe(true)
    }
  })
})
