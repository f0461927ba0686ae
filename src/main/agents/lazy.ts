/**
 * On-demand loading of an agent's reader and writer modules. Every agent definition
 * (`<agent>/index.ts`) is imported by the registry, so a static import of its `read`/`write`
 * modules would make every command that lists or searches the catalog compile all of them
 * (~640 KB of the built bundle) even when nothing is re-read. A definition's entry points are
 * instead wrappers that `import()` the module on their first call; the constants discovery and
 * the census need live in a small `<agent>/format.ts` each.
 */

/**
 * A function with the signature of the one `load` resolves to, loading it on the first call (the
 * module system caches the import after that). Rejections of `load` (a missing chunk) reach the
 * caller as the wrapped function's rejection.
 */
export function lazy<F extends (...args: never[]) => Promise<unknown>>(load: () => Promise<F>): F {
  return ((...args: Parameters<F>) => load().then((f) => f(...args))) as F
}
