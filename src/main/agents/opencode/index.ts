/**
 * The OpenCode family: OpenCode (`<xdg data>/opencode/opencode.db` and the older JSON storage
 * `storage/`) and Kilo Code's CLI, an OpenCode fork (`<xdg data>/kilo/kilo.db`).
 *
 * Kilo Code also has an older, Cline-style VS Code task layout, read by the Cline family helper
 * under the same `kilo-code` id (src/main/agents/cline). {@link discoverKilo}, {@link readKilo}
 * and {@link linkKilo} are the pieces of this folder's Kilo reader that the registry combines with
 * that definition: `readKilo` handles the refs whose format is in {@link KILO_FORMATS}.
 */
import type { Session } from '../../../shared/ir'
import type { HomeLayout } from '../../platform'
import type { AgentDefinition, DiscoverResult, ReadContext, StoreRef, WriteOptions, WriteResult } from '../types'
import { KILO_CONFIG, OPENCODE_CONFIG, type OpencodeFamilyConfig, formatsOf } from './config'
import { discoverFamily } from './discover'
import { linkFamilySessions } from './link'
import { lazy } from '../lazy'
import type { FamilyWriteSpec } from './write'

export { closeStoreDbs } from './db'
export { KILO_CONFIG, OPENCODE_CONFIG, type OpencodeFamilyConfig, formatsOf } from './config'
export type { FamilyWriteSpec } from './write'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readFamilySession = lazy(() => import('./read').then((m) => m.readFamilySession))
const writeFamilySession = lazy(() => import('./write').then((m) => m.writeFamilySession))

/** The writer's spec of one member (`write.ts` `OPENCODE_WRITE`, `KILO_WRITE`), loading the writer. */
function writeSpec(name: 'OPENCODE_WRITE' | 'KILO_WRITE'): Promise<FamilyWriteSpec> {
  return import('./write').then((m) => m[name])
}

/**
 * The {@link AgentDefinition} of one OpenCode-family member. `spec` names its writer's spec in `write.ts`. Capabilities: a writer (convert
 * target, `write.ts`: a new session in the member's database that `<cli> -s <id>` resumes) whose
 * provider is whatever the home's CLI is set up with (`providerFamily: any`); checkpoints (the
 * `patch` parts name snapshot tree hashes in `<data>/snapshot/<project>/`); thinking signatures
 * kept (reasoning part `metadata.<provider>.signature`).
 */
export function makeOpencodeFamilyAgent(config: OpencodeFamilyConfig, spec: 'OPENCODE_WRITE' | 'KILO_WRITE'): AgentDefinition {
  const formats = new Set(Object.values(formatsOf(config)))
  return {
    id: config.id,
    displayName: config.displayName,
    capabilities: { canWrite: true, hasCheckpoints: true, hasThinkingSignatures: true, providerFamily: 'any' },
    discover: (layout) => discoverFamily(layout, config),
    read: (ref) => readFamilySession(ref, config),
    link: (sessions) => linkFamilySessions(sessions, formats),
    write: (session, options) => writeSpec(spec).then((w) => writeFamilySession(session, options, w)),
  }
}

/** OpenCode (npm `opencode-ai`). */
export const opencode = makeOpencodeFamilyAgent(OPENCODE_CONFIG, 'OPENCODE_WRITE')

/**
 * Kilo Code CLI's OpenCode-derived store, id `kilo-code`. Not registered on its own: the registry
 * merges it with the Cline-layout Kilo Code definition (see the module comment).
 */
export const kiloCodeCli = makeOpencodeFamilyAgent(KILO_CONFIG, 'KILO_WRITE')

/** Store formats `readKilo` reads: `kilo-db`, `kilo-json`, `kilo-export`. */
export const KILO_FORMATS: ReadonlySet<string> = new Set(Object.values(formatsOf(KILO_CONFIG)))

/** Store formats OpenCode's reader reads: `opencode-db`, `opencode-json`, `opencode-export`. */
export const OPENCODE_FORMATS: ReadonlySet<string> = new Set(Object.values(formatsOf(OPENCODE_CONFIG)))

/** Kilo Code sessions in `<xdg data>/kilo/` (kilo.db and JSON storage). Never throws. */
export function discoverKilo(layout: HomeLayout, ctx: ReadContext): Promise<DiscoverResult> {
  return kiloCodeCli.discover(layout, ctx)
}

/** Read a Kilo Code ref whose format is in {@link KILO_FORMATS}; READ_FAILED for other formats. */
export function readKilo(ref: StoreRef, ctx: ReadContext): Promise<Session> {
  return kiloCodeCli.read(ref, ctx)
}

/** Write a converted session into the Kilo CLI's `kilo.db` (`write.ts` {@link FamilyWriteSpec} `KILO_WRITE`). */
export function writeKilo(session: Session, options: WriteOptions): Promise<WriteResult> {
  return writeSpec('KILO_WRITE').then((w) => writeFamilySession(session, options, w))
}

/** Link Kilo Code CLI sub-agent sessions (only sessions of {@link KILO_FORMATS} are touched). */
export function linkKilo(sessions: Session[]): void {
  linkFamilySessions(sessions, KILO_FORMATS)
}
