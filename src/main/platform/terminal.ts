/**
 * "Open in terminal" (issue 17): the exact program and arguments that open the user's terminal
 * and run a resume command there, per OS, as a pure function ({@link terminalLaunch}); then
 * {@link launchTerminal} starts it, detached. The command itself is never taken from the
 * renderer or a store: the caller passes the resume command a writer built for a session Sepia
 * converted (`src/main/convert/open-terminal.ts`), already quoted for the shell of `os`
 * (`quoteArg` in src/shared/convert.ts), and the folder to run it in.
 *
 * - Windows: Windows Terminal (`wt.exe new-tab`) when it is on PATH, else Windows PowerShell in
 *   its own console window. The script (`Set-Location -LiteralPath '<cwd>'; <command>`) goes as
 *   `-EncodedCommand` (base64 of UTF-16LE, PowerShell's documented form), so neither Windows'
 *   argument quoting nor `wt`'s own `;` command separator ever sees the folder's characters.
 * - macOS: Terminal.app through `osascript` (`tell application "Terminal" to do script ...`),
 *   which runs the script in the user's login shell; the script is an AppleScript string literal
 *   (`\` and `"` escaped).
 * - Linux: the first of `x-terminal-emulator` (Debian's alternative), `gnome-terminal`,
 *   `konsole`, `xterm` found on PATH, running `sh -c '<cd && command>; exec "$SHELL"'` so the
 *   window stays open in the project folder after the agent exits. Needs a display
 *   (`DISPLAY` or `WAYLAND_DISPLAY`).
 *
 * A folder with a control character (newline, NUL...) in its name is refused: no terminal's
 * command line carries it faithfully. Every refusal is a `SepiaError` with code `UNAVAILABLE`
 * whose message says to copy the command instead.
 */
import { lazyRequire } from '../util/lazy-require'
import { accessSync, constants, statSync } from 'node:fs'
import { delimiter as hostDelimiter, join } from 'node:path'
import { SepiaError } from '../../shared/api'
import { cdAndRun } from '../../shared/convert'
import type { HomeOs } from '../../shared/ir'

// Loaded on first use: node:child_process is ~5-10 ms to load and a warm `sepia list` or `sepia search` never spawns (issue 15).
const childProcess = lazyRequire<typeof import('node:child_process')>('node:child_process')

/** What to run: a resume command quoted for the shell of the target OS, and where. */
export interface ResumeSpec {
  /** E.g. `claude --resume 4c1e…` (built by the target's writer, arguments quoted with `quoteArg`). */
  command: string
  /** Absolute folder to run it in (the project folder), when the agent needs one. */
  cwd?: string
}

/** A terminal to start: `file` with `args`, no shell in between. */
export interface TerminalLaunch {
  /** The terminal's name for the user: "Windows Terminal", "PowerShell", "Terminal", "gnome-terminal"... */
  terminal: string
  /** Program to start (a name found on PATH, or an absolute path). */
  file: string
  args: string[]
  /** The script the terminal runs, as the user could type it (shown after "Opened in ..."). */
  script: string
}

/** Finds a program on PATH: its absolute path, or undefined. */
export type FindProgram = (name: string) => string | undefined

/** Linux terminals tried in this order, with the arguments that run `sh -c <script>` in them. */
export const LINUX_TERMINALS: readonly { name: string; args: (script: string) => string[] }[] = [
  // Debian policy 11.8.3: `x-terminal-emulator -e command args...`.
  { name: 'x-terminal-emulator', args: (s) => ['-e', 'sh', '-c', s] },
  // `-e` is deprecated in gnome-terminal 3.x; everything after `--` is the command.
  { name: 'gnome-terminal', args: (s) => ['--', 'sh', '-c', s] },
  // konsole's `-e` takes every following argument as the command.
  { name: 'konsole', args: (s) => ['-e', 'sh', '-c', s] },
  { name: 'xterm', args: (s) => ['-e', 'sh', '-c', s] },
]

const unavailable = (message: string): SepiaError => new SepiaError({ code: 'UNAVAILABLE', message: `${message} Copy the command and paste it into a terminal instead.` })

/** An AppleScript string literal holding `s` (AppleScript Language Guide, "text": `\\` and `\"`). */
export function appleScriptString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

/** PowerShell's `-EncodedCommand` form of a script: base64 of its UTF-16LE bytes. */
export function powershellEncoded(script: string): string {
  return Buffer.from(script, 'utf16le').toString('base64')
}

/**
 * The terminal launch that runs `spec` on a machine of `os`. `find` looks programs up on PATH;
 * `env` is the user's environment (Linux: `DISPLAY`/`WAYLAND_DISPLAY`). Throws `UNAVAILABLE`
 * (no terminal found, no display, a folder name with a control character).
 */
export function terminalLaunch(os: HomeOs, spec: ResumeSpec, find: FindProgram, env: Readonly<Record<string, string | undefined>> = {}): TerminalLaunch {
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f]/
  if (control.test(spec.command)) throw unavailable('The resume command holds a control character.')
  if (spec.cwd !== undefined && control.test(spec.cwd)) throw unavailable('The project folder\'s name holds a line break or another control character, which a terminal cannot be given safely.')
  const script = cdAndRun(spec.cwd, spec.command, os)
  if (os === 'win32') {
    const encoded = ['-NoLogo', '-NoExit', '-EncodedCommand', powershellEncoded(script)]
    const wt = find('wt.exe')
    if (wt) return { terminal: 'Windows Terminal', file: wt, args: ['new-tab', '--title', 'Sepia', 'powershell.exe', ...encoded], script }
    return { terminal: 'PowerShell', file: find('powershell.exe') ?? 'powershell.exe', args: encoded, script }
  }
  if (os === 'darwin') {
    // Terminal.app opens a window running the user's login shell and types the script into it.
    return { terminal: 'Terminal', file: '/usr/bin/osascript', args: ['-e', 'tell application "Terminal"', '-e', 'activate', '-e', `do script ${appleScriptString(script)}`, '-e', 'end tell'], script }
  }
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) throw unavailable('There is no display here to open a terminal window on.')
  for (const t of LINUX_TERMINALS) {
    const file = find(t.name)
    // The shell stays open in the folder after the agent exits.
    if (file) return { terminal: t.name, file, args: t.args(`${script}; exec "\${SHELL:-/bin/sh}"`), script }
  }
  throw unavailable(`No terminal was found on PATH (looked for ${LINUX_TERMINALS.map((t) => t.name).join(', ')}).`)
}

/**
 * A {@link FindProgram} over `env.PATH` (`Path` on Windows, whose entries are `;`-separated): the
 * first entry holding an executable file of that name.
 */
export function pathFinder(env: Readonly<Record<string, string | undefined>>, os: HomeOs, delimiter = os === 'win32' ? ';' : hostDelimiter): FindProgram {
  const dirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter((d) => d !== '')
  return (name) => {
    for (const d of dirs) {
      const p = join(d, name)
      try {
        if (!statSync(p).isFile()) continue
        if (os !== 'win32') accessSync(p, constants.X_OK)
        return p
      } catch {
        // not here
      }
    }
    return undefined
  }
}

/** Starts a program detached from Sepia (the terminal outlives the app); resolves once it started. */
export type Spawner = (launch: TerminalLaunch) => Promise<void>

/** The real {@link Spawner}: `child_process.spawn`, detached, no shell, stdio ignored. Rejects `UNAVAILABLE`. */
export const spawnTerminal: Spawner = (launch) =>
  new Promise((resolve, reject) => {
    let child
    try {
      child = childProcess().spawn(launch.file, launch.args, { detached: true, stdio: 'ignore', shell: false, windowsHide: false })
    } catch (e) {
      reject(unavailable(`Could not start ${launch.terminal}: ${(e as Error).message}.`))
      return
    }
    child.once('error', (e) => reject(unavailable(`Could not start ${launch.terminal}: ${e.message}.`)))
    child.once('spawn', () => {
      child.unref()
      resolve()
    })
  })
