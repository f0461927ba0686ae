/**
 * Packaging checks CI can run without downloading Electron (issue "Packaging"):
 * - `electron-builder.yml` is valid against electron-builder's own JSON schema
 *   (`node_modules/app-builder-lib/scheme.json`, checked with the ajv electron-builder itself
 *   uses; a small check of the top-level keys when those are not installed), and every file it
 *   names exists (icons, build resources, extraResources `from` paths, with files matching their
 *   filters), and `package.json` `main` lies in the packaged files;
 * - `npm start` (`node scripts/start.mjs`) on a machine without a display falls back to browser
 *   mode with its one-line notice and prints the URL.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileGlob, matchGlob } from '../src/main/bundle/glob'
import { findAppRoot } from '../src/main/context'

const ROOT = findAppRoot()
const require = createRequire(join(ROOT, 'package.json'))

type Config = Record<string, any>

function optional<T>(id: string): T | undefined {
  try {
    return require(id) as T
  } catch {
    return undefined
  }
}

function loadConfig(): Config {
  const yaml = optional<{ load(text: string): unknown }>('js-yaml')
  if (!yaml) throw new Error('js-yaml (installed with electron-builder) is needed to read electron-builder.yml')
  return yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Config
}

function filesUnder(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else out.push(relative(dir, p).split('\\').join('/'))
    }
  }
  walk(dir)
  return out
}

describe('electron-builder configuration', () => {
  it('is valid against electron-builder\'s own schema', () => {
    const config = loadConfig()
    const schemaPath = join(ROOT, 'node_modules/app-builder-lib/scheme.json')
    expect(existsSync(schemaPath), 'electron-builder is a dev dependency: its schema must be installed').toBe(true)
    const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as { properties: Record<string, unknown> }
    // The small check: every top-level key is one the schema knows (the root forbids others).
    const unknown = Object.keys(config).filter((k) => !(k in schema.properties))
    expect(unknown).toEqual([])
    const Ajv = optional<new (o: object) => { compile(s: object): ((d: unknown) => boolean) & { errors?: { dataPath: string; message: string }[] } }>('ajv')
    if (!Ajv) return
    const validate = new Ajv({ allErrors: true, schemaId: 'auto' }).compile(schema)
    const ok = validate(config)
    expect(ok, JSON.stringify(validate.errors?.map((e) => `${e.dataPath} ${e.message}`))).toBe(true)
    // The check itself rejects a broken configuration.
    expect(validate({ ...config, linux: { ...config.linux, icon: 5 }, noSuchOption: true })).toBe(false)
  })

  it('builds AppImage, deb, rpm, NSIS and dmg with the icon, the sepia: scheme and the file associations (issue 17)', () => {
    const config = loadConfig()
    const targets = (p: string): string[] => (config[p].target as (string | { target: string })[]).map((t) => (typeof t === 'string' ? t : t.target))
    expect(targets('linux')).toEqual(expect.arrayContaining(['AppImage', 'deb', 'rpm']))
    expect(targets('win')).toContain('nsis')
    expect(targets('mac')).toContain('dmg')
    for (const p of ['linux', 'win', 'mac']) expect(config[p].icon, p).toBe('build/icon.png')
    expect(config.protocols).toEqual([{ name: expect.any(String), schemes: ['sepia'] }])
    const exts = (p: string): string[] => (config[p].fileAssociations as { ext: string }[]).map((a) => a.ext)
    expect(exts('linux')).toEqual(['jsonl', 'zip'])
    expect(exts('mac')).toEqual(['jsonl', 'zip'])
    // Windows: .jsonl only (NSIS would make Sepia the default program for every .zip).
    expect(exts('win')).toEqual(['jsonl'])
    for (const a of config.mac.fileAssociations as { rank: string }[]) expect(a.rank).toBe('Alternate')
    for (const a of config.linux.fileAssociations as { mimeType?: string }[]) expect(a.mimeType).toMatch(/^application\//)
    // electron-updater's feed exists, but nothing is fetched unless the user turns updates on.
    expect(config.publish).toEqual([{ provider: 'generic', url: expect.stringMatching(/^https:\/\/[^/]+\.invalid\//) }])
  })

  it('names only files that exist', () => {
    const config = loadConfig()
    const buildResources = config.directories?.buildResources
    if (buildResources) expect(statSync(join(ROOT, buildResources)).isDirectory()).toBe(true)
    for (const platform of ['linux', 'win', 'mac']) {
      const icon = config[platform]?.icon
      if (icon) expect(existsSync(join(ROOT, icon)), `${platform}.icon ${icon}`).toBe(true)
    }
    expect((config.extraResources as unknown[]).length).toBeGreaterThan(0)
    for (const r of config.extraResources as { from: string; to: string; filter?: string[] }[]) {
      const from = join(ROOT, r.from)
      expect(existsSync(from), `extraResources from ${r.from}`).toBe(true)
      if (r.filter && statSync(from).isDirectory()) {
        const files = filesUnder(from)
        for (const f of r.filter.filter((x) => !x.startsWith('!'))) {
          const g = compileGlob(f)
          expect(files.some((p) => matchGlob(g, p.split('/'))), `extraResources ${r.from} filter ${f} matches a file`).toBe(true)
        }
      }
    }
    // The app's entry point is among the packaged files.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string }
    const main = pkg.main.replace(/^\.\//, '')
    const included = (config.files as string[]).filter((f) => !f.startsWith('!')).some((f) => matchGlob(compileGlob(f), main.split('/')))
    expect(included, `package.json main ${pkg.main} is in "files"`).toBe(true)
    // Packaged better-sqlite3 is rebuilt for Electron and unpacked from the asar.
    expect(config.npmRebuild).toBe(true)
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**/*')
  })
})

describe('npm start without a display', () => {
  it('falls back to browser mode with a one-line notice and the URL', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-start-home-'))
    const env: Record<string, string> = {}
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !['DISPLAY', 'WAYLAND_DISPLAY'].includes(k)) env[k] = v
    Object.assign(env, { HOME: home, SEPIA_DATA_DIR: join(home, 'sepia-data'), XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local/share') })
    const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs'), '--port', '0'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stderr.on('data', (d) => (err += String(d)))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL after 170 s; stdout: ${out}; stderr: ${err}`)), 170_000)
        child.stdout.on('data', (d) => {
          out += String(d)
          const m = /Open (http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]+)/.exec(out)
          if (m) {
            clearTimeout(timer)
            resolve(m[1]!)
          }
        })
        child.on('exit', (code) => reject(new Error(`npm start exited with ${code}; stdout: ${out}; stderr: ${err}`)))
      })
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{64}$/)
      const notices = out.split('\n').filter((l) => /serving Sepia in your browser instead/.test(l))
      expect(notices).toHaveLength(1)
      expect(notices[0]).toMatch(/^(No display found|Electron's binary is not installed and there is no display to open it on): serving Sepia in your browser instead\.$/)
    } finally {
      try {
        process.kill(-child.pid!, 'SIGTERM')
      } catch {
        // already gone
      }
    }
  }, 180_000)
})
