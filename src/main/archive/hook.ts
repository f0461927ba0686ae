/**
 * The archive as the catalog's refresh sees it ({@link ArchiveHook}): only the user's own home is
 * covered (`HomeLayout.isOwnHome`, never a copied home, a bundle or the demo library); copies are
 * taken only while the archive is on; a session gone from its store stays listed when the archive
 * holds a copy, whether or not the archive is still on.
 */
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import type { ArchivedMark } from '../../shared/archive'
import type { AgentId, Diagnostic } from '../../shared/ir'
import type { AgentDefinition, StoreRef } from '../agents/types'
import type { ArchiveHook, OpenHome } from '../catalog/refresh'
import { rebasePaths, type Archive, type ArchiveItem } from './archive'
import { indexDbOf } from './putback'
import { plural } from '../../shared/plural'

/** Build the refresh hook over `archive`; `agents` give the display names of the marks. */
export function archiveHook(archive: Archive, agents: readonly AgentDefinition[]): ArchiveHook {
  const nameOf = (id: AgentId): string => agents.find((a) => a.id === id)?.displayName ?? id
  return {
    covers: (home: OpenHome) => home.layout.isOwnHome && !home.isDemo,
    idle: () => !archive.settings().enabled,
    gone(home, agent, sessionId): ArchivedMark | undefined {
      const s = archive.session(home, agent, sessionId)
      if (!s) return undefined
      const goneAt = archive.markGone(home, agent, sessionId) ?? Date.now()
      return { goneAt, agentName: nameOf(agent), archivedAt: s.lastAt }
    },
    supersedes(ref: StoreRef): boolean {
      if (!ref.format.endsWith('-recovered')) return false
      const s = archive.session(ref.home, ref.agent, ref.sessionId)
      return s !== undefined && !s.ref.format.endsWith('-recovered') && s.ref.files[0] !== undefined && !existsSync(s.ref.files[0])
    },
    orphans(home, agent, known) {
      return archive
        .sessions(home, agent)
        .filter((s) => !known.has(s.sessionId) && s.ref.files[0] !== undefined && !existsSync(s.ref.files[0]))
        .map((s) => s.sessionId)
    },
    async readOrphan(def, home, sessionId, ctx) {
      const s = archive.session(home, def.id, sessionId)
      if (!s) throw new Error('not in the archive')
      const { dir, ref } = await archive.extract(home, def.id, sessionId)
      try {
        const session = rebasePaths(await def.read(ref, ctx), dir, home)
        session.source = { ...session.source, files: s.ref.files }
        const goneAt = archive.markGone(home, def.id, sessionId) ?? s.lastAt
        return { session, ref: s.ref, mark: { goneAt, agentName: nameOf(def.id), archivedAt: s.lastAt } }
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
    async archive(refs: readonly StoreRef[], projectOf): Promise<Diagnostic[]> {
      if (!archive.settings().enabled) return []
      const result = await archive.archive(
        refs.map((ref) => {
          const item: ArchiveItem = { ref }
          const project = projectOf(ref)
          if (project !== undefined) item.project = project
          const db = indexDbOf(ref)
          if (db) item.extraFiles = [db]
          return item
        }),
      )
      const out: Diagnostic[] = result.failed.map((f) => ({ severity: 'warning' as const, path: f.path, message: `Could not copy this file into Sepia's archive: ${f.message}` }))
      if (result.skippedForCap > 0) out.push({ severity: 'warning', path: archive.dir, message: `Sepia's archive is full: ${plural(result.skippedForCap, 'new file version was', 'new file versions were')} not kept. Raise the size cap in Settings or prune the archive.` })
      return out
    },
  }
}
