/**
 * The masking gate at the API boundary: every method's result is masked ({@link maskResult})
 * before it leaves main, except the few that return no transcript text or must not be masked
 * (`revealSecrets`). A method added to `API_METHODS` later is masked without anyone remembering to:
 * the gate lists exceptions, not inclusions (issue 9 item 7, "safe by construction").
 */
import { API_METHODS, type SepiaApi } from '../../shared/api'
import { maskResult } from './mask'

/** Methods whose results pass unmasked: app facts, a folder path, a grant token (random, not transcript text), and the explicit reveal. */
export const UNMASKED_METHODS: readonly string[] = ['getAppInfo', 'pickFolder', 'approveFolder', 'revealSecrets']

/** Wrap every API method of `api` (in place) so its result is masked; returns `api`. */
export function maskApiResults<T extends SepiaApi>(api: T): T {
  const target = api as unknown as Record<string, unknown>
  for (const method of API_METHODS) {
    const fn = target[method]
    if (UNMASKED_METHODS.includes(method) || typeof fn !== 'function') continue
    target[method] = async (...args: unknown[]) => maskResult(await (fn as (...a: unknown[]) => Promise<unknown>).apply(api, args))
  }
  return api
}
