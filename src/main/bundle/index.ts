/**
 * Review bundles (issue "Review bundles"): "Collect for review" copies the agent stores of a home
 * into a folder or zip with a manifest (`collect.ts`, `plan.ts`, `rules.ts`); another Sepia opens
 * the folder, the zip or a single store file as a home (`open.ts`, `single.ts`); recently opened
 * homes are remembered (`recent.ts`); long calls report progress and can be cancelled (`tasks.ts`).
 * Session bundles (issue 19, `move.ts`): one session for another computer, installed by src/main/move/.
 */
export { collectForReview, type CollectOptions } from './collect'
export { gatherMoveBundle, readMoveBundle, writeMoveBundle, MOVABLE_AGENTS, type MoveBundle, type MoveFile } from './move'
export { BUNDLE_FORMAT, MOVE_BUNDLE_FORMAT, MANIFEST_NAME, readManifest, verifyBundle, type BundleManifest, type ManifestFile, type MoveInfo } from './manifest'
export { prepareHome, type PreparedHome } from './open'
export { planHome, type HomePlan, type PlannedFile } from './plan'
export { getRecentHomes, rememberHome } from './recent'
export { TaskRegistry, type TaskHandle } from './tasks'
