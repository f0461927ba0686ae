/**
 * axe-core in a Playwright page: inject `axe.min.js` from node_modules (inline, no network; the
 * page's CSP allows only 'self' scripts, so the browser context must be made with
 * `bypassCSP: true`) and list the violations (all, or only serious and critical), readable in a
 * test failure.
 */
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const require = createRequire(import.meta.url)
const AXE = require.resolve('axe-core/axe.min.js')

/** One violation, shortened for a failure message: rule, impact, help, how many elements, up to 5 of them. */
export interface Violation {
  id: string
  impact: string
  help: string
  count: number
  nodes: string[]
}

/**
 * Run axe on the page, or only inside `include` (a CSS selector, e.g. an open dialog), and return
 * the violations whose impact is `serious` or `critical`.
 */
export async function seriousViolations(page: Page, include?: string): Promise<Violation[]> {
  return (await violations(page, include)).filter((v) => v.impact === 'serious' || v.impact === 'critical')
}

/**
 * Run axe on the page, or only inside `include` (a CSS selector, e.g. an open dialog), and return
 * every violation, of any impact (minor, moderate, serious, critical), including best-practice
 * rules such as `region` and `page-has-heading-one`.
 */
export async function violations(page: Page, include?: string): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE })
  return page.evaluate(async (sel) => {
    type AxeNode = { target: unknown[]; failureSummary?: string; html: string }
    type AxeResult = { id: string; impact?: string | null; help: string; nodes: AxeNode[] }
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeResult[] }> } }).axe
    const result = await axe.run(sel ? { include: [sel] } : document, { resultTypes: ['violations'] })
    return result.violations
      .map((v) => ({
        id: v.id,
        impact: String(v.impact),
        help: v.help,
        count: v.nodes.length,
        nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').replace(/^Fix (any|all) of the following: /, '').slice(0, 220)}`),
      }))
  }, include ?? null)
}
