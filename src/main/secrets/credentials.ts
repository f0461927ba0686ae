/**
 * Credential files: files agents keep API keys, OAuth tokens and encryption keys in. Sepia lists
 * them (path, agent, kind) so the user knows they are there, and never reads or sends their values
 * (DESIGN.md "Secrets: credential files are flagged, not displayed"; issue 9 item 7).
 *
 * Sources:
 * - Cline: seed 000 "Credentials" and "Secrets" — `<data>/secrets.json`, `<data>/settings/providers.json`,
 *   `<data>/connectors/settings.json` and `db/connectors.db`, `settings/cline_mcp_settings.json` and
 *   `settings/composio/*.json` (headers/env) under the data dir and under the extension's
 *   globalStorage, `<globalStorage>/saoudrizwan.claude-dev/cache/remote_config_<org>.json`
 *   (upload bucket keys) and `<Documents>/Cline/webhook_config.json` (bearer webhook token).
 *   Roo Code, Kilo Code and PearAI keep their MCP settings the same way in their own globalStorage.
 * - Claude Code: `<config dir>/.credentials.json` (OAuth tokens on Linux and Windows).
 * - Codex: `<CODEX_HOME>/auth.json` (API key or ChatGPT tokens).
 * - Gemini CLI: `~/.gemini/oauth_creds.json`, `~/.gemini/mcp-oauth-tokens.json`.
 * - OpenCode / Kilo CLI: `<xdg data>/{opencode,kilo}/auth.json` and `mcp-auth.json`; the config
 *   `<xdg config>/opencode/opencode.json(c)`, `<xdg config>/kilo/kilo.json` (provider `apiKey`).
 * - Cursor: composer records carrying `blobEncryptionKey` / `speculativeSummarizationEncryptionKey`
 *   (the readers note their presence in `metadata.encryptionKeysPresent`, never the value).
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { CredentialFile, CredentialKind } from '../../shared/api'
import type { AgentId, Session } from '../../shared/ir'
import type { HomeLayout } from '../platform'

interface Candidate {
  path: string
  agent: AgentId
  kind: CredentialKind
}

/** Globbed file names end in `*`: every file of that folder whose name starts with the prefix and ends with `.json`. */
function candidates(layout: HomeLayout): Candidate[] {
  const out: Candidate[] = []
  const add = (agent: AgentId, kind: CredentialKind, ...parts: string[]) => out.push({ agent, kind, path: join(...parts) })
  const data = layout.clineDataDir
  add('cline', 'api-keys', data, 'secrets.json')
  add('cline', 'provider-settings', data, 'settings', 'providers.json')
  add('cline', 'connector', data, 'connectors', 'settings.json')
  add('cline', 'connector', data, 'db', 'connectors.db')
  add('cline', 'mcp-settings', data, 'settings', 'cline_mcp_settings.json')
  add('cline', 'mcp-settings', data, 'settings', 'composio', '*')
  add('cline', 'webhook-token', layout.documents.clineDir, 'webhook_config.json')
  const forks: [AgentId, string][] = [
    ['cline', 'saoudrizwan.claude-dev'],
    ['roo-code', 'rooveterinaryinc.roo-cline'],
    ['kilo-code', 'kilocode.kilo-code'],
    ['pearai', 'pearai.pearai-roo-cline'],
  ]
  for (const gs of layout.globalStorageDirs) {
    for (const [agent, ext] of forks) {
      add(agent, 'mcp-settings', gs, ext, 'settings', 'cline_mcp_settings.json')
      add(agent, 'mcp-settings', gs, ext, 'settings', 'mcp_settings.json')
      add(agent, 'api-keys', gs, ext, 'secrets.json')
    }
    add('cline', 'remote-config', gs, 'saoudrizwan.claude-dev', 'cache', 'remote_config_*')
    add('cline', 'mcp-settings', gs, 'saoudrizwan.claude-dev', 'settings', 'composio', '*')
  }
  add('claude-code', 'oauth-tokens', layout.claudeConfigDir, '.credentials.json')
  add('codex', 'oauth-tokens', layout.codexHome, 'auth.json')
  add('gemini', 'oauth-tokens', layout.home, '.gemini', 'oauth_creds.json')
  add('gemini', 'oauth-tokens', layout.home, '.gemini', 'mcp-oauth-tokens.json')
  // Provider options in the config may carry `apiKey` (fixtures/real/opencode, fixtures/real/kilo).
  add('opencode', 'provider-settings', layout.xdgConfigHome, 'opencode', 'opencode.json')
  add('opencode', 'provider-settings', layout.xdgConfigHome, 'opencode', 'opencode.jsonc')
  add('kilo-code', 'provider-settings', layout.xdgConfigHome, 'kilo', 'kilo.json')
  for (const root of new Set([layout.xdgDataHome, layout.dataRoot])) {
    for (const [agent, dir] of [['opencode', 'opencode'], ['kilo-code', 'kilo']] as const) {
      add(agent, 'api-keys', root, dir, 'auth.json')
      add(agent, 'oauth-tokens', root, dir, 'mcp-auth.json')
    }
  }
  return out
}

/**
 * The credential files that exist under one home, sorted by path. Only names and `stat` are
 * used: no file is opened. Never throws (an unreadable folder simply lists nothing).
 */
export async function findCredentialFiles(layout: HomeLayout): Promise<CredentialFile[]> {
  const found = new Map<string, CredentialFile>()
  for (const c of candidates(layout)) {
    const star = c.path.endsWith('*')
    const paths = star ? await globJson(c.path.slice(0, -1)) : [c.path]
    for (const path of paths) {
      if (found.has(path)) continue
      try {
        if ((await stat(path)).isFile()) found.set(path, { path, agent: c.agent, kind: c.kind })
      } catch {
        // absent
      }
    }
  }
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path))
}

/** Files in `prefix`'s folder whose name starts with its last part and ends with `.json`. */
async function globJson(prefix: string): Promise<string[]> {
  const cut = Math.max(prefix.lastIndexOf('/'), prefix.lastIndexOf('\\'))
  const dir = prefix.slice(0, cut)
  const start = prefix.slice(cut + 1)
  try {
    return (await readdir(dir)).filter((n) => n.startsWith(start) && n.endsWith('.json')).map((n) => join(dir, n))
  } catch {
    return []
  }
}

/**
 * Session files that hold encryption keys (Cursor composer records): one entry per session whose
 * reader noted `metadata.encryptionKeysPresent` (a list of key names, never values).
 */
export function encryptionKeyFiles(sessions: Iterable<Session>): CredentialFile[] {
  const out: CredentialFile[] = []
  for (const s of sessions) {
    const keys = s.metadata?.encryptionKeysPresent
    if (!Array.isArray(keys) || keys.length === 0) continue
    const path = s.source.files[0]
    if (path) out.push({ path, agent: s.agent, kind: 'encryption-key', sessionId: s.id })
  }
  return out
}
