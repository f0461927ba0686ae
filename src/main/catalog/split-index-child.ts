/**
 * Child process of `split-index.test.ts`: opens the catalog at argv[2] and fills the full-text
 * index in steps of argv[3] rows. Run with `SEPIA_TEST_DIE_BETWEEN_COMMITS=<n>` it ends (exit
 * code 70) between the `n`-th step's two commits (`store.ts` `crashHook`).
 */
import { openCatalog } from './schema'
import { CatalogStore } from './store'

const store = new CatalogStore(openCatalog(process.argv[2]!))
const batch = Number(process.argv[3] ?? 100)
while (store.ftsStep(batch) > 0) {
  /* next step */
}
store.db.close()
