/**
 * `sepia archive status|prune|on|off` and `sepia put-back <session-id> [--agent ID]` (issue 19):
 * Sepia's archive of the user's own home (src/main/archive/).
 */
import { SepiaError } from '../shared/api'
import type { ArchiveStatus } from '../shared/archive'
import { AGENT_IDS, isAgentId } from '../shared/ir'
import type { SepiaService } from '../main/api'
import { AGENTS } from '../main/agents/registry'
import { unknownAgentError } from './agent-arg'
import { safeText, sessionNotFound } from './terminal'
import { plural } from '../shared/plural'
import { matchSession } from './pick'
import { resolve } from 'node:path'
import { processContext } from '../main/host'

/** Usage lines of the commands. */
export const ARCHIVE_USAGE = `  sepia archive status|prune|on|off [--json]   Sepia's archive of your sessions: size and counts; drop old versions to fit the cap; turn it on or off
  sepia put-back <session-id> [--agent ID]      write an archived session back into its agent's store, as last copied
`

/** Bytes as `1.2 GB`. */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB']
  let v = n
  let i = 0
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000
    i++
  }
  return i === 0 ? `${n} bytes` : `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`
}

function statusText(s: ArchiveStatus): string {
  const lines = [
    `The archive is ${s.settings.enabled ? 'on' : 'off'}${s.settings.answered ? '' : ' (not chosen yet)'}: ${s.dir}`,
    `  ${plural(s.sessions, 'session')}, ${plural(s.versions, 'file version')}, ${formatBytes(s.storedBytes)} stored (${formatBytes(s.rawBytes)} before compression), cap ${formatBytes(s.settings.capBytes)}`,
  ]
  if (s.goneSessions > 0) lines.push(`  ${plural(s.goneSessions, 'session')} deleted from their agent's store ${s.goneSessions === 1 ? 'is' : 'are'} kept here (sepia put-back <id> restores one)`)
  if (s.skippedForCap > 0) lines.push(`  ${plural(s.skippedForCap, 'new version')} ${s.skippedForCap === 1 ? 'was' : 'were'} not kept: the archive is full`)
  if (s.sourceBytes !== undefined) lines.push(`  your session files take ${formatBytes(s.sourceBytes)}`)
  if (s.settings.excludedAgents.length) lines.push(`  left out: ${s.settings.excludedAgents.join(', ')}`)
  if (s.settings.excludedProjects.length) lines.push(`  projects left out: ${s.settings.excludedProjects.join(', ')}`)
  return lines.join('\n') + '\n'
}

/** The subcommands of `sepia archive` (`status` when none is given). */
export const ARCHIVE_SUBCOMMANDS = ['status', 'prune', 'on', 'off'] as const

/** Run `sepia archive <sub>`. Resolves the exit code. */
export async function runArchive(api: SepiaService, sub: string | undefined, o: { json: boolean }, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  switch (sub) {
    case undefined:
    case 'status': {
      const s = await api.getArchiveStatus()
      out.write(o.json ? JSON.stringify(s, null, 2) + '\n' : safeText(statusText(s)))
      return 0
    }
    case 'prune': {
      const r = await api.pruneArchive()
      out.write(o.json ? JSON.stringify(r, null, 2) + '\n' : `Removed ${plural(r.removedVersions, 'old version')}, freed ${formatBytes(r.freedBytes)}; ${formatBytes(r.storedBytes)} stored.\n`)
      return 0
    }
    case 'on':
    case 'off': {
      const s = await api.setArchiveSettings({ enabled: sub === 'on' })
      out.write(o.json ? JSON.stringify(s, null, 2) + '\n' : safeText(statusText(s)))
      return 0
    }
    default:
      err.write(safeText(`Unknown archive command "${sub}"; the archive commands are ${ARCHIVE_SUBCOMMANDS.join(', ')}.\n\n`) + ARCHIVE_USAGE)
      return 2
  }
}

/** Run `sepia put-back <id>`. Resolves the exit code. */
export async function runPutBack(api: SepiaService, rest: string[], o: { json: boolean; agent?: string | undefined; homes: string[] }, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const id = rest[0]
  if (!id) {
    err.write(`sepia: sepia put-back needs a session id.\n\n${ARCHIVE_USAGE}`)
    return 2
  }
  if (o.agent !== undefined && !isAgentId(o.agent)) throw unknownAgentError(o.agent, AGENT_IDS, AGENTS, 'reads')
  const lib = await api.getLibrary()
  // The id as `sepia list` prints it, or its start (like show).
  const s = matchSession(lib.sessions, id, o.agent)
  if (!s) throw sessionNotFound(id, lib.homes, o.homes)
  if (lib.homes.find((h) => h.path === s.home)?.isDemo) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${id}" is a session of the demo library, which Sepia shows when it finds no agent history of yours; put-back writes archived sessions of your own home back.` })
  if (resolve(s.home) !== resolve(processContext({ mode: 'browser' }).ownHome)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `${s.home} was opened with --home, so Sepia only reads it and never writes into it; put-back writes archived sessions of your own home back.` })
  let r
  try {
    r = await api.putBack(s.agent, s.id)
  } catch (e) {
    if (SepiaError.from(e).code !== 'SESSION_NOT_FOUND') throw e
    // The archive holds no copy of it: say why, and what to do.
    const st = await api.getArchiveStatus()
    const why = !st.settings.enabled
      ? `the archive is off, so nothing of your history is copied. "sepia archive on" keeps a copy of every session from now on (a session already deleted cannot be got back)`
      : `the archive is on but holds no copy of it (it copies sessions as Sepia reads your home; this one may be left out in the archive's settings or past its size cap: see "sepia archive status")`
    throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `Sepia's archive has no copy of the ${s.agent} session ${s.id}: ${why}.${s.archived ? '' : ' Its files are still in its agent\'s store, so there is nothing to put back.'}` })
  }
  if (o.json) out.write(JSON.stringify(r, null, 2) + '\n')
  else {
    const lines = [`Put back ${plural(r.written.length, 'file')} of ${r.agent} session ${r.sessionId}${r.verified ? ' (read back: identical to the archived copy)' : ' (READ BACK FAILED)'}.`]
    for (const p of r.written) lines.push(`  wrote ${p}`)
    for (const s of r.skipped) lines.push(`  left ${s.path}: ${s.reason}`)
    for (const row of r.rows) lines.push(`  added its ${row.table} row to ${row.dbPath}${row.backup ? ` (backup: ${row.backup})` : ''}`)
    if (r.resumeCommand) lines.push(`Resume it with: ${r.resumeCommand}`)
    out.write(safeText(lines.join('\n') + '\n'))
  }
  return r.verified ? 0 : 1
}
