/**
 * The running machine: the one place that reads `process.platform` and `process.env` (used by
 * the app entry through `ownHomeLayout()`); everything else takes them as parameters.
 */
import { homedir } from 'node:os'
import type { HomeOs } from '../../shared/ir'
import { defaultRunner, type CommandRunner } from './documents'
import type { Env } from './index'

/** What the platform module needs to know about the running machine. */
export interface Machine {
  /** The running OS (`process.platform`, anything other than darwin/win32 counted as linux). */
  os: HomeOs
  /** The running user's environment (`process.env`). */
  env: Env
  /** `os.homedir`. */
  homedir: () => string
  /** Runs PowerShell / xdg-user-dir for the Documents folder ({@link defaultRunner}). */
  run: CommandRunner
}

/** Map a Node `process.platform` value to a {@link HomeOs}. */
export function toHomeOs(platform: string): HomeOs {
  return platform === 'win32' ? 'win32' : platform === 'darwin' ? 'darwin' : 'linux'
}

/** The running machine, from `process.platform`, `process.env` and `os.homedir`. */
export function currentMachine(): Machine {
  return { os: toHomeOs(process.platform), env: process.env, homedir, run: defaultRunner }
}
