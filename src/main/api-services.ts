/**
 * The API's services that no listing or search needs: checkpoints and restores, exports and review
 * bundles, session bundles and moves, convert and "Open in terminal", preferences and updates,
 * reading health and problem reports. `createApi` (src/main/api.ts) imports this module the first
 * time one of their methods is called, so a warm `sepia list --json` or `sepia search WORD` neither
 * loads nor compiles them (issue 15: compiling the CLI's modules was ~0.1 s of each command on
 * Node 20, which has no compile cache for ES modules; BENCHMARKS.md "Warm CLI, session 11").
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentDefinition, ReadContext } from './agents/types'
import type { AppContext } from './context'
import type { LibraryService } from './library'
import type { PathPolicy } from './paths'
import type { Session, AgentId } from '../shared/ir'
import type { HomeLayout } from './platform'
import type { TaskRegistry } from './bundle/tasks'
import { createCheckpointService } from './checkpoints'
import { createBundleMethods } from './bundle/service'
import { createExportMethods } from './export/service'
import { createConvertService } from './convert/service'
import { ResumeBook } from './convert/open-terminal'
import { createPreferences } from './updates'
import { createMoveMethods } from './move/service'
export { computeHealth } from './health/report'
export { writeProblemReport } from './health/problem-report'

/** What {@link createServices} needs from `createApi`: its context, library, path policy and task registry. */
export interface ServiceDeps {
  context: AppContext
  library: LibraryService
  /** Every agent, behind the symlink guard (`guardAgents(AGENTS)`). */
  agents: readonly AgentDefinition[]
  /** Every agent as the registry has it (the convert targets). */
  allAgents: readonly AgentDefinition[]
  ctx: ReadContext
  paths: PathPolicy
  tasks: TaskRegistry
  /** Sepia's data folder, or the per-process temporary one when the host gives none. */
  appDataDir: string
  /** The API's first opening (`init` of `createApi`). */
  init(): Promise<void>
  /** The source session of a convert: masked unless the user revealed it (`revealSecrets`). */
  convertSource(agent: AgentId, id: string): Promise<Session>
  /** The layout of a convert's target home (`home`), or of the user's own. */
  targetLayout(home: string | undefined): Promise<HomeLayout>
}

/** The services, each built once for one API (one call per `createApi`). */
export function createServices(d: ServiceDeps) {
  const { context, library, paths, tasks, appDataDir, ctx } = d
  return {
    // Restores keep their backups in the app's data folder (a per-process temp folder when the host gives none).
    checkpoints: createCheckpointService({ library, appDataDir: context.appDataDir ?? join(tmpdir(), `sepia-data-${process.pid}`), now: ctx.now }),
    // Exports and review bundles (issue 10): src/main/export/service.ts, src/main/bundle/service.ts.
    bundles: createBundleMethods({ context, library, agents: d.agents, ctx, paths, tasks, appDataDir }),
    exporter: createExportMethods({ context, library, paths, tasks, init: d.init, appDataDir, now: ctx.now }),
    // Session bundles and moves (issue 19): src/main/move/service.ts.
    mover: createMoveMethods({ context, library, agents: d.agents, paths, ctx, appDataDir, init: d.init }),
    // Convert ("Continue in..."): src/main/convert/service.ts.
    converter: createConvertService({ getSession: d.convertSource, agents: d.allAgents, appDataDir, targetLayout: d.targetLayout, ctx }),
    // "Open in terminal": only for conversions of this process (src/main/convert/open-terminal.ts).
    resumes: new ResumeBook({ platform: context.platform, ownHome: context.ownHome, env: context.env, ...(context.spawnTerminal ? { spawn: context.spawnTerminal } : {}) }),
    // Preferences and updates (off by default): src/main/updates.ts.
    preferences: createPreferences({ appDataDir, ...(context.startUpdates ? { startUpdates: context.startUpdates } : {}) }),
  }
}

/** The services of one API ({@link createServices}). */
export type Services = ReturnType<typeof createServices>
