/**
 * Write the committed generated homes `fixtures/generated/<name>/home` (+ README.md) from the test
 * generators (tests/builders/generated-homes.ts), replacing what is there:
 *
 *   npx tsx scripts/make-fixture-homes.ts
 *
 * Deterministic: ids, texts and times are fixed, JSONL mtimes are set by the generators, and every
 * SQLite file is checkpointed and closed (no -wal/-shm left), so a rerun writes the same bytes.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { GENERATED_HOMES, generatedHomePath, generatedReadme } from '../tests/builders/generated-homes'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function files(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else out.push(p)
    }
  }
  walk(dir)
  return out
}

let total = 0
for (const h of GENERATED_HOMES) {
  const home = generatedHomePath(root, h.name)
  const folder = dirname(home)
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(home, { recursive: true })
  h.write(home)
  writeFileSync(join(folder, 'README.md'), generatedReadme(h))
  const list = files(folder)
  const strays = list.filter((p) => /-(wal|shm|journal)$/.test(p))
  if (strays.length) throw new Error(`SQLite side files left behind: ${strays.join(', ')}`)
  const bytes = list.reduce((n, p) => n + statSync(p).size, 0)
  total += bytes
  const digest = createHash('sha256')
  for (const p of list) digest.update(relative(folder, p)).update('\0').update(readFileSync(p))
  process.stdout.write(`${h.name}: ${list.length} files, ${(bytes / 1024).toFixed(0)} KB, sha256 ${digest.digest('hex').slice(0, 16)}\n`)
}
process.stdout.write(`total ${(total / 1024).toFixed(0)} KB under ${join(root, 'fixtures', 'generated')}\n`)
if (!existsSync(join(root, 'fixtures', 'generated'))) process.exitCode = 1
