/**
 * Child process of `src/main/catalog/split-index.test.ts`: opens the catalog at argv[2] and fills the full-text
 * index in steps of argv[3] rows. Run with `SEPIA_TEST_DIE_BETWEEN_COMMITS=<n>` it ends (exit
 * code 70) between the `n`-th step's two commits (`src/main/catalog/store.ts` `crashHook`).
 */
import { openCatalog } from '../../src/main/catalog/schema'
import { CatalogStore } from '../../src/main/catalog/store'

const store = new CatalogStore(openCatalog(process.argv[2]!))
const batch = Number(process.argv[3] ?? 100)
while (store.ftsStep(batch) > 0) {
  /* next step */
}
store.db.close()
