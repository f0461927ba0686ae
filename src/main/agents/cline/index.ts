/**
 * Cline and the forks that share its legacy task layout (DESIGN.md "agents/": "Forks that share a
 * layout (Roo Code, Kilo Code's old layout, PearAI) reuse the Cline reader with their own
 * extension id").
 *
 * - Cline (`saoudrizwan.claude-dev`) reads the SDK store `<clineDataDir>/sessions` +
 *   `db/sessions.db`, the CLI/JetBrains legacy tasks under `<clineDataDir>/tasks`, and the VS Code
 *   extension's legacy tasks under every `globalStorage/saoudrizwan.claude-dev/` (seed 000
 *   "Transcript stores").
 * - Cline also reads its secondary sources (search index `db/session-search.db`, hook audit log
 *   `logs/hooks.jsonl`): turns a transcript lost are added to it marked `recovered`, and a session
 *   whose transcript is gone is listed as format `cline-recovered` (seed 000 "What survives a
 *   delete"). `timeline` gives seed 000's row model ("Parser plan") for the timeline view.
 * - Roo Code (`rooveterinaryinc.roo-cline`), Kilo Code (`kilocode.kilo-code`, its pre-OpenCode
 *   layout) and PearAI (`pearai.pearai-roo-cline`, its Roo Code fork, in PearAI's own user data
 *   folder, pearai.md "Per-user storage") read only their own `globalStorage/<extensionId>/tasks`.
 */
import { lazy } from '../lazy'
import type { AgentDefinition, StoreRef } from '../types'
import { SDK_FORMAT, SDK_SUBAGENT_FORMAT } from './discover-sdk'
import { type ClineFamilyConfig, discoverClineFamily, freshnessDeps, LEGACY_FORMAT } from './discover'
import { linkSubagents } from './link'
import { RECOVERED_FORMAT } from './secondary/discover'

export type { ClineFamilyConfig } from './discover'
export { LEGACY_FORMAT } from './discover'
export { SDK_FORMAT, SDK_SUBAGENT_FORMAT } from './discover-sdk'
export { RECOVERED_FORMAT } from './secondary/discover'
export type { ClineTimelineOptions } from './timeline'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readLegacyTask = lazy(() => import('./read-legacy').then((m) => m.readLegacyTask))
const readSdkSession = lazy(() => import('./read-sdk').then((m) => m.readSdkSession))
const readRecoveredSession = lazy(() => import('./secondary/recover').then((m) => m.readRecoveredSession))
const clineFamilyTimeline = lazy(() => import('./timeline').then((m) => m.clineFamilyTimeline))
const writeClineSession = lazy(() => import('./write').then((m) => m.writeClineSession))

/**
 * An {@link AgentDefinition} for one member of the Cline family. Capabilities: a writer (convert
 * target, `write.ts`: the SDK store that `cline --id` resumes) for Cline only, whose provider is
 * chosen at resume time (family `any`, so no signed thinking is written); checkpoints (SDK `metadata.checkpoint`, legacy `lastCheckpointHash` shadow-git refs) for Cline
 * only; thinking signatures kept (`thinking.signature`, `redacted_thinking`).
 */
export function makeClineFamilyAgent(config: ClineFamilyConfig): AgentDefinition {
  return {
    id: config.id,
    displayName: config.displayName,
    capabilities: {
      canWrite: config.readsSdkStore,
      hasCheckpoints: config.readsSdkStore,
      hasThinkingSignatures: true,
      ...(config.readsSdkStore ? { providerFamily: 'any' as const } : {}),
    },
    discover: (layout) => discoverClineFamily(layout, config),
    freshness: (layout) => freshnessDeps(layout, config),
    read: (ref: StoreRef, ctx) =>
      ref.format === LEGACY_FORMAT ? readLegacyTask(ref, ctx) : ref.format === RECOVERED_FORMAT ? readRecoveredSession(ref, ctx) : readSdkSession(ref, ctx),
    link: linkSubagents,
    timeline: (layout, _ctx, filter) => clineFamilyTimeline(layout, config, filter),
    ...(config.readsSdkStore ? { write: writeClineSession } : {}),
  }
}

/** Cline: CLI (SDK store and legacy tasks), VS Code extension, JetBrains. */
export const cline = makeClineFamilyAgent({
  id: 'cline',
  displayName: 'Cline',
  extensionIds: ['saoudrizwan.claude-dev'],
  readsSdkStore: true,
})

/** Roo Code, a fork of Cline with the same task layout. */
export const rooCode = makeClineFamilyAgent({
  id: 'roo-code',
  displayName: 'Roo Code',
  extensionIds: ['rooveterinaryinc.roo-cline'],
  readsSdkStore: false,
})

/** Kilo Code's VS Code extension before its OpenCode-derived store (seed 000 intro, kilo-code.md). */
export const kiloCode = makeClineFamilyAgent({
  id: 'kilo-code',
  displayName: 'Kilo Code',
  extensionIds: ['kilocode.kilo-code'],
  readsSdkStore: false,
})

/** PearAI's Roo Code fork (`PearAI.pearai-roo-cline`), in PearAI's own `User/globalStorage` (pearai.md). */
export const pearai = makeClineFamilyAgent({
  id: 'pearai',
  displayName: 'PearAI',
  extensionIds: ['pearai.pearai-roo-cline'],
  readsSdkStore: false,
})

/** Formats this folder reads, for tests and the registry's conformance suite. */
export const CLINE_FORMATS = [SDK_FORMAT, SDK_SUBAGENT_FORMAT, LEGACY_FORMAT, RECOVERED_FORMAT] as const
