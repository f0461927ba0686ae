/**
 * Rebuild the SQLite stores of `fixtures/seed000/home` (sessions.db, session-search.db, teams.db)
 * from the seed's documented shapes and the fixture's own transcripts:
 *
 *   npx tsx scripts/gen-seed000-dbs.ts
 *
 * See `tests/builders/cline/seed000-fixture.ts` and `fixtures/seed000/README.md`.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeSeed000Databases } from '../tests/builders/cline/seed000-fixture'

const home = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'seed000', 'home')
writeSeed000Databases(home)
process.stdout.write(`wrote the seed000 databases under ${home}/.cline/data\n`)
