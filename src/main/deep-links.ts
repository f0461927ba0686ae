/**
 * What the OS hands the Electron app to open (issue 17), turned into the window's hash route:
 * - a deep link `sepia://session/<agent>/<id>` (macOS: the `open-url` event; Windows and Linux:
 *   the command line of the first instance, or of a second one through `second-instance`),
 *   parsed by src/shared/deep-link.ts → `#/session/<agent>/<id>`;
 * - a file opened through a file association (`.jsonl` session files, `.zip` review bundles;
 *   macOS: `open-file`; elsewhere: the command line) → `#open=<encoded path>`, which the renderer
 *   opens like a dropped file (`openHome`, whose checks apply).
 * The Electron entry only forwards events here; {@link LaunchRouter} keeps what arrives before
 * the window exists and shows it once the window loads. Pure: no Electron import.
 */
import { isAbsolute } from 'node:path'
import { parseDeepLink, sessionRoute, type SessionLink } from '../shared/deep-link'

/** Something to show: a session (deep link) or a file or folder to open. */
export type LaunchTarget = { kind: 'session'; link: SessionLink } | { kind: 'open'; path: string }

/** Extensions Sepia registers for (electron-builder.yml `fileAssociations`). */
export const ASSOCIATED_EXTENSIONS = ['.jsonl', '.zip'] as const

/** A deep link or an opened file in a command line (the first one found; switches are skipped). */
export function targetFromArgv(argv: readonly string[]): LaunchTarget | undefined {
  for (const a of argv.slice(1)) {
    if (/^sepia:/i.test(a)) {
      const link = parseDeepLink(a)
      if (link) return { kind: 'session', link }
      continue
    }
    if (a.startsWith('-')) continue
    if (isOpenablePath(a)) return { kind: 'open', path: a }
  }
  return undefined
}

/** A deep link from `open-url` (macOS). */
export function targetFromUrl(url: string): LaunchTarget | undefined {
  const link = parseDeepLink(url)
  return link ? { kind: 'session', link } : undefined
}

/** An absolute path with an associated extension and no control character. */
export function isOpenablePath(p: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (typeof p !== 'string' || /[\u0000-\u001f]/.test(p)) return false
  const lower = p.toLowerCase()
  return (isAbsolute(p) || /^[A-Za-z]:[\\/]/.test(p)) && ASSOCIATED_EXTENSIONS.some((e) => lower.endsWith(e))
}

/** The window's hash (without `#`) that shows `target`. */
export function hashOf(target: LaunchTarget): string {
  return target.kind === 'session' ? sessionRoute(target.link) : `open=${encodeURIComponent(target.path)}`
}

/**
 * Holds a target until the window is there, then shows each new one. `show(hash)` loads the
 * window's page with that hash (a same-page hash change when it is already loaded).
 */
export class LaunchRouter {
  private pending: LaunchTarget | undefined
  private show: ((hash: string) => void) | undefined

  /** A target arrived (undefined is ignored). */
  receive(target: LaunchTarget | undefined): void {
    if (!target) return
    if (this.show) this.show(hashOf(target))
    else this.pending = target
  }

  /** The window closed: targets wait again for the next {@link attach}. */
  detach(): void {
    this.show = undefined
  }

  /** True when a target waits for a window. */
  get waiting(): boolean {
    return this.pending !== undefined
  }

  /** The window exists: `show` displays targets from now on; returns the hash to load first ('' when none). */
  attach(show: (hash: string) => void): string {
    this.show = show
    const first = this.pending
    this.pending = undefined
    return first ? hashOf(first) : ''
  }
}
