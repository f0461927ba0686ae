/**
 * Masked session summaries, kept in the catalog (issue 15: masking the 10k summaries of a warm
 * `sepia list` was ~15% of it, on every run, for the same rows).
 *
 * The list's summaries leave main masked (`secrets/api.ts`, every API result). The library masks
 * each catalog row's summary once, as the API gate would (`maskValue`), and stores the JSON
 * (`list_cache.json`, by the row's `sid`) with the key it is valid for (`list_cache.key`):
 * `<row gen>:<masker key>`. Every write of a row (a new read, a link change, an archive mark)
 * takes a new `gen` (`CatalogStore.nextGen`), so a stored mask of an older version of the row is
 * never used; the masker key ({@link maskerKey}) is a hash of the secrets module's source, so a
 * catalog masked by other detectors is masked again. The write path (indexing workers) is not
 * involved: rows are masked the first time they are listed.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Set by the build (`electron.vite.config.ts`): the hash of `src/main/secrets/*.ts` (tests aside). */
declare const __SEPIA_SECRETS_HASH__: string | undefined

let key: string | undefined

/**
 * The key of the masking code: the hash the build computed of `src/main/secrets/*.ts` (test files
 * aside), else (tsx sources, tests) the same hash of the files next to this module, else a value
 * of this process only (a stored mask is then never reused). Hex, 16 characters.
 */
export function maskerKey(): string {
  if (key !== undefined) return key
  if (typeof __SEPIA_SECRETS_HASH__ === 'string' && __SEPIA_SECRETS_HASH__ !== '') return (key = __SEPIA_SECRETS_HASH__)
  try {
    key = secretsSourceHash(fileURLToPath(new URL('../secrets/', import.meta.url)))
  } catch {
    key = `process-${process.pid}-${Date.now()}-${Math.random()}`
  }
  return key
}

/** The hash of the secrets module's source files in `dir` (`*.ts`, `*.test.ts` aside), by name. */
export function secretsSourceHash(dir: string): string {
  const h = createHash('sha256')
  const names = readdirSync(dir)
    .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))
    .sort()
  if (names.length === 0) throw new Error(`no source in ${dir}`)
  for (const n of names) h.update(n).update('\0').update(readFileSync(`${dir}/${n}`)).update('\0')
  return h.digest('hex').slice(0, 16)
}

/** The `list_cache.key` of a row written with change counter `gen`. */
export function maskedKeyFor(gen: number): string {
  return `${gen}:${maskerKey()}`
}
