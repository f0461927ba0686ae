/**
 * Review bundles (issue "Review bundles"): "Collect for review" copies the agent stores of a home
 * into a folder or zip with a manifest (`collect.ts`, `plan.ts`, `rules.ts`); another Sepia opens
 * the folder, the zip or a single store file as a home (`open.ts`, `single.ts`); recently opened
 * homes are remembered (`recent.ts`); long calls report progress and can be cancelled (`tasks.ts`).
 */
export { collectForReview, type CollectOptions } from './collect'
export { BUNDLE_FORMAT, MANIFEST_NAME, readManifest, verifyBundle, type BundleManifest, type ManifestFile } from './manifest'
export { prepareHome, type PreparedHome } from './open'
export { planHome, type HomePlan, type PlannedFile } from './plan'
export { getRecentHomes, rememberHome } from './recent'
export { TaskRegistry, type TaskHandle } from './tasks'
