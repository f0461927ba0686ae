import { describe, expect, it } from 'vitest'
import { deepLinkOf, parseDeepLink, parseSessionRoute, sessionRoute } from './deep-link'

describe('parseDeepLink', () => {
  it('reads sepia://session/<agent>/<id> for every id format the agents use', () => {
    expect(parseDeepLink('sepia://session/claude-code/168ccd27-38fe-4712-8b25-f636c48dc3b8')).toEqual({ agent: 'claude-code', id: '168ccd27-38fe-4712-8b25-f636c48dc3b8' })
    expect(parseDeepLink('sepia://session/cline/1796022183774_v75nv')).toEqual({ agent: 'cline', id: '1796022183774_v75nv' })
    expect(parseDeepLink('sepia://session/opencode/ses_dd4b7d196ffeFByZARaHgXTnMa')).toEqual({ agent: 'opencode', id: 'ses_dd4b7d196ffeFByZARaHgXTnMa' })
    expect(parseDeepLink('sepia://session/devin/amber-falcon/')).toEqual({ agent: 'devin', id: 'amber-falcon' })
    expect(parseDeepLink('SEPIA://session/codex/abc')).toEqual({ agent: 'codex', id: 'abc' })
  })

  it('rejects unknown agents', () => {
    for (const agent of ['', 'claude', 'Claude-Code', '..', '__proto__', 'constructor', 'cline%2F..']) {
      expect(parseDeepLink(`sepia://session/${agent}/abc`), agent).toBeUndefined()
    }
  })

  it('rejects path traversal and extra segments', () => {
    for (const url of [
      'sepia://session/cline/..',
      'sepia://session/cline/.',
      'sepia://session/cline/../../etc/passwd',
      'sepia://session/cline/a/../b',
      'sepia://session/cline/a..b',
      'sepia://session/cline/.hidden',
      'sepia://session/cline/a\\..\\b',
      'sepia://session/cline/abc/extra',
      'sepia://session/cline//abc',
      'sepia://session//cline/abc',
      'sepia://session/cline/',
      'sepia://session/cline',
    ]) {
      expect(parseDeepLink(url), url).toBeUndefined()
    }
  })

  it('rejects encoded ids, queries, fragments and other characters', () => {
    for (const url of [
      'sepia://session/cline/%2e%2e',
      'sepia://session/cline/abc%2Fdef',
      'sepia://session/cline/abc%00',
      'sepia://session/cline/a%20b',
      'sepia://session/cl%69ne/abc',
      'sepia://session/cline/abc?x=1',
      'sepia://session/cline/abc#frag',
      'sepia://session/cline/a b',
      'sepia://session/cline/ab"c',
      'sepia://session/cline/ab\nc',
      'sepia://session/cline/ab;rm -rf',
      'sepia://session/cline/ab:c',
      'sepia://session/cline/ü',
      `sepia://session/cline/${'a'.repeat(201)}`,
    ]) {
      expect(parseDeepLink(url), url).toBeUndefined()
    }
  })

  it('rejects other schemes, hosts and non-strings', () => {
    for (const url of ['https://session/cline/abc', 'sepia:session/cline/abc', 'sepia:/session/cline/abc', 'sepia://sessions/cline/abc', 'sepia://evil.example/session/cline/abc', 'file:///session/cline/abc', ' sepia://session/cline/abc', 'sepia://session/cline/abc ', 42, null, undefined, {}]) {
      expect(parseDeepLink(url), String(url)).toBeUndefined()
    }
  })
})

describe('session routes', () => {
  it('reads #/session/<agent>/<id>, alone or next to the token, by the same rules', () => {
    expect(parseSessionRoute('#/session/gemini/05482b6c-3e8c-41f5-a7de-cbca744b9776')).toEqual({ agent: 'gemini', id: '05482b6c-3e8c-41f5-a7de-cbca744b9776' })
    expect(parseSessionRoute('#token=ab12&/session/cline/1796022183774_v75nv')).toEqual({ agent: 'cline', id: '1796022183774_v75nv' })
    for (const hash of ['', '#', '#token=ab', '#/session/cline/..', '#/session/nope/abc', '#/session/cline/%2e%2e', '#/session/cline/a/b', '#session/cline/abc']) {
      expect(parseSessionRoute(hash), hash).toBeUndefined()
    }
  })

  it('writes links and routes that read back', () => {
    const link = { agent: 'codex' as const, id: '01a22b43-64f5-7001-a0f5-62902c07c581' }
    expect(parseDeepLink(deepLinkOf(link))).toEqual(link)
    expect(parseSessionRoute(`#${sessionRoute(link)}`)).toEqual(link)
    expect(deepLinkOf({ agent: 'cline', id: 'a/b' })).toBeUndefined()
  })
})
