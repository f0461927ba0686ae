/**
 * What "Collect for review" copies: per agent, the store folders of a home and the globs of the
 * files its reader needs; the scratch and cache folders it leaves out; the credential files it
 * leaves out by default.
 *
 * Sources:
 * - Cline and forks: seed 000 "Parser plan" globs (`<GS>/saoudrizwan.claude-dev/tasks/*\/…`,
 *   `state/taskHistory.json`, the same under `.cline/data/`, `sessions/`, `db/sessions.db`,
 *   `db/session-search.db`, `cache/user_input_history.jsonl`, `cache/sync-queue.json`,
 *   `logs/hooks.jsonl`, `globalState.json`, `settings/global-settings.json`,
 *   `cloud-pending-starts/*.json`), plus Roo Code's `history_item.json` (cline/discover.ts).
 *   Exclusions: seed 000 "Exclusions".
 * - Claude Code: `<config dir>/projects/**`, `file-history/**`, `history.jsonl` (seed 002
 *   "Claude Code"; claude-code/discover.ts).
 * - Codex: `<CODEX_HOME>/sessions/**`, `archived_sessions/**`, `state_<n>.sqlite`,
 *   `session_index.jsonl`, `history.jsonl` (codex/discover.ts, codex/state.ts).
 * - Gemini CLI: `~/.gemini/tmp/*\/chats/**`, `projects.json`, `tmp/*\/.project_root`,
 *   `logs.json`, `checkpoint-*.json` (gemini/discover.ts).
 * - OpenCode / Kilo CLI: `<xdg data>/{opencode,kilo}/*.db` and `storage/**` (opencode/discover.ts);
 *   their `snapshot/` git stores are not session data and are left out.
 * - Devin CLI: `<data>/devin/cli/sessions.db` and `transcripts/**` (format doc C1).
 * - Cursor: `User/globalStorage/state.vscdb`, `User/workspaceStorage/*\/{state.vscdb,
 *   workspace.json}` (format doc A1); cursor-agent: `~/.cursor/chats/**`,
 *   `~/.cursor/projects/*\/agent-transcripts/**` and the project's `.workspace-trusted` (its
 *   `workspacePath`, cursor-agent/read.ts), `~/.cursor/acp-sessions/**` (format doc B1).
 * Every file an agent's own discovery names is collected as well (collect.ts), so the bundle
 * opens with the same sessions even where these globs lag behind a reader.
 */
import { readdirSync } from 'node:fs'
import type { AgentId } from '../../shared/ir'
import { pathApiFor, type HomeLayout } from '../platform'
import { compileGlob, type Glob } from './glob'

/** One store folder to walk, with the globs (relative to it) of the files to copy. */
export interface StoreRoot {
  agent: AgentId
  /** Absolute folder on this machine. */
  dir: string
  include: string[]
}

const CLINE_TASK_FILES = 'tasks/*/{api_conversation_history,ui_messages,task_metadata,history_item}.json'

/** Cline-family extension folders in a VS Code-family `globalStorage` (cline/index.ts). */
const EXTENSIONS: readonly [string, AgentId][] = [
  ['saoudrizwan.claude-dev', 'cline'],
  ['rooveterinaryinc.roo-cline', 'roo-code'],
  ['kilocode.kilo-code', 'kilo-code'],
  ['pearai.pearai-roo-cline', 'pearai'],
]

/** The store folders of a home and what to copy from each (folders that do not exist are kept; the walk skips them). */
export function storeRoots(layout: HomeLayout): StoreRoot[] {
  const p = pathApiFor(layout.home)
  const roots: StoreRoot[] = []
  const add = (agent: AgentId, dir: string, include: string[]) => roots.push({ agent, dir, include })

  add('claude-code', layout.claudeConfigDir, ['projects/**', 'file-history/**', 'history.jsonl'])
  add('cline', layout.clineDataDir, [
    CLINE_TASK_FILES,
    'state/taskHistory.json',
    'sessions/**',
    'db/sessions.db',
    'db/session-search.db',
    'cache/user_input_history.jsonl',
    'logs/hooks.jsonl',
    'globalState.json',
    'settings/global-settings.json',
    'cloud-pending-starts/*.json',
  ])
  for (const gs of layout.globalStorageDirs) {
    for (const name of listNames(gs)) {
      const hit = EXTENSIONS.find(([ext]) => ext === name.toLowerCase())
      if (hit) add(hit[1], p.join(gs, name), [CLINE_TASK_FILES, 'state/taskHistory.json', 'cache/sync-queue.json'])
    }
  }
  add('codex', layout.codexHome, ['sessions/**', 'archived_sessions/**', 'state_*.sqlite', 'state.sqlite', 'session_index.jsonl', 'history.jsonl'])
  add('gemini', p.join(layout.home, '.gemini'), ['tmp/*/chats/**', 'tmp/*/.project_root', 'tmp/*/logs.json', 'tmp/*/checkpoint-*.json', 'projects.json', 'history/*/.project_root'])
  for (const root of unique([layout.xdgDataHome, layout.dataRoot])) {
    add('opencode', p.join(root, 'opencode'), ['*.db', 'storage/**'])
    add('kilo-code', p.join(root, 'kilo'), ['*.db', 'storage/**'])
  }
  for (const base of unique([layout.xdgDataHome, layout.dataRoot, layout.localAppData])) {
    add('devin', p.join(base, 'devin', 'cli'), ['sessions.db', 'transcripts/**'])
  }
  for (const g of layout.globalStorage.filter((x) => x.editor === 'Cursor')) {
    add('cursor', g.dir, ['state.vscdb'])
    add('cursor', p.join(p.dirname(g.dir), 'workspaceStorage'), ['*/state.vscdb', '*/workspace.json'])
  }
  add('cursor-agent', p.join(layout.home, '.cursor'), ['chats/**', 'projects/*/agent-transcripts/**', 'projects/*/.workspace-trusted', 'acp-sessions/**'])
  add('cursor-agent', p.join(layout.xdgConfigHome, 'cursor'), ['chats/**'])
  return roots
}

/**
 * Folders never collected, as home-relative globs (seed 000 "Exclusions": the agent's scratch
 * and working trees, plugins, and the extension's checkpoint shadow repositories).
 */
export const EXCLUDED: readonly Glob[] = [
  '.cline/data/checkpoint-scratch/**',
  '.cline/worktrees/**',
  '.cline/data/workspaces/chat/**',
  '.cline/data/agent-plugins/**',
  '.cline/plugins/**',
  '**/User/globalStorage/saoudrizwan.claude-dev/checkpoints/**',
].map(compileGlob)

/**
 * Credential files by home-relative glob, a safety net beside the safety feature's own list
 * (`findCredentialFiles`, src/main/secrets/credentials.ts) for files a broad glob would pick up.
 * Names from seed 000 "Credentials" and the agents' own files.
 */
export const CREDENTIAL_GLOBS: readonly Glob[] = [
  '**/.claude/.credentials.json',
  '**/.codex/auth.json',
  '**/.gemini/oauth_creds.json',
  '**/.gemini/mcp-oauth-tokens.json',
  '**/.gemini/google_accounts.json',
  '**/{opencode,kilo}/{auth,mcp-auth}.json',
  '**/secrets.json',
  '**/settings/providers.json',
  '**/settings/{cline_mcp_settings,mcp_settings}.json',
  '**/settings/composio/*.json',
  '**/connectors/settings.json',
  '**/db/connectors.db',
  '**/cache/remote_config_*.json',
  '**/Cline/webhook_config.json',
  '**/*.pem',
  '**/.env',
].map(compileGlob)

/** SQLite files whose `-wal` / `-shm` / `-journal` companions are copied with them. */
export const SQLITE_FILE = /\.(db|sqlite|sqlite3|vscdb)$/i
/** Companion files of a SQLite database. */
export const SQLITE_SIDECARS = ['-wal', '-shm', '-journal'] as const

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

function unique(values: (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => !!v))]
}
