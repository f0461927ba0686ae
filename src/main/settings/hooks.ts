/**
 * Cline hook scripts and what triggers them: global `Documents/Cline/Hooks/<Name>` (older builds:
 * `Documents/Cline/Rules/Hooks/`) and project `.clinerules/hooks/<Name>`; `.ps1` on Windows
 * (seed 000 "Documents folder", "Project-local files"; cline/cline `.clinerules/hooks/README.md`).
 * Every hook gets the task's data on stdin (task id, workspace roots, the tool call and its
 * parameters for PreToolUse/PostToolUse).
 *
 * A hook that makes a network call sends that data to another machine: the LG CNS webhook
 * integration writes TaskStart, PostToolUse and TaskComplete scripts that POST every task start,
 * tool call and completion to the URL in `webhook_config.json` (seed 000 "Sync, relay and origin
 * rows"; apps/vscode/src/services/lg-cns-integration/webhook-hooks.ts). Such a hook is flagged
 * `sendsDataOut`, with the evidence.
 */
import type { HookView, SettingsScope } from '../../shared/settings'
import { maskText } from '../secrets'

/** Hook names Cline runs, and when. */
export const HOOK_TRIGGERS: Readonly<Record<string, string>> = {
  TaskStart: 'when a new task starts',
  TaskResume: 'when a task is resumed',
  TaskCancel: 'when a task is cancelled',
  TaskComplete: 'when a task completes',
  UserPromptSubmit: 'when the user sends a message',
  PreToolUse: 'before every tool call (it can block the call)',
  PostToolUse: 'after every tool call, with its parameters and result',
  PreCompact: 'before the conversation is compacted',
  Notification: 'when Cline shows a notification',
}

const NETWORK_CALLS: [RegExp, string][] = [
  [/\bfetch\s*\(/, 'calls fetch()'],
  [/\bcurl\b/, 'runs curl'],
  [/\bwget\b/, 'runs wget'],
  [/Invoke-(RestMethod|WebRequest)\b/i, 'calls Invoke-RestMethod / Invoke-WebRequest'],
  [/Net\.WebClient|HttpClient\b/, 'uses a .NET web client'],
  [/\bhttps?\.request\s*\(/, 'calls http.request()'],
  [/\brequests\.(post|put|get|patch)\s*\(/, 'calls Python requests'],
  [/\burllib\.request\b/, 'uses urllib.request'],
  [/\baxios\b/, 'uses axios'],
  [/XMLHttpRequest/, 'uses XMLHttpRequest'],
  [/\b(nc|ncat|netcat)\s+-?\w/, 'runs netcat'],
]

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[?::1\]?|0\.0\.0\.0)$/i

/** The trigger of a hook file name (`PostToolUse.ps1` → `PostToolUse`), or `unknown`. */
export function hookTrigger(fileName: string): string {
  const stem = fileName.replace(/\.(ps1|sh|js|mjs|cjs|py|cmd|bat)$/i, '')
  return Object.keys(HOOK_TRIGGERS).find((k) => k.toLowerCase() === stem.toLowerCase()) ?? 'unknown'
}

/**
 * Whether a hook script sends data out, why, and the hosts it names. A network call sends data
 * out unless every URL in the script is a loopback address; a script that reads the LG CNS
 * `webhook_config.json` posts to that file's URL.
 */
export function scanHookScript(text: string): { sendsDataOut: boolean; reasons: string[]; hosts: string[] } {
  const reasons = NETWORK_CALLS.filter(([re]) => re.test(text)).map(([, why]) => why)
  const hosts = [...new Set([...text.matchAll(/https?:\/\/([^\s/"'`)$:]+)/g)].map((m) => m[1]!.toLowerCase()))]
  const webhook = /webhook_config\.json/.test(text)
  if (webhook) reasons.push('reads webhook_config.json (the LG CNS webhook) and posts the task\'s data to its URL')
  const remote = hosts.filter((h) => !LOOPBACK.test(h))
  const sendsDataOut = reasons.length > 0 && (webhook || hosts.length === 0 || remote.length > 0)
  if (reasons.length && !sendsDataOut) reasons.push('only to this machine (loopback address)')
  return { sendsDataOut, reasons, hosts: remote }
}

/** A {@link HookView} from a script's text. */
export function hookView(
  file: { path: string; name: string; size: number; text: string; truncated: boolean; executable?: boolean },
  scope: SettingsScope,
  project?: string,
): HookView {
  const trigger = hookTrigger(file.name)
  const scan = scanHookScript(file.text)
  const view: HookView = {
    path: file.path,
    name: file.name,
    scope,
    trigger,
    triggerDescription: HOOK_TRIGGERS[trigger] ?? 'not a hook name Cline runs',
    sendsDataOut: scan.sendsDataOut,
    sendsDataOutReasons: scan.reasons,
    remoteHosts: scan.hosts,
    content: maskText(file.text).text,
    size: file.size,
    truncated: file.truncated,
  }
  if (project) view.project = project
  if (file.executable !== undefined) view.executable = file.executable
  return view
}
