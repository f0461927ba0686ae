/**
 * "Open in terminal" argv per OS (src/main/platform/terminal.ts). Hostile folder names are run for
 * real through `sh` (this machine's), decoded from PowerShell's -EncodedCommand, and read back
 * from the AppleScript string literal, so the quoting is checked by the shells' own rules.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { quoteArg } from '../../shared/convert'
import { appleScriptString, LINUX_TERMINALS, pathFinder, terminalLaunch } from './terminal'

const HOSTILE = [`it's "quoted"`, 'semi;colon & amp | pipe', '$(touch PWNED) `touch PWNED2` $HOME', 'back\\slash\\"end', 'wt;new-tab calc.exe', 'ünï cödé 文件', '-n leading dash', "''", '%PATH% !x! ^caret']
const none = () => undefined
const only = (...names: string[]) => (n: string) => (names.includes(n) ? `/usr/bin/${n}` : undefined)
const display = { DISPLAY: ':0' }

/** Read an AppleScript string literal back (the escapes `appleScriptString` writes). */
function unAppleScript(literal: string): string {
  expect(literal.startsWith('"') && literal.endsWith('"')).toBe(true)
  const body = literal.slice(1, -1)
  // No unescaped quote inside.
  expect(/(^|[^\\])(\\\\)*"/.test(body)).toBe(false)
  return body.replace(/\\(["\\])/g, '$1')
}

describe('terminalLaunch', () => {
  it('Linux: the first terminal on PATH, sh -c with cd, the command, then the user\'s shell', () => {
    const l = terminalLaunch('linux', { command: 'claude --resume abc', cwd: '/home/ana/p' }, only('gnome-terminal', 'xterm'), display)
    expect(l).toEqual({ terminal: 'gnome-terminal', file: '/usr/bin/gnome-terminal', args: ['--', 'sh', '-c', 'cd /home/ana/p && claude --resume abc; exec "${SHELL:-/bin/sh}"'], script: 'cd /home/ana/p && claude --resume abc' })
    expect(terminalLaunch('linux', { command: 'codex resume x' }, only('x-terminal-emulator', 'gnome-terminal'), display).args).toEqual(['-e', 'sh', '-c', 'codex resume x; exec "${SHELL:-/bin/sh}"'])
    expect(terminalLaunch('linux', { command: 'a' }, only('konsole'), { WAYLAND_DISPLAY: 'wayland-0' }).args.slice(0, 3)).toEqual(['-e', 'sh', '-c'])
    expect(terminalLaunch('linux', { command: 'a' }, only('xterm'), display).terminal).toBe('xterm')
    expect(LINUX_TERMINALS.map((t) => t.name)).toEqual(['x-terminal-emulator', 'gnome-terminal', 'konsole', 'xterm'])
  })

  it('Linux: refuses without a terminal or a display, saying to copy the command', () => {
    expect(() => terminalLaunch('linux', { command: 'a' }, none, display)).toThrow(/No terminal was found.*Copy the command/)
    expect(() => terminalLaunch('linux', { command: 'a' }, only('xterm'), {})).toThrow(/no display/)
    try {
      terminalLaunch('linux', { command: 'a' }, none, display)
    } catch (e) {
      expect((e as { code: string }).code).toBe('UNAVAILABLE')
    }
  })

  it('macOS: Terminal.app through osascript, the script one AppleScript string', () => {
    const l = terminalLaunch('darwin', { command: 'gemini --resume 1', cwd: '/Users/ana/My "App"' }, none)
    expect(l.terminal).toBe('Terminal')
    expect(l.file).toBe('/usr/bin/osascript')
    expect(l.args).toEqual(['-e', 'tell application "Terminal"', '-e', 'activate', '-e', `do script "cd '/Users/ana/My \\"App\\"' && gemini --resume 1"`, '-e', 'end tell'])
  })

  it('Windows: Windows Terminal when present, else PowerShell; the script only as -EncodedCommand', () => {
    const wt = terminalLaunch('win32', { command: "claude --resume 'a b'", cwd: 'C:\\Users\\ana\\p' }, (n) => (n === 'wt.exe' ? 'C:\\Users\\ana\\AppData\\Local\\Microsoft\\WindowsApps\\wt.exe' : undefined))
    expect(wt.terminal).toBe('Windows Terminal')
    expect(wt.args.slice(0, 7)).toEqual(['new-tab', '--title', 'Sepia', 'powershell.exe', '-NoLogo', '-NoExit', '-EncodedCommand'])
    expect(Buffer.from(wt.args[7]!, 'base64').toString('utf16le')).toBe("Set-Location -LiteralPath 'C:\\Users\\ana\\p'; claude --resume 'a b'")
    const ps = terminalLaunch('win32', { command: 'codex resume x' }, none)
    expect(ps).toMatchObject({ terminal: 'PowerShell', file: 'powershell.exe', args: ['-NoLogo', '-NoExit', '-EncodedCommand', Buffer.from('codex resume x', 'utf16le').toString('base64')] })
  })

  it('refuses a folder name with a control character on every OS', () => {
    for (const os of ['linux', 'darwin', 'win32'] as const) {
      expect(() => terminalLaunch(os, { command: 'a', cwd: '/x/line\nbreak' }, only('xterm', 'wt.exe'), display), os).toThrow(/control character/)
      expect(() => terminalLaunch(os, { command: 'a', cwd: '/x/nul\0' }, only('xterm'), display), os).toThrow(/control character/)
    }
  })

  describe('hostile folder names', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'sepia-term-')))

    it.runIf(process.platform !== 'win32')('Linux: sh runs in exactly that folder and runs nothing else', () => {
      for (const [i, name] of HOSTILE.entries()) {
        const dir = join(root, `l${i}`, name)
        mkdirSync(dir, { recursive: true })
        const l = terminalLaunch('linux', { command: 'pwd', cwd: dir }, only('xterm'), display)
        expect(l.args.slice(0, 3)).toEqual(['-e', 'sh', '-c'])
        // The final `exec "$SHELL"` runs `true` here instead of an interactive shell.
        const out = execFileSync('sh', ['-c', l.args[3]!], { cwd: root, env: { PATH: process.env.PATH, SHELL: 'true', HOME: root }, encoding: 'utf8' })
        expect(out.trim(), name).toBe(dir)
      }
      expect(existsSync(join(root, 'PWNED'))).toBe(false)
      expect(existsSync(join(root, 'PWNED2'))).toBe(false)
    })

    it.runIf(process.platform !== 'win32')('macOS: the AppleScript string reads back to a script sh runs in that folder', () => {
      for (const [i, name] of HOSTILE.entries()) {
        const dir = join(root, `m${i}`, name)
        mkdirSync(dir, { recursive: true })
        const l = terminalLaunch('darwin', { command: 'pwd', cwd: dir }, none)
        const doScript = l.args[5]!
        expect(doScript.startsWith('do script ')).toBe(true)
        const script = unAppleScript(doScript.slice('do script '.length))
        expect(script).toBe(l.script)
        const out = execFileSync('sh', ['-c', script], { cwd: root, env: { PATH: process.env.PATH, HOME: root }, encoding: 'utf8' })
        expect(out.trim(), name).toBe(dir)
      }
      expect(existsSync(join(root, 'PWNED'))).toBe(false)
    })

    it('Windows: every argument is plain (base64), and the decoded script quotes the folder for PowerShell', () => {
      for (const name of HOSTILE) {
        const cwd = `C:\\Users\\ana\\${name}`
        const l = terminalLaunch('win32', { command: 'claude --resume abc', cwd }, only('wt.exe'))
        // Nothing wt.exe (`;`) or Windows' argument quoting (space, quote) would split or reinterpret.
        for (const a of l.args) expect(a, name).toMatch(/^[A-Za-z0-9+/=.-]+$/)
        const script = Buffer.from(l.args.at(-1)!, 'base64').toString('utf16le')
        expect(script).toBe(`Set-Location -LiteralPath ${quoteArg(cwd, 'win32')}; claude --resume abc`)
        // PowerShell single quotes: only `'` is special inside, doubled.
        const literal = /^Set-Location -LiteralPath '((?:[^']|'')*)'; /.exec(script)
        expect(literal?.[1]?.replace(/''/g, "'"), name).toBe(cwd)
      }
    })
  })
})

describe('appleScriptString', () => {
  it('escapes backslashes and quotes only', () => {
    expect(appleScriptString('a\\b"c\'d')).toBe('"a\\\\b\\"c\'d"')
  })
})

describe('pathFinder', () => {
  it('finds executables on PATH in order, skipping folders and non-executables', () => {
    const root = mkdtempSync(join(tmpdir(), 'sepia-path-'))
    const [a, b] = [join(root, 'a'), join(root, 'b')]
    mkdirSync(join(a, 'xterm'), { recursive: true })
    mkdirSync(b)
    writeFileSync(join(a, 'konsole'), '')
    writeFileSync(join(b, 'xterm'), '#!/bin/sh\n')
    chmodSync(join(b, 'xterm'), 0o755)
    writeFileSync(join(b, 'konsole'), '#!/bin/sh\n')
    chmodSync(join(b, 'konsole'), 0o755)
    const find = pathFinder({ PATH: [a, b].join(':') }, 'linux', ':')
    expect(find('xterm')).toBe(join(b, 'xterm'))
    if (process.platform !== 'win32') expect(find('konsole')).toBe(join(b, 'konsole'))
    expect(find('gnome-terminal')).toBeUndefined()
    expect(pathFinder({}, 'linux')('xterm')).toBeUndefined()
  })
})
