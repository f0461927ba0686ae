/**
 * Issue 9 item 3 (renderer): a strict Content-Security-Policy with no remote origin, the same in
 * the page's meta tag and the loopback server's header, and no remote font, script, style or
 * image referenced by the built page or its CSS.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findAppRoot } from '../src/main/context'
import { CSP } from '../src/main/transport/http'

const ROOT = findAppRoot()

/** `directive → sources` of a policy string. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((p) => p[0])
      .map((p) => [p[0]!, p.slice(1)]),
  )
}

function metaPolicy(html: string): string {
  const m = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)
  expect(m, 'the page has a CSP meta tag').not.toBeNull()
  return m![1]!
}

function expectStrict(policy: string): void {
  const d = directives(policy)
  expect(d.get('default-src')).toEqual(["'self'"])
  expect(d.get('script-src')).toEqual(["'self'"])
  expect(d.get('connect-src')).toEqual(["'self'"])
  expect(d.get('font-src')).toEqual(["'self'"])
  expect(d.get('object-src')).toEqual(["'none'"])
  expect(d.get('base-uri')).toEqual(["'none'"])
  expect(d.get('form-action')).toEqual(["'none'"])
  for (const [name, sources] of d) {
    for (const s of sources) {
      // Only the app's own origin, inline styles and data: images; never a host, scheme-wide source or eval.
      expect(["'self'", "'none'", "'unsafe-inline'", 'data:'], `${name} ${s}`).toContain(s)
      if (s === "'unsafe-inline'") expect(name).toBe('style-src')
      if (s === 'data:') expect(name).toBe('img-src')
    }
  }
}

describe('Content-Security-Policy', () => {
  it('the loopback server sends a strict policy', () => {
    expectStrict(CSP)
    expect(directives(CSP).get('frame-ancestors')).toEqual(["'none'"])
  })

  it('the renderer page carries the same policy in its meta tag (Electron loads it from file:)', () => {
    const meta = metaPolicy(readFileSync(join(ROOT, 'src/renderer/index.html'), 'utf8'))
    expectStrict(meta)
    const server = directives(CSP)
    server.delete('frame-ancestors') // ignored in a meta tag
    expect(directives(meta)).toEqual(server)
  })

  const built = join(ROOT, 'out/renderer')
  it.skipIf(!existsSync(join(built, 'index.html')))('the built page and its CSS load nothing remote (fonts, scripts, styles, images)', () => {
    expectStrict(metaPolicy(readFileSync(join(built, 'index.html'), 'utf8')))
    const files = readdirSync(built, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(html|css)$/.test(f))
    expect(files.length).toBeGreaterThan(1)
    for (const f of files) {
      const text = readFileSync(join(built, f), 'utf8')
      expect(text, f).not.toMatch(/(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i)
      expect(text, f).not.toMatch(/url\(\s*["']?(?:https?:)?\/\//i)
      expect(text, f).not.toMatch(/@import\s+["'](?:https?:)?\/\//i)
    }
    const js = readdirSync(built, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))
    for (const f of js) expect(readFileSync(join(built, f), 'utf8'), f).not.toMatch(/fonts\.googleapis|fonts\.gstatic|cdn\.jsdelivr|unpkg\.com|cdnjs\./)
  })
})
