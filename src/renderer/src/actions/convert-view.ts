/**
 * What the "Continue in…" dialog lists, as data: one row per agent of the library other than the
 * session's own — the writable ones with their {@link ConvertPlan} (from `convertTargets`), the
 * others disabled with the reason — and each plan's warnings in plain words
 * (`strings.convert.warningPlain`, else `describeWarning` from src/shared/convert.ts), losses
 * first, the technical wording kept as the row's `detail`. Pure.
 */
import type { AgentInfo } from '../../../shared/api'
import { describeWarning, WARNING_SEVERITY, type ConvertPlan, type ConvertWarning, type WarningSeverity } from '../../../shared/convert'
import type { AgentId } from '../../../shared/ir'
import { strings } from '../strings'

/** One warning of a plan, ready to show. */
export interface WarningRow {
  kind: string
  severity: WarningSeverity
  /** What the user loses or gets, in their words. */
  text: string
  count: number
  /** The technical wording (`describeWarning`), when `text` is the plain one: shown one click away. */
  detail?: string
}

/** One target agent in the dialog. */
export interface TargetRow {
  agent: AgentId
  displayName: string
  /** The plan, for a target Sepia can write. */
  plan?: ConvertPlan
  /** Why it cannot be chosen (plain words), for the others. */
  disabledReason?: string
  warnings: WarningRow[]
}

/** One warning in the user's words, with the technical wording as its detail where they differ. */
export function warningRow(w: ConvertWarning): WarningRow {
  const technical = describeWarning(w)
  const plain = (strings.convert.warningPlain[w.kind] as ((x: ConvertWarning) => string) | undefined)?.(w)
  const row: WarningRow = { kind: w.kind, severity: WARNING_SEVERITY[w.kind], text: plain ?? technical, count: w.count }
  if (plain !== undefined && plain !== technical) row.detail = technical
  return row
}

/** The warnings of a plan in plain words, in the plan's order (losses first). */
export function warningRows(plan: ConvertPlan): WarningRow[] {
  return plan.warnings.map(warningRow)
}

/**
 * The rows: writable targets (in the order `convertTargets` gave them) first, then the library's
 * other agents disabled. The session's own agent is left out.
 */
export function targetRows(plans: readonly ConvertPlan[], agents: readonly AgentInfo[], own: AgentId): TargetRow[] {
  const rows: TargetRow[] = plans.map((plan) => ({ agent: plan.target.agent, displayName: plan.target.displayName, plan, warnings: warningRows(plan) }))
  const planned = new Set(rows.map((r) => r.agent))
  for (const a of agents) {
    if (a.id === own || planned.has(a.id)) continue
    rows.push({ agent: a.id, displayName: a.displayName, disabledReason: strings.convert.cannotWrite(a.displayName), warnings: [] })
  }
  return rows
}

/** The first row that can be chosen, or undefined. */
export function firstWritable(rows: readonly TargetRow[]): TargetRow | undefined {
  return rows.find((r) => r.plan !== undefined)
}

/** A one-line verdict for a plan: "Nothing is lost" or "N kinds of content left out". */
export function lossSummary(plan: ConvertPlan): string {
  return plan.losses === 0 ? strings.convert.nothingLost : strings.convert.lost(plan.losses)
}
