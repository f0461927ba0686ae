/**
 * MCP servers of a `cline_mcp_settings.json` ({mcpServers: {<name>: {command, args, env, url,
 * headers, type, autoApprove, disabled, timeout}}}, apps/vscode/src/services/mcp/schemas.ts:42-143,
 * seed 000 "Credentials"). Environment variables and headers are listed by name only; the command,
 * arguments and URL are masked (`src/main/secrets`).
 */
import type { McpServerView, SettingsScope } from '../../shared/settings'
import { isRecord } from '../util/json'
import { maskText } from '../secrets'

/** The servers of one parsed settings file (an empty list when it has no `mcpServers` object). */
export function mcpServers(file: string, parsed: unknown, scope: SettingsScope): McpServerView[] {
  const redact = (t: string) => maskText(t).text
  const servers = isRecord(parsed) && isRecord(parsed.mcpServers) ? parsed.mcpServers : {}
  const out: McpServerView[] = []
  for (const [name, raw] of Object.entries(servers)) {
    const cfg = isRecord(raw) ? raw : {}
    const env = isRecord(cfg.env) ? Object.keys(cfg.env) : []
    const headers = isRecord(cfg.headers) ? Object.keys(cfg.headers) : []
    const command = typeof cfg.command === 'string' ? cfg.command : undefined
    const url = typeof cfg.url === 'string' ? cfg.url : undefined
    const type = typeof cfg.type === 'string' ? cfg.type : typeof cfg.transportType === 'string' ? cfg.transportType : undefined
    const view: McpServerView = {
      name,
      file,
      scope,
      transport: type ?? (command ? 'stdio' : url ? 'sse' : 'unknown'),
      disabled: cfg.disabled === true,
      autoApprove: [...list(cfg.autoApprove), ...list(cfg.alwaysAllow)],
      envKeys: env,
      headerKeys: headers,
      holdsSecrets: env.length > 0 || headers.length > 0,
    }
    if (command) view.command = redact(command)
    if (Array.isArray(cfg.args)) view.args = cfg.args.map((a) => redact(String(a)))
    if (url) view.url = redact(url)
    out.push(view)
  }
  return out
}

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}
