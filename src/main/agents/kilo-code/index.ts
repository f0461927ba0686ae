/**
 * Kilo Code, both of its generations under one agent id (issue "Cline and its forks" item 7,
 * issue "More agents"): the old VS Code extension's Cline-layout tasks
 * (`<globalStorage>/kilocode.kilo-code/tasks`, read by the Cline family reader) and the newer
 * OpenCode-derived store (`~/.local/share/kilo/kilo.db` and its JSON storage, read by the OpenCode
 * family reader). Discovery merges both; reading dispatches on the ref's store format. As a convert
 * target Kilo Code is the Kilo CLI's `kilo.db` (src/main/agents/opencode/write.ts; `kilo -s <id>`
 * resumes it), with whatever provider the home's CLI is set up with.
 */
import { kiloCode as kiloTaskLayout } from '../cline'
import { discoverKilo, KILO_FORMATS, linkKilo, readKilo, writeKilo } from '../opencode'
import type { AgentDefinition } from '../types'

/** The Kilo Code agent (`kilo-code`). */
export const kiloCode: AgentDefinition = {
  id: 'kilo-code',
  displayName: 'Kilo Code',
  capabilities: { canWrite: true, hasCheckpoints: true, hasThinkingSignatures: true, providerFamily: 'any' },
  async discover(layout, ctx) {
    const [tasks, store] = await Promise.all([kiloTaskLayout.discover(layout, ctx), discoverKilo(layout, ctx)])
    return { refs: [...tasks.refs, ...store.refs], diagnostics: [...tasks.diagnostics, ...store.diagnostics] }
  },
  read(ref, ctx) {
    return KILO_FORMATS.has(ref.format) ? readKilo(ref, ctx) : kiloTaskLayout.read(ref, ctx)
  },
  link(sessions) {
    kiloTaskLayout.link?.(sessions.filter((s) => !KILO_FORMATS.has(s.source.format)))
    linkKilo(sessions)
  },
  write: writeKilo,
}
