/** Issue 17: `sepia --help` names the agents and convert targets of the registry, not a hand-kept list. */
import { describe, expect, it } from 'vitest'
import { main } from '../src/cli/index'
import { AGENTS } from '../src/main/agents/registry'
import { sink } from './helpers/cli-run'

async function help(): Promise<string> {
  const out = sink()
  const err = sink()
  expect(await main(['--help'], out as unknown as NodeJS.WritableStream, err as unknown as NodeJS.WritableStream)).toBe(0)
  return out.text
}

describe('sepia --help', () => {
  it('names every writable agent as a convert target', async () => {
    const text = await help()
    const convert = text.slice(text.indexOf('sepia convert'), text.indexOf('Options:'))
    // Writable = the agent's definition has a writer (independent of the help's own filter on canWrite).
    const writable = AGENTS.filter((a) => typeof a.write === 'function').map((a) => a.id)
    expect(writable.length).toBeGreaterThanOrEqual(7)
    const named = convert.match(/[a-z][a-z-]+(?=,|\s*\n\s*--dry-run)/g) ?? []
    expect(new Set(named.filter((w) => AGENTS.some((a) => a.id === w)))).toEqual(new Set(writable))
    expect(convert).not.toContain('(claude-code, cline)')
  })

  it('names every agent it reads', async () => {
    const text = await help()
    const options = text.slice(text.indexOf('Options:'))
    for (const a of AGENTS) expect(options).toMatch(new RegExp(`\\b${a.id}(,|\\n|$)`))
  })
})
