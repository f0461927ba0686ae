/**
 * Every `sepia` command but `--version` (src/cli/index.ts parses the command line and imports this
 * module only when a command runs: issue 15, `sepia --version` loads none of the API, the catalog,
 * the readers or the exporters).
 */
import { SepiaError } from '../shared/api'
import type { Diagnostic, SessionSummary } from '../shared/ir'
import type { HomeInfo } from '../shared/api'
import { createApi } from '../main/api'
import { processContext } from '../main/host'
import { sessionToMarkdown } from '../main/export/markdown'
import { unknownAgentError } from './agent-arg'
import { localMinute, localZoneName, pasteableId, safeText, sessionNotFound, writeDiagnostics } from './terminal'
import { AGENT_IDS, isAgentId } from '../shared/ir'
import { EXPORT_USAGE, runCollect, runExport, type ExportCliOptions } from './export'
import { CHECKPOINT_USAGE, runCheckpointCommand } from './checkpoints'
import { SEARCH_USAGE, runSearch } from './search'
import { USAGE_USAGE, runUsage } from './usage'
import { TIMELINE_USAGE, runTimeline } from './timeline'
import { CONVERT_USAGE, runConvert, wrapList } from './convert'
import { DOCTOR_USAGE, runDoctor } from './doctor'
import { ARCHIVE_USAGE, runArchive, runPutBack } from './archive'
import { MOVE_USAGE, runMoveCommand } from './move'
import { AGENTS, agentById } from '../main/agents/registry'
import { projectKey } from '../shared/project-key'
import { findUnreadStores, unreadSentence, unreadStoreLine } from '../main/health/unread'
import { runPush, TEAM_USAGE } from './team'
import { checkPostgresUrl, maskSecretsIn } from '../main/team/url'
import type { CliValues } from './options'
import { plural } from '../shared/plural'
import { matchSession } from './pick'

export const USAGE = `Usage:
  sepia list  [--home DIR] [--agent ID] [--all] [--json]
                                                list sessions (agent, project, title); --all adds the ones their agent hides
  sepia show  <session-id> [--agent ID] [--home DIR] [--json]
                                                print a session (Markdown, or IR JSON)
  sepia serve [--home DIR] [--port N] [--demo]  serve the app on http://127.0.0.1
  sepia mcp   [--home DIR]                      MCP server over stdio (search_sessions, get_session, ...)
${TEAM_USAGE}${EXPORT_USAGE}${CHECKPOINT_USAGE}${SEARCH_USAGE}${USAGE_USAGE}${TIMELINE_USAGE}${CONVERT_USAGE}${MOVE_USAGE}${DOCTOR_USAGE}${ARCHIVE_USAGE}Options:
  --home DIR   read this home folder instead of yours (repeat for several)
  --json       machine-readable output
  --agent ID   one of the agents Sepia reads:
${wrapList(AGENTS.map((a) => a.id), ' '.repeat(15))}
`

/**
 * `sepia <command> --help`: the lines of {@link USAGE} about `command` (each entry that starts
 * `  sepia <command>`, with its indented lines) and the Options; the whole USAGE for a word that
 * is not a command.
 */
export function commandHelp(command: string): string {
  const [head = '', options = ''] = USAGE.split('\nOptions:\n')
  const entries: string[][] = []
  for (const line of head.split('\n').slice(1)) {
    if (/^ {2}sepia /.test(line)) entries.push([line])
    else if (line.trim() && entries.length) entries[entries.length - 1]!.push(line)
  }
  const mine = entries.filter((e) => e[0]!.startsWith(`  sepia ${command} `) || e[0] === `  sepia ${command}`)
  // move and put-back write into the user's own home only: an opened --home is refused, so not offered.
  const own = WRITES_OWN_HOME_ONLY.has(command) ? options.split('\n').filter((l) => !l.startsWith('  --home ')).join('\n') : options
  return mine.length === 0 ? USAGE : `Usage:\n${mine.map((e) => e.join('\n')).join('\n')}\nOptions:\n${own}`
}

/** Commands that write into the user's own home and refuse a home opened with --home (src/cli/move.ts, archive.ts). */
const WRITES_OWN_HOME_ONLY: ReadonlySet<string> = new Set(['move', 'put-back'])

/** Run `command` (the first positional) with the other positionals and the parsed options. Resolves the exit code. */
export async function runCommand(command: string | undefined, rest: string[], values: CliValues, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  if (command === 'help') {
    out.write(USAGE)
    return 0
  }
  if (values.help || !command) {
    out.write(command ? commandHelp(command) : USAGE)
    return command || values.help ? 0 : 2
  }
  // The team catalog (issue 20): neither command reads a home through the desktop API.
  if (command === 'push' || (command === 'serve' && values.catalog !== undefined)) {
    const secret = command === 'push' ? values.to : values.catalog
    try {
      if (command === 'push') return await runPush({ to: values.to, homes: values.home ?? [], ownHome: processContext({ mode: 'browser' }).ownHome, machine: values.machine, json: values.json ?? false }, out, err)
      const ctx = processContext({ mode: 'browser' })
      const { createTeamApi } = await import('../main/team/api')
      const team = createTeamApi(checkPostgresUrl(values.catalog, '--catalog'), { version: ctx.version, ...(ctx.appDataDir ? { appDataDir: ctx.appDataDir } : {}) })
      const { runServe } = await import('./serve')
      return await runServe(team, { port: values.port ? Number(values.port) : 0, demo: false }, out)
    } catch (e) {
      const se = SepiaError.from(e)
      const message = maskSecretsIn(se.message, secret)
      if (values.json) err.write(JSON.stringify({ error: { ...se.toJSON(), message } }) + '\n')
      else err.write(`sepia: ${message}\n`)
      return 1
    }
  }
  let api: ReturnType<typeof createApi>
  try {
    // Opens the catalog: a data folder Sepia may not write is a SepiaError in plain words (catalog/schema.ts openCatalog).
    api = createApi(processContext({ mode: 'browser', homes: values.home ?? [] }))
  } catch (e) {
    const se = SepiaError.from(e)
    if (values.json) err.write(JSON.stringify({ error: se.toJSON() }) + '\n')
    else err.write(`sepia: ${se.message}\n`)
    return 1
  }
  try {
    // Writes a killed Sepia left unfinished are finished or cleaned before any command that writes (issue 16).
    if (WRITING_COMMANDS.has(command)) for (const n of await api.recoverWrites()) err.write(safeText(`sepia: ${n.message}\n`))
    switch (command) {
      case 'list': {
        // --agent keeps one agent's sessions (it was accepted and ignored, even when not an agent id).
        const only = values.agent
        if (only !== undefined && !isAgentId(only)) throw unknownAgentError(only, AGENT_IDS, AGENTS, 'reads')
        if (values.json) {
          // The stored masked summaries as they are, their UTF-8 bytes never decoded (issue 15:
          // parsing, masking and printing 10k summary objects was most of a warm `sepia list
          // --json`, then decoding and encoding their 8 MB); src/main/library.ts `listJson`.
          await api.ready()
          const l = await api.library.listJson(only)
          out.write(formatListJson(l.homes, l.sessions, l.diagnostics))
          return 0
        }
        const whole = await api.getLibrary()
        const lib = only === undefined ? whole : { ...whole, sessions: whole.sessions.filter((s) => s.agent === only) }
        const stores = (await Promise.all(api.library.openHomes.map((h) => findUnreadStores(h.layout)))).flat()
        // No session to list: say which agents' history is here that Sepia cannot read yet (src/main/health/unread.ts);
        // an encrypted store is not one of them: it gets its own notice below.
        const unread = lib.sessions.length === 0 ? [...new Set(stores.filter((u) => u.reason !== 'encrypted').map((u) => u.agentName))] : []
        out.write(safeText(formatList(lib.sessions, lib.homes.map((h) => h.path + (h.isDemo ? ' (demo)' : '')), values.all === true, unread)))
        // Stores Sepia can list but not read (Windsurf, Trae keep their chats encrypted; issue 18).
        for (const u of stores) {
          if (u.reason !== 'encrypted') continue
          out.write(safeText(`\n${unreadStoreLine(u)}\n${u.paths.map((p) => `  ${p}\n`).join('')}${u.count > u.paths.length ? `  … and ${u.count - u.paths.length} more\n` : ''}`))
        }
        writeDiagnostics(err, lib.diagnostics)
        return 0
      }
      case 'show': {
        const id = rest[0]
        if (!id) {
          err.write(`sepia: sepia show needs a session id.\n\n${commandHelp('show')}`)
          return 2
        }
        if (values.agent && !isAgentId(values.agent)) throw unknownAgentError(values.agent, AGENT_IDS, AGENTS, 'reads')
        const lib = await api.getLibrary()
        const picked = matchSession(lib.sessions, id, values.agent)
        if (!picked) {
          // The id is there under another agent than --agent names: say which.
          const other = values.agent ? lib.sessions.find((s) => s.id === id || s.id.startsWith(id)) : undefined
          if (other) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `"${id}" is a ${agentById(other.agent).displayName} session, not ${agentById(values.agent!).displayName}: leave out --agent or use --agent ${other.agent}.` })
          // The id names a file of a store Sepia lists but cannot read (Windsurf, Trae keep their chats encrypted).
          const stores = (await Promise.all(api.library.openHomes.map((h) => findUnreadStores(h.layout)))).flat()
          const locked = stores.find((u) => u.paths.some((p) => p.includes(id)))
          if (locked) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: unreadStoreLine(locked) })
          throw sessionNotFound(id, lib.homes, values.home)
        }
        const session = await api.getSession(picked.agent, picked.id)
        out.write(values.json ? JSON.stringify(session, null, 2) + '\n' : safeText(sessionToMarkdown(session)))
        if (!values.json) writeDiagnostics(err, session.diagnostics)
        return 0
      }
      case 'checkpoints':
      case 'restore':
      case 'undo-restore':
      case 'restores':
        return await runCheckpointCommand(command, api, rest, { json: values.json, agent: values.agent, to: values.to, repo: values.repo, dryRun: values['dry-run'], files: values.files, homes: values.home ?? [] }, out, err)
      case 'export':
      case 'collect': {
        const o: ExportCliOptions = {
          format: values.format,
          out: values.out,
          project: values.project,
          all: values.all ?? false,
          agent: values.agent,
          noThinking: values['no-thinking'] ?? false,
          noToolOutput: values['no-tool-output'] ?? false,
          zip: values.zip ?? false,
          includeCredentials: values['include-credentials'] ?? false,
          homes: values.home ?? [],
          json: values.json ?? false,
        }
        return command === 'export' ? await runExport(api, rest, o, out, err) : await runCollect(api, o, out, err)
      }
      case 'search':
        return await runSearch(api, rest.join(' '), { agent: values.agent, project: values.project, since: values.since, until: values.until, role: values.role, tool: values.tool, limit: values.limit, json: values.json }, out)
      case 'usage':
        return await runUsage(api, { by: values.by, since: values.since, until: values.until, tz: values.tz, agent: values.agent, project: values.project, json: values.json, csv: values.csv }, out)
      case 'timeline':
        return await runTimeline(api, { agent: values.agent, session: values.session, project: values.project, csv: values.csv, jsonl: values.jsonl, json: values.json }, out, err)
      case 'convert':
        return await runConvert(api, rest, { to: values.to, agent: values.agent, targetHome: values['target-home'], project: values.project, dryRun: values['dry-run'], textOnly: values['text-only'], json: values.json, homes: values.home ?? [] }, out, err)
      case 'bundle':
      case 'install-bundle':
      case 'move':
        return await runMoveCommand(command, api, rest, { out: values.out, agent: values.agent, project: values.project, toProject: values['to-project'], targetHome: values['target-home'], removeOriginal: values['remove-original'], json: values.json, homes: values.home ?? [] }, out, err)
      case 'doctor':
        return await runDoctor(api, { json: values.json ?? false, ...(values.report !== undefined ? { report: values.report } : {}), ...(values.out !== undefined ? { out: values.out } : {}) }, out)
      case 'archive':
        return await runArchive(api, rest[0], { json: values.json ?? false }, out, err)
      case 'put-back':
        return await runPutBack(api, rest, { json: values.json ?? false, agent: values.agent, homes: values.home ?? [] }, out, err)
      case 'mcp': {
        const { runMcpServer } = await import('../main/mcp/server')
        await runMcpServer(api, processContext({ mode: 'browser' }).version)
        return -1
      }
      case 'serve': {
        const { runServe } = await import('./serve') // the HTTP server (node:http) loads for serve only
        return await runServe(api, { port: values.port ? Number(values.port) : 0, demo: values.demo ?? false, onStop: () => api.library.closeNow() }, out)
      }
      default:
        err.write(`Unknown command "${command}".\n\n${USAGE}`)
        return 2
    }
  } catch (e) {
    const se = SepiaError.from(e)
    if (values.json) err.write(JSON.stringify({ error: se.toJSON() }) + '\n')
    else err.write(`sepia: ${se.message}\n`)
    return 1
  }
}

/** Commands that write (or host the app): each first recovers interrupted writes (src/main/util/write-recovery.ts). */
const WRITING_COMMANDS: ReadonlySet<string> = new Set(['convert', 'restore', 'undo-restore', 'export', 'collect', 'serve'])

/**
 * `sepia list --json`: `{"homes": [...], "sessions": [...], "diagnostics": [...]}`, homes and
 * diagnostics indented by 2, each session (the JSON of its summary, UTF-8 bytes) on one line. One
 * buffer, the sessions' bytes copied into it as they are (the same bytes as the text of each,
 * encoded, would give).
 */
export function formatListJson(homes: readonly HomeInfo[], sessions: readonly Uint8Array[], diagnostics: readonly Diagnostic[]): Buffer {
  const indent = (v: unknown): string => JSON.stringify(v, null, 2).replace(/\n/g, '\n  ')
  const head = Buffer.from(`{\n  "homes": ${indent(homes)},\n  "sessions": ${sessions.length === 0 ? '[]' : '[\n    '}`, 'utf8')
  const tail = Buffer.from(`${sessions.length === 0 ? '' : '\n  ]'},\n  "diagnostics": ${indent(diagnostics)}\n}\n`, 'utf8')
  const parts: Uint8Array[] = [head]
  for (let i = 0; i < sessions.length; i++) {
    if (i > 0) parts.push(SESSION_SEPARATOR)
    parts.push(sessions[i]!)
  }
  parts.push(tail)
  return Buffer.concat(parts)
}

/** Between two sessions of {@link formatListJson}. */
const SESSION_SEPARATOR = Buffer.from(',\n    ', 'utf8')

/** The `sepia list` text: sessions by agent and project; sessions the agent hides (Devin `hidden = 1`) only with `--all`. */
function formatList(all: SessionSummary[], homes: string[], showHidden: boolean, unread: readonly string[] = []): string {
  const sessions = showHidden ? all : all.filter((s) => !s.hidden)
  const hidden = all.length - sessions.length
  const lines = [`${plural(sessions.length, 'session')} in ${homes.join(', ')}${hidden ? ` (${hidden} hidden by their agent not shown: --all lists them)` : ''}`]
  if (unread.length > 0) lines.push(`No session Sepia can read; ${unreadSentence(unread)}`)
  if (sessions.length > 0) lines.push(`Times in ${localZoneName()}.`)
  const byAgent = new Map<string, SessionSummary[]>()
  for (const s of sessions) byAgent.set(s.agent, [...(byAgent.get(s.agent) ?? []), s])
  for (const [agent, list] of byAgent) {
    lines.push('', `${agent} (${list.length})`)
    const byProject = new Map<string, SessionSummary[]>()
    // One folder recorded in two spellings (Windows drive-letter case) is one project.
    const shown = new Map<string, string>()
    for (const s of list) {
      const key = projectKey(s.workingDirectory)
      if (!shown.has(key)) shown.set(key, s.workingDirectory?.trim() || '(no project)')
      const name = shown.get(key)!
      byProject.set(name, [...(byProject.get(name) ?? []), s])
    }
    // A sub-agent is printed under its parent (which may sit in another project group, e.g. a
    // parent with no recorded folder); only a sub-agent whose parent is not listed stays in place.
    const ids = new Set(list.map((s) => s.id))
    const children = new Map<string, SessionSummary[]>()
    for (const s of list) if (s.parentSessionId && ids.has(s.parentSessionId)) children.set(s.parentSessionId, [...(children.get(s.parentSessionId) ?? []), s])
    for (const [project, all] of byProject) {
      const tops = all.filter((s) => !(s.parentSessionId && ids.has(s.parentSessionId)))
      if (tops.length === 0) continue
      const ps = tops.flatMap((s) => [s, ...(children.get(s.id) ?? [])])
      lines.push(`  ${project}`)
      for (const s of ps) {
        const when = localMinute(s.createdAt)
        const indent = s.parentSessionId ? '      └ ' : '    '
        lines.push(`${indent}${pasteableId(s.id)}  ${when}  ${plural(String(s.messageCount).padStart(3), 'msg').padEnd(8)}  ${s.model ?? ''}  ${s.title?.trim() || (s.messageCount === 0 ? '(empty session)' : '')}${s.hidden ? '  (hidden)' : ''}`.trimEnd())
      }
    }
  }
  return lines.join('\n') + '\n'
}
