/**
 * Seed known fake secrets into a copy of a fixture home: every prose-like string (a space in it,
 * 12+ characters) of every JSON, JSONL and SQLite file gets one fake secret appended, cycling
 * through FAKE_SECRETS, so secrets land in prompts, replies, thinking, tool arguments and results,
 * titles and metadata alike. JSON held in a string (tool arguments, Cline `ui_messages` text) is
 * seeded inside and re-encoded, so the stores still parse. Also writes credential files with
 * their own fake values.
 */
import Database from 'better-sqlite3'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { FAKE_SECRETS, secretText } from '../builders/secrets/fake-secrets'

/** Fake values written into credential files: they must never be read, so never appear anywhere. */
export const CREDENTIAL_VALUES = {
  claude: 'sk-ant-oat01-CredFileOnly0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
  codex: 'sk-proj-CredFileOnlyCodex0123456789abcdefghijklmnopqrstuvwxyzABCD',
  gemini: 'ya29.CredFileOnlyGemini0123456789abcdefghijklmnopqrstuvwxyz',
  opencode: 'sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdefcredf11e',
} as const

/** The credential files {@link seedSecretsHome} writes, relative to the home. */
export const CREDENTIAL_FILES: { rel: string; agent: string; kind: string; body: unknown }[] = [
  { rel: '.claude/.credentials.json', agent: 'claude-code', kind: 'oauth-tokens', body: { claudeAiOauth: { accessToken: CREDENTIAL_VALUES.claude } } },
  { rel: '.codex/auth.json', agent: 'codex', kind: 'oauth-tokens', body: { OPENAI_API_KEY: CREDENTIAL_VALUES.codex } },
  { rel: '.gemini/oauth_creds.json', agent: 'gemini', kind: 'oauth-tokens', body: { access_token: CREDENTIAL_VALUES.gemini } },
  { rel: '.local/share/opencode/auth.json', agent: 'opencode', kind: 'api-keys', body: { openrouter: { type: 'api', key: CREDENTIAL_VALUES.opencode } } },
]

function seeder(): () => string {
  let i = 0
  return () => secretText(FAKE_SECRETS[i++ % FAKE_SECRETS.length]!)
}

function seedValue(v: unknown, next: () => string, depth = 0): unknown {
  if (depth > 200) return v
  if (typeof v === 'string') {
    const t = v.trim()
    if ((t.startsWith('{') || t.startsWith('[')) && t.length > 2) {
      try {
        return JSON.stringify(seedValue(JSON.parse(t), next, depth + 1))
      } catch {
        // not JSON: prose
      }
    }
    return v.length >= 12 && v.includes(' ') ? `${v} ${next()}` : v
  }
  if (Array.isArray(v)) return v.map((x) => seedValue(x, next, depth + 1))
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, seedValue(x, next, depth + 1)]))
  return v
}

function seedJsonFile(path: string, next: () => string): void {
  const text = readFileSync(path, 'utf8')
  if (path.endsWith('.jsonl')) {
    const lines = text.split('\n').map((line) => {
      try {
        return line.trim() ? JSON.stringify(seedValue(JSON.parse(line), next)) : line
      } catch {
        return line
      }
    })
    writeFileSync(path, lines.join('\n'))
    return
  }
  try {
    writeFileSync(path, JSON.stringify(seedValue(JSON.parse(text), next), null, 2))
  } catch {
    // not JSON: left as it is
  }
}

function seedSqlite(path: string, next: () => string): void {
  let db: Database.Database
  try {
    db = new Database(path)
    db.prepare('SELECT count(*) FROM sqlite_master').get()
  } catch {
    return
  }
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE '%VIRTUAL%'").all() as { name: string }[]
    for (const { name } of tables) {
      const q = `"${name.replace(/"/g, '""')}"`
      let rows: Record<string, unknown>[]
      try {
        rows = db.prepare(`SELECT rowid AS __rowid, * FROM ${q}`).all() as Record<string, unknown>[]
      } catch {
        continue // WITHOUT ROWID
      }
      for (const row of rows) {
        for (const [col, value] of Object.entries(row)) {
          if (col === '__rowid') continue
          const isBlob = Buffer.isBuffer(value)
          const text = isBlob ? (value as Buffer).toString('utf8') : value
          if (typeof text !== 'string') continue
          const seeded = seedValue(text, next) as string
          if (seeded === text) continue
          try {
            db.prepare(`UPDATE ${q} SET "${col.replace(/"/g, '""')}" = ? WHERE rowid = ?`).run(isBlob ? Buffer.from(seeded, 'utf8') : seeded, row.__rowid)
          } catch {
            // constraint (a unique key): leave that cell
          }
        }
      }
    }
    try {
      db.pragma('wal_checkpoint(TRUNCATE)')
    } catch {
      // not WAL
    }
  } finally {
    db.close()
  }
}

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) walk(p, out)
    else if (e.isFile()) out.push(p)
  }
  return out
}

/** A seeded copy of `source` (a temporary folder), with the credential files added. */
export function seedSecretsHome(source: string): string {
  const home = mkdtempSync(join(tmpdir(), 'sepia-secrets-'))
  cpSync(source, home, { recursive: true })
  const next = seeder()
  for (const file of walk(home)) {
    if (/\.jsonl?$/.test(file)) seedJsonFile(file, next)
    else if (/\.(db|sqlite|vscdb)$/.test(file)) seedSqlite(file, next)
  }
  for (const c of CREDENTIAL_FILES) {
    mkdirSync(dirname(join(home, c.rel)), { recursive: true })
    writeFileSync(join(home, c.rel), JSON.stringify(c.body))
  }
  return home
}
