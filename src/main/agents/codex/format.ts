/**
 * Format facts of the codex store that discovery and the census need without loading the reader
 * (`./read.ts`, which re-exports them): the reader and writer load on first use (./index.ts).
 */

/** Store generation of a rollout file. */
export const FORMAT = 'codex-rollout'
