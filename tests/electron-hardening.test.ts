/**
 * Issue 16, Electron (defence in depth): IPC sender validation, `file:` URLs limited to the app's
 * own folders, argument shapes checked in main, and the fuses in the packaging config. Reads the
 * built bundle (out/main/index.js, after `npx electron-vite build`) and electron-builder.yml.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { API_METHODS } from '../src/shared/api'
import { findAppRoot } from '../src/main/context'
import { isTrustedSender } from '../src/main/transport/ipc'
import { API_ARGS, checkArgs } from '../src/main/transport/validate'
import { isAppUrl } from '../src/main/window-security'

const ROOT = findAppRoot()
const renderer = join(ROOT, 'out', 'renderer')

describe('Electron hardening', () => {
  it('accepts IPC only from a frame showing the app', () => {
    const page = pathToFileURL(join(renderer, 'index.html')).href
    expect(isTrustedSender({ senderFrame: { url: page } } as never, { appRoot: renderer })).toBe(true)
    for (const url of ['https://evil.example/', pathToFileURL('/etc/passwd').href, 'data:text/html,x', '', 'about:blank']) {
      expect(isTrustedSender({ senderFrame: { url } } as never, { appRoot: renderer }), url).toBe(false)
    }
    expect(isTrustedSender({ senderFrame: null } as never, { appRoot: renderer })).toBe(false)
  })

  it('allows file: URLs only inside the app folders', () => {
    expect(isAppUrl(pathToFileURL(join(renderer, 'assets', 'a.js')).href, undefined, [renderer])).toBe(true)
    expect(isAppUrl(pathToFileURL(join(ROOT, 'fixtures', 'x.png')).href, undefined, [renderer])).toBe(false)
    expect(isAppUrl('file:///home/someone/.ssh/id_rsa', undefined, [renderer])).toBe(false)
  })

  it('checks every method\'s argument shapes in main', () => {
    expect(Object.keys(API_ARGS).sort()).toEqual([...API_METHODS].sort())
    expect(checkArgs('getSession', ['claude-code', 'x'])).toBeUndefined()
    expect(checkArgs('getSession', ['cline', 42])).toMatchObject({ code: 'BAD_ARGUMENT' })
    expect(checkArgs('getSession', [{}, 'x'])).toMatchObject({ code: 'UNKNOWN_AGENT' })
    expect(checkArgs('openHome', [])).toMatchObject({ code: 'BAD_ARGUMENT' })
    expect(checkArgs('getAppInfo', [1])).toMatchObject({ code: 'BAD_ARGUMENT' })
    expect(checkArgs('restoreCheckpoint', ['a', 'b', 'c', []])).toMatchObject({ code: 'BAD_ARGUMENT' })
    expect(checkArgs('getChanges', [])).toBeUndefined()
  })

  it('sets the fuses when packaging (electron-builder.yml -> build/fuses.cjs)', () => {
    const yml = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')
    expect(yml).toMatch(/^afterPack: build\/fuses\.cjs$/m)
    expect(yml).toMatch(/^asar: true$/m)
    const { FUSES } = createRequire(import.meta.url)(join(ROOT, 'build', 'fuses.cjs')) as { FUSES: Record<string, boolean> }
    expect(FUSES).toMatchObject({ RunAsNode: false, EnableNodeOptionsEnvironmentVariable: false, EnableNodeCliInspectArguments: false, OnlyLoadAppFromAsar: true, EnableEmbeddedAsarIntegrityValidation: true })
  })

  it.runIf(existsSync(join(ROOT, 'out', 'main', 'index.js')))('the built main bundle validates senders and arguments and limits file: URLs', () => {
    // The main bundle and its chunks.
    const dir = join(ROOT, 'out', 'main')
    const main = readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n')
    expect(main).toContain('This request did not come from the Sepia window.')
    expect(main).toContain('takes at most')
    expect(main).toContain('fileURLToPath')
  })
})
