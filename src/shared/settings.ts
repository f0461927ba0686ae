/**
 * The agent settings view: what shapes Cline's behaviour outside its transcripts — rules,
 * workflows, skills, agents and plugins, MCP servers, hooks, standing permissions — and which files
 * hold credentials (seed 000 "Documents folder", "Shared ~/.agents", "Project-local files",
 * "Credentials", "Permission rows"; the LG CNS webhook of "Sync, relay and origin rows").
 *
 * Credential values never cross the bridge: a credential file is listed (path, agent, kind) and
 * never opened (`src/main/secrets/credentials.ts`); an MCP server's env and headers are listed by
 * name only; every text shown (rules, hook scripts, MCP arguments) has its secrets masked
 * (`src/main/secrets`, the same masking as every API result).
 *
 * No Node or Electron imports: the renderer imports this file.
 */
import type { CredentialFile } from './api'
import type { Diagnostic, HomeOs } from './ir'

/** Where a settings file applies. */
export type SettingsScope = 'global' | 'project' | 'shared'

/** A text file the agent reads as instructions (a rule, workflow, skill, agent, ignore list). */
export interface SettingsDocument {
  /** Absolute path. */
  path: string
  /** File name (or the folder name of a skill / plugin). */
  name: string
  scope: SettingsScope
  /** The project folder, for `scope: 'project'`. */
  project?: string
  /** Where it comes from, in the agent's words: `Documents/Cline/Rules`, `.clinerules`, `~/.agents/skills`… */
  origin: string
  /** The text (secrets masked); the first 256 KiB when `truncated`. */
  content: string
  /** Size in bytes. */
  size: number
  truncated: boolean
}

/** One MCP server of an MCP settings file. */
export interface McpServerView {
  name: string
  /** The settings file that defines it. */
  file: string
  scope: SettingsScope
  /** `stdio` (command), `sse` / `streamableHttp` (url), or what the file says. */
  transport: string
  command?: string
  /** Arguments (secrets masked). */
  args?: string[]
  /** Server URL (secrets masked). */
  url?: string
  disabled: boolean
  /** Tools run without asking (`autoApprove`, Roo Code's `alwaysAllow`). */
  autoApprove: string[]
  /** Names of the environment variables set for it (values never shown). */
  envKeys: string[]
  /** Names of the HTTP headers sent to it (values never shown). */
  headerKeys: string[]
  /** True when env or headers are set: the settings file then holds credentials. */
  holdsSecrets: boolean
}

/** One hook script. */
export interface HookView {
  /** Absolute path. */
  path: string
  /** The hook's file name (`TaskStart`, `PostToolUse.ps1`…). */
  name: string
  scope: SettingsScope
  project?: string
  /** The event that runs it (`TaskStart`, `PreToolUse`…), or `unknown`. */
  trigger: string
  /** When it runs, in plain words. */
  triggerDescription: string
  /**
   * True when the script sends data to another machine (a network call such as fetch, curl,
   * Invoke-RestMethod, or the LG CNS webhook config): it "sends session data out", since every
   * hook receives the task's data on stdin.
   */
  sendsDataOut: boolean
  /** Why `sendsDataOut` is set: the evidence found in the script. */
  sendsDataOutReasons: string[]
  /** Hosts of the URLs in the script (never full URLs, which may carry tokens). */
  remoteHosts: string[]
  /** The script (secrets masked); the first 256 KiB when `truncated`. */
  content: string
  size: number
  truncated: boolean
  /** False when the file is not executable (Cline skips it on macOS/Linux). Absent on Windows layouts. */
  executable?: boolean
}

/** A standing permission (seed 000 "Permission rows"). */
export interface PermissionSettingView {
  /** Dotted key, e.g. `autoApprovalSettings.actions.readFiles`, `mcpServers.github.autoApprove`. */
  key: string
  /** The value as text (`true`, `act`, a tool name). */
  value: string
  /** The file it is read from. */
  file: string
}

/** The whole view for one home. */
export interface AgentSettingsView {
  /** The home folder. */
  home: string
  os: HomeOs
  /** The Documents folder and Cline's folder in it (`~/Cline` on headless Linux). */
  documents: { dir: string; source: string; clineDir: string; exists: boolean; isHome: boolean }
  /** Project folders looked at (the working directories of the home's Cline sessions that exist here, and any asked for). */
  projects: string[]
  rules: SettingsDocument[]
  workflows: SettingsDocument[]
  skills: SettingsDocument[]
  agents: SettingsDocument[]
  plugins: SettingsDocument[]
  ignoreFiles: SettingsDocument[]
  mcpServers: McpServerView[]
  hooks: HookView[]
  permissions: PermissionSettingView[]
  /** Files of Cline and its forks that hold credentials: flagged, never opened or shown. */
  credentialFiles: CredentialFile[]
  /** Files that could not be read. */
  diagnostics: Diagnostic[]
}
