/** The "Allow once" step: a token only after the click, nothing on cancel (issue 16/17). */
import { describe, expect, it } from 'vitest'
import { useAllowOnce } from './allow-once'

describe('useAllowOnce', () => {
  it('asks, then resolves the grant on Allow and undefined on Cancel', async () => {
    const asked: [string, string][] = []
    const a = useAllowOnce(async (path, op) => (asked.push([path, op]), { token: `t-${asked.length}` }))
    const first = a.ask('/home/me/out', 'export')
    expect(a.asking.value).toEqual({ path: '/home/me/out', operation: 'export' })
    expect(asked).toEqual([]) // nothing granted before the click
    await a.allow()
    expect(await first).toBe('t-1')
    expect(a.asking.value).toBeNull()
    const second = a.ask('/p', 'restore')
    a.cancel()
    expect(await second).toBeUndefined()
    expect(asked).toEqual([['/home/me/out', 'export']])
  })
})
