/**
 * The resume harness's process side: pinned agent CLIs installed from npm into a cache folder
 * outside the repository, sandbox homes, a clean environment, running a command with a timeout,
 * a private tmux server for agents that resume only in their terminal UI, and stopping exactly the
 * processes a run started (by pid).
 *
 * Facts (shared kit `realstores/lib/common.sh`, `realstores/README.md`): each agent runs through a
 * clean environment with only PATH (node's folder and the system folders), LANG, HOME, USER,
 * LOGNAME, SHELL, XDG_* and TMPDIR inside the sandbox, and its own variables; agents started there
 * are found afterwards by `HOME=<sandbox>` in their environment plus the cache folder or the
 * sandbox in their command line.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, homedir, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** An agent CLI pinned to the version the harness was checked with. */
export interface AgentPackage {
  /** Folder name in the cache. */
  name: string
  pkg: string
  version: string
  /** Binary under `node_modules/.bin/`. */
  bin: string
}

/** Where agent CLIs are installed: `SEPIA_RESUME_CACHE`, else `$XDG_CACHE_HOME/sepia-resume`, else `~/.cache/sepia-resume`. */
export function cacheRoot(): string {
  return process.env.SEPIA_RESUME_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'sepia-resume')
}

/** Install `p` with `npm install --prefix <cache>/<name>-<version>` on first use; resolves the binary's path. */
export async function ensureInstalled(p: AgentPackage, log: (s: string) => void): Promise<string> {
  const dir = join(cacheRoot(), `${p.name}-${p.version}`)
  const bin = join(dir, 'node_modules', '.bin', p.bin)
  if (existsSync(bin)) return bin
  mkdirSync(dir, { recursive: true })
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `sepia-resume-${p.name}`, private: true }) + '\n')
  log(`installing ${p.pkg}@${p.version} into ${dir} (first use)`)
  const r = await run('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', `${p.pkg}@${p.version}`], { cwd: dir, env: process.env, timeoutMs: 15 * 60_000 })
  writeFileSync(join(dir, 'npm-install.log'), r.output)
  if (r.code !== 0 || !existsSync(bin)) throw new Error(`npm install ${p.pkg}@${p.version} failed (log: ${join(dir, 'npm-install.log')})`)
  return bin
}

/** A sandbox: a fresh HOME and a project folder (a git repository with two commits) inside it. */
export interface Sandbox {
  home: string
  /** The project folder the converted session is resumed in. */
  cwd: string
}

/** Marker file every sandbox holds (the kit's convention). */
export const SANDBOX_MARKER = '.agent-sandbox'

/** Make a sandbox home with `src/<project>` (git, two commits, like the kit's scratch projects). */
export function makeSandbox(project: string): Sandbox {
  const home = mkdtempSync(join(tmpdir(), 'sepia-resume-'))
  writeFileSync(join(home, SANDBOX_MARKER), '')
  for (const d of ['.config', '.local/share', '.local/state', '.cache', 'tmp']) mkdirSync(join(home, d), { recursive: true })
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Ana\n\temail = ana@example.com\n[init]\n\tdefaultBranch = main\n')
  const cwd = join(home, 'src', project.replace(/[^A-Za-z0-9._-]/g, '-') || 'project')
  mkdirSync(join(cwd, 'src'), { recursive: true })
  writeFileSync(join(cwd, 'README.md'), `# ${project}\n\nA small example project.\n`)
  writeFileSync(join(cwd, 'src', 'main.js'), `console.log('${project}: ok')\n`)
  const git = (...args: string[]) =>
    spawnSync('git', ['-C', cwd, '-c', 'user.name=Ana', '-c', 'user.email=ana@example.com', '-c', 'init.defaultBranch=main', ...args], {
      env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-05T09:00:00Z', GIT_COMMITTER_DATE: '2026-01-05T09:00:00Z' },
    })
  git('init', '-q')
  git('add', 'README.md')
  git('commit', '-q', '-m', 'Initial commit')
  git('add', 'src/main.js')
  git('commit', '-q', '-m', 'Add the entry point')
  return { home, cwd }
}

/** The clean environment an agent runs with (nothing of the caller's environment reaches it). */
export function baseEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const nodeDir = dirname(process.execPath)
  const path = [...new Set([nodeDir, '/usr/local/bin', '/usr/bin', '/bin'])].join(':')
  return {
    PATH: path,
    LANG: 'C.UTF-8',
    HOME: home,
    USER: 'ana',
    LOGNAME: 'ana',
    SHELL: '/bin/bash',
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    TMPDIR: join(home, 'tmp'),
    USERPROFILE: home,
    TERM: 'dumb',
    ...extra,
  }
}

/**
 * `ms` scaled by how loaded the machine is: the 1-minute load average per core, at least 1 and at
 * most 4 (a resume that takes 60 s on an idle machine took over 240 s at load 30 on 2 cores).
 */
export function loadScaled(ms: number): number {
  return Math.round(ms * Math.min(4, Math.max(1, loadavg()[0]! / Math.max(1, cpus().length))))
}

/** Run a command to completion (stdout and stderr together), killing it after `timeoutMs`. */
export function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv | Record<string, string>; timeoutMs: number }): Promise<{ code: number | null; output: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    let timedOut = false
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')))
    child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')))
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), 3000).unref()
    }, opts.timeoutMs)
    child.on('error', (e) => {
      clearTimeout(timer)
      resolve({ code: null, output: output + String(e), timedOut })
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output, timedOut })
    })
  })
}

/** Pids of agent processes this sandbox started: `HOME=<home>` in their environment, the cache or the home in their command line. */
export function sandboxPids(home: string): number[] {
  const out: number[] = []
  let entries: string[] = []
  try {
    entries = readdirSync('/proc')
  } catch {
    return out
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue
    try {
      const cmd = readFileSync(`/proc/${e}/cmdline`, 'utf8').replace(/\0/g, ' ')
      if (!cmd.includes(cacheRoot()) && !cmd.includes(home)) continue
      const env = readFileSync(`/proc/${e}/environ`, 'utf8').split('\0')
      if (env.includes(`HOME=${home}`)) out.push(Number(e))
    } catch {
      // gone, or not ours to read
    }
  }
  return out
}

/** Stop the processes of {@link sandboxPids} (TERM, then KILL), by pid. */
export async function stopSandboxProcesses(home: string): Promise<void> {
  for (const pid of sandboxPids(home)) {
    try {
      process.kill(pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
  await sleep(1000)
  for (const pid of sandboxPids(home)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
}

/** Wait `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Quote for a shell command line. */
export function q(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/** A detached 160x50 terminal in a private tmux server (`tmux -L <name>`), for terminal UIs. */
export class Tmux {
  readonly server = `sepia-resume-${process.pid}-${Math.random().toString(36).slice(2, 8)}`

  /** Start `argv` with `env` in `cwd`. The pane stays open (`; sleep 600`) so the screen can be read after exit. */
  start(argv: string[], env: Record<string, string>, cwd: string): void {
    const line = `cd ${q(cwd)} && env -i ${Object.entries(env).map(([k, v]) => q(`${k}=${v}`)).join(' ')} ${argv.map(q).join(' ')}; sleep 600`
    const r = spawnSync('tmux', ['-L', this.server, '-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', '160', '-y', '50', line])
    if (r.status !== 0) throw new Error(`tmux failed: ${r.stderr?.toString() ?? ''}`)
  }

  screen(): string {
    return spawnSync('tmux', ['-L', this.server, 'capture-pane', '-p', '-t', 'main']).stdout?.toString() ?? ''
  }

  async waitScreen(re: RegExp, timeoutMs: number): Promise<boolean> {
    for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(250)) if (re.test(this.screen())) return true
    return false
  }

  async type(text: string): Promise<void> {
    spawnSync('tmux', ['-L', this.server, 'send-keys', '-t', 'main', '-l', text])
    await sleep(500)
    spawnSync('tmux', ['-L', this.server, 'send-keys', '-t', 'main', 'Enter'])
  }

  keys(...keys: string[]): void {
    spawnSync('tmux', ['-L', this.server, 'send-keys', '-t', 'main', ...keys])
  }

  /** Stop this private server (only it). */
  stop(): void {
    spawnSync('tmux', ['-L', this.server, 'kill-server'])
  }
}

/** True when `tmux` can be run. */
export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V']).status === 0
}

/** Make sure tmux exists: install it with apt-get when missing (as root, Debian/Ubuntu). */
export async function ensureTmux(log: (s: string) => void): Promise<void> {
  if (hasTmux()) return
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version']).status !== 0) throw new Error('tmux is needed (Cline resumes only in its terminal UI); install it and run again')
  log('installing tmux with apt-get')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  await run('apt-get', ['update'], { cwd: '/', env, timeoutMs: 10 * 60_000 })
  const r = await run('apt-get', ['install', '-y', 'tmux'], { cwd: '/', env, timeoutMs: 10 * 60_000 })
  if (!hasTmux()) throw new Error(`apt-get install tmux failed:\n${r.output.slice(-2000)}`)
}
