import { describe, expect, it } from 'vitest'
import { routeFromHash, withoutHashParts } from './deep-link'

describe('routeFromHash', () => {
  it('opens the session of #/session/<agent>/<id>, in both modes, also next to the token', () => {
    for (const electron of [true, false]) {
      expect(routeFromHash('#/session/claude-code/168ccd27-38fe-4712-8b25-f636c48dc3b8', electron)).toEqual({ kind: 'session', link: { agent: 'claude-code', id: '168ccd27-38fe-4712-8b25-f636c48dc3b8' } })
      expect(routeFromHash('#token=0a1b&/session/cline/1796022183774_v75nv', electron)).toEqual({ kind: 'session', link: { agent: 'cline', id: '1796022183774_v75nv' } })
    }
  })

  it('refuses bad agents, traversal and encoded ids', () => {
    for (const hash of ['#/session/evil/abc', '#/session/cline/..', '#/session/cline/%2e%2e', '#/session/cline/a%2Fb', '#/session/cline/a/b', '#/session/cline/a b']) {
      expect(routeFromHash(hash, true), hash).toBeUndefined()
    }
  })

  it('opens an associated file only in Electron', () => {
    expect(routeFromHash('#open=%2Fhome%2Fana%2Fa%20b.zip', true)).toEqual({ kind: 'open', path: '/home/ana/a b.zip' })
    expect(routeFromHash('#open=%2Fhome%2Fana%2Fa.zip', false)).toBeUndefined()
    expect(routeFromHash('#open=%E0%A4%A', true)).toBeUndefined()
    expect(routeFromHash('#open=', true)).toBeUndefined()
  })
})

describe('withoutHashParts', () => {
  it('drops the route and keeps the rest', () => {
    const route = (p: string) => p.startsWith('/session/')
    expect(withoutHashParts('#token=ab&/session/cline/x', route)).toBe('#token=ab')
    expect(withoutHashParts('#/session/cline/x', route)).toBe('')
    expect(withoutHashParts('', route)).toBe('')
  })
})
