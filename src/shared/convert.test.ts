import { describe, expect, it } from 'vitest'
import { describeWarning } from './convert'

describe('describeWarning: signed thinking from or to an agent whose provider is chosen at resume time', () => {
  it('names the signing provider when the source knows it', () => {
    expect(describeWarning({ kind: 'thinking-other-provider-dropped', count: 2, from: 'anthropic', to: 'openai' })).toBe(
      '2 signed thinking blocks from Anthropic left out: only Anthropic accepts its signature, and the target talks to OpenAI.',
    )
  })
  it('reads as a sentence when either side is "any" (Letta Code, Droid: found by a first user)', () => {
    const fromAny = describeWarning({ kind: 'thinking-other-provider-dropped', count: 1, from: 'any', to: 'any' })
    const toAny = describeWarning({ kind: 'thinking-other-provider-dropped', count: 1, from: 'anthropic', to: 'any' })
    for (const text of [fromAny, toAny]) expect(text).not.toMatch(/from a provider chosen at resume time|only a provider chosen/)
    expect(fromAny).toMatch(/^1 signed thinking block left out: .*signed it is not recorded/)
    expect(toAny).toBe('1 signed thinking block from Anthropic left out: only Anthropic accepts its signature, and the target talks to whichever provider it is set up with.')
  })
})
