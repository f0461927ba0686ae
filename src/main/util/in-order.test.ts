import { describe, expect, it } from 'vitest'
import { mapInOrder } from './in-order'

const later = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('mapInOrder', () => {
  it('gives the results in item order, whatever order the calls settle in', async () => {
    const items = Array.from({ length: 40 }, (_, i) => i)
    const got = await mapInOrder(items, async (x, i) => {
      await later((x * 7) % 5)
      return `${x}:${i}`
    }, 6)
    expect(got).toEqual(items.map((x) => `${x}:${x}`))
  })

  it('keeps at most `limit` calls in flight', async () => {
    let running = 0
    let most = 0
    await mapInOrder(Array.from({ length: 30 }, (_, i) => i), async () => {
      running++
      most = Math.max(most, running)
      await later(1)
      running--
    }, 4)
    expect(most).toBe(4)
  })

  it('handles an empty list and rejects with the first error', async () => {
    expect(await mapInOrder([], async () => 1)).toEqual([])
    await expect(mapInOrder([1, 2, 3], async (x) => {
      if (x === 2) throw new Error('two')
      return x
    })).rejects.toThrow('two')
  })
})
