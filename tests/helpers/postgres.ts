/**
 * A throwaway PostgreSQL cluster for the team-catalog tests: `initdb` in a temporary folder,
 * `postgres` listening on a Unix socket in that folder only (no TCP port), trust authentication
 * for the cluster's one role, stopped and removed by `stop()`. Never a mock: the tests talk to a
 * real server.
 *
 * Root: `initdb` refuses to run as root ("cannot be run as root"), so when the tests run as root
 * (CI does) the cluster is created and run as `nobody` through `runuser -u nobody` (util-linux;
 * `setpriv` is the fallback) and its folder is given to that user.
 *
 * Binaries: `$PG_BIN` when set, else `initdb`/`pg_ctl` on the PATH, else the newest
 * `/usr/lib/postgresql/<version>/bin` (Debian's `postgresql` package installs them there, off the
 * PATH). {@link postgresSkipReason} says why the tests skip when none is found.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A running cluster. */
export interface TestPostgres {
  /** Connection string (socket folder as the `host` parameter): `postgres://sepia@localhost/sepia?host=<dir>`. */
  url: string
  /** The socket folder (also the cluster's parent folder). */
  dir: string
  /** Stop the server (immediate mode) and remove its folder. */
  stop(): void
}

function binDir(): string | undefined {
  const env = process.env.PG_BIN
  if (env && existsSync(join(env, 'initdb'))) return env
  for (const d of (process.env.PATH ?? '').split(':')) if (d && existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl'))) return d
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(root, versions[0], 'bin') : undefined
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0

/** How to run a binary as the cluster's owner: itself, or `runuser`/`setpriv` as nobody when root. */
function asOwner(): { prefix: string[]; uid?: number; gid?: number } {
  if (!isRoot()) return { prefix: [] }
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('nobody:'))
  const [, , uid, gid] = passwd?.split(':') ?? []
  if (existsSync('/usr/sbin/runuser') || existsSync('/sbin/runuser')) return { prefix: ['runuser', '-u', 'nobody', '--'], uid: Number(uid), gid: Number(gid) }
  return { prefix: ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'], uid: Number(uid), gid: Number(gid) }
}

/** Why PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresSkipReason(): string | undefined {
  const bin = binDir()
  if (!bin) return 'no PostgreSQL binaries (initdb, pg_ctl) on the PATH or in /usr/lib/postgresql/*/bin (apt-get install postgresql, or set PG_BIN)'
  if (isRoot() && !asOwner().uid) return 'running as root without a "nobody" user for initdb'
  return undefined
}

/**
 * Create and start a cluster (about 1.5 s). Throws with initdb's or pg_ctl's output when either
 * fails. The database `sepia` exists and belongs to role `sepia` (superuser of the cluster, so the
 * team schema can `CREATE EXTENSION pg_trgm`).
 */
export function startPostgres(): TestPostgres {
  const bin = binDir()
  if (!bin) throw new Error(postgresSkipReason())
  const dir = mkdtempSync(join(tmpdir(), 'sepia-pg-'))
  const owner = asOwner()
  if (owner.uid !== undefined) chownSync(dir, owner.uid, owner.gid ?? owner.uid)
  const data = join(dir, 'data')
  const run = (exe: string, args: string[]): void => {
    const [cmd, ...rest] = [...owner.prefix, join(bin, exe), ...args]
    const r = spawnSync(cmd!, rest, { encoding: 'utf8', timeout: 60_000 })
    if (r.status !== 0) throw new Error(`${exe} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`)
  }
  run('initdb', ['-D', data, '-U', 'sepia', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'])
  // Socket only, in `dir`; fsync off (a test cluster); a short checkpoint timeout is not needed.
  run('pg_ctl', ['-D', data, '-w', '-t', '30', '-l', join(dir, 'log'), '-o', `-k ${dir} -c listen_addresses='' -F -c max_connections=40`, 'start'])
  const url = `postgres://sepia@localhost/sepia?host=${encodeURIComponent(dir)}`
  const psql = join(bin, 'psql')
  const createdb = existsSync(join(bin, 'createdb')) ? join(bin, 'createdb') : 'createdb'
  try {
    execFileSync(createdb, ['-h', dir, '-U', 'sepia', 'sepia'], { stdio: 'pipe' })
  } catch (e) {
    // Without createdb (a minimal install), psql does it.
    execFileSync(existsSync(psql) ? psql : 'psql', ['-h', dir, '-U', 'sepia', '-d', 'postgres', '-c', 'CREATE DATABASE sepia'], { stdio: 'pipe' })
    void e
  }
  let stopped = false
  return {
    url,
    dir,
    stop() {
      if (stopped) return
      stopped = true
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
