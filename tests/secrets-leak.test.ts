/**
 * Issue 9 item 7: known fake secrets seeded into every agent's fixture homes (prompts, replies,
 * thinking, tool arguments and results, titles, metadata; JSON, JSONL and SQLite stores) never
 * appear in any API answer or exported file — not whole, and not a 16-character piece of one —
 * except in `revealSecrets`, the one explicit reveal. Credential files are flagged by path and
 * their values never appear anywhere, not even in a reveal.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApi } from '../src/main/api'
import { FAKE_SECRETS } from './builders/secrets/fake-secrets'
import { allFixtureHomes } from './helpers/fixture-homes'
import { CREDENTIAL_FILES, CREDENTIAL_VALUES, seedSecretsHome } from './helpers/seed-secrets'
import { runSweep, sweepContext } from './helpers/sweep'

/** A secret and a piece from its random middle (a cut snippet must not carry it either). */
const NEEDLES = FAKE_SECRETS.map((s) => ({ kind: s.kind, whole: s.secret, piece: s.secret.slice(Math.floor(s.secret.length / 2) - 8, Math.floor(s.secret.length / 2) + 8) }))

function leaksIn(text: string): string[] {
  return NEEDLES.filter((n) => text.includes(n.whole) || text.includes(n.piece)).map((n) => n.kind)
}

function files(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) files(p, out)
    else if (e.isFile()) out.push(p)
  }
  return out
}

describe('safety: no secret leaves main unmasked', () => {
  it('seeded secrets are masked in every API answer and export, and revealed only on request', async () => {
    const homes = allFixtureHomes().map(seedSecretsHome)
    const api = createApi(sweepContext(homes))
    const report = await runSweep(api, homes)
    expect(report.unknown).toEqual([])

    const leaks: string[] = []
    const revealed = new Set<string>()
    let masked = 0
    for (const call of report.calls) {
      const text = JSON.stringify(call.result)
      for (const v of Object.values(CREDENTIAL_VALUES)) if (text.includes(v)) leaks.push(`${call.method}: credential file value`)
      if (call.method === 'revealSecrets') {
        for (const n of NEEDLES) if (text.includes(n.whole)) revealed.add(n.kind)
        continue
      }
      if (call.method === 'getSession' && call.result.ok) masked += (call.result.value as { maskedSecrets?: number }).maskedSecrets ?? 0
      for (const kind of leaksIn(text)) leaks.push(`${call.method}(${JSON.stringify(call.args).slice(0, 80)}): ${kind}`)
    }
    // Files the exports wrote. A review bundle (collectForReview) is a byte copy of the stores by design.
    let exported = 0
    for (const file of files(report.tempRoot)) {
      if (relative(report.tempRoot, file).startsWith('collect-')) continue
      exported++
      const text = readFileSync(file, 'utf8')
      for (const kind of leaksIn(text)) leaks.push(`file ${relative(report.tempRoot, file)}: ${kind}`)
      for (const v of Object.values(CREDENTIAL_VALUES)) if (text.includes(v)) leaks.push(`file ${relative(report.tempRoot, file)}: credential file value`)
    }
    console.log(`secrets: ${report.calls.length} answers and ${exported} exported files checked; ${masked} secrets masked in sessions; kinds revealed on request: ${revealed.size}/${FAKE_SECRETS.length}`)

    expect([...new Set(leaks)]).toEqual([])
    // The seeding landed: every kind is in the stores (the reveal shows it) and was masked.
    expect([...revealed].sort()).toEqual(FAKE_SECRETS.map((s) => s.kind).sort())
    expect(masked).toBeGreaterThan(100)
  }, 240_000)

  it('flags credential files by path, agent and kind, never with their values', async () => {
    const homes = allFixtureHomes().slice(0, 1).map(seedSecretsHome)
    const api = createApi(sweepContext(homes))
    const lib = await api.getLibrary()
    for (const c of CREDENTIAL_FILES) expect(lib.credentialFiles).toContainEqual({ path: join(homes[0]!, c.rel), agent: c.agent, kind: c.kind })
    expect(JSON.stringify(lib)).not.toMatch(/CredFileOnly|credf11e/)
  })
})
