/**
 * Moving a session to another computer or project folder (issue 19 "Move to another machine or
 * folder"): the arguments and results of `bundleSession`, `installBundle` and `moveSession`
 * (src/main/move/). Plain JSON; no Node imports (the renderer imports this file).
 */
import type { AgentId } from './ir'

/** Arguments of `bundleSession`. */
export interface BundleSessionRequest {
  /** Absolute path of the `.zip` to write (a new file). */
  outPath: string
  /** Token from `approveFolder(outPath, 'collect')` when the folder was typed, not picked. */
  grant?: string
}

/** Result of `bundleSession`. */
export interface BundleSessionResult {
  /** The zip written. */
  path: string
  agent: AgentId
  sessionId: string
  /** Files in the bundle (transcript, sub-agents, file history). */
  files: number
  /** Bytes of those files. */
  bytes: number
  /** The project folder the session recorded (remapped when installed elsewhere). */
  projectPath: string
  subagentIds: string[]
  /** Always true: a session bundle keeps the session as stored, secrets included. */
  secretsIncluded: true
}

/** Options of `installBundle`. */
export interface InstallBundleOptions {
  /** The project folder on this computer (absolute); default the one the bundle recorded. */
  project?: string
  /** The home whose agent store receives the session; default the user's own home. */
  targetHome?: string
  /** Token from `approveFolder(targetHome, 'convert')` when `targetHome` was typed. */
  grant?: string
}

/** What an install wrote (also the first half of a move). */
export interface InstallBundleResult {
  agent: AgentId
  /** The session's id in the target store. */
  sessionId: string
  /** Its id in the bundle (differs when that id was already taken in the target store). */
  originalSessionId: string
  subagentIds: string[]
  /** The project folder the installed session records. */
  projectPath: string
  /** The project folder the bundle recorded. */
  originalProjectPath: string
  /** Files created (absolute), and databases a row was added to. */
  files: string[]
  /** Backup copies of databases changed. */
  backups: string[]
  /** Run in `projectPath`, e.g. `claude --resume <id>`. */
  resumeCommand: string
  /**
   * What reading the installed session back found. `messages` and `expectedMessages` count every
   * node (messages, tool results and markers: `Session.nodes`), not the list's messages.
   */
  readBack: { messages: number; expectedMessages: number; workingDirectory: string }
  /** Things to know (the project folder does not exist here yet...). */
  notes?: string[]
}

/** Options of `moveSession`. */
export interface MoveSessionOptions {
  /** The new project folder (absolute). */
  toProject: string
  /** Remove the original once the copy read back right; a backup bundle stays in Sepia's data folder. */
  removeOriginal?: boolean
}

/** Result of `moveSession`. */
export interface MoveSessionResult {
  install: InstallBundleResult
  original: {
    sessionId: string
    /** False when it was removed (after its backup). */
    kept: boolean
    /** The backup bundle of the removed original (`sepia install-bundle` puts it back). */
    backup?: string
    removed: string[]
    databaseBackups: string[]
  }
}
