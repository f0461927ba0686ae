/**
 * `sepia bundle`, `sepia install-bundle`, `sepia move` (issue 19 "Move to another machine or
 * folder"; the API's `bundleSession`, `installBundle`, `moveSession`, src/main/move/):
 *
 *   sepia bundle <session-id> --out FILE [--agent ID] [--home DIR]
 *   sepia install-bundle FILE [--project DIR] [--target-home DIR]
 *   sepia move <session-id> --to-project DIR [--remove-original] [--agent ID] [--home DIR]
 *
 * Paths typed on the command line are the user's choice (the API's path policy allows them). A
 * project folder given in another OS's style (`C:\Users\ana\x` on Linux) is kept as typed, not
 * resolved against the shell's folder.
 * Exit codes: 0 done (and read back), 1 failure, 2 bad usage.
 */
import { dirname, resolve } from 'node:path'
import { SepiaError } from '../shared/api'
import type { InstallBundleOptions, InstallBundleResult } from '../shared/move'
import type { SepiaService } from '../main/api'
import { isAbsoluteAnyStyle } from '../main/move/paths'
import { sessionNotFound } from './terminal'
import { plural } from '../shared/plural'

const COL = ' '.repeat(48)

/** Usage lines for the CLI's help. */
export const MOVE_USAGE = `  sepia bundle <session-id> --out FILE          write one session (sub-agents, checkpoints, file history) as a
${COL}session bundle zip for another computer; SECRETS INCLUDED (your own data, as stored)
  sepia install-bundle FILE [--project DIR] [--target-home DIR]
${COL}install a session bundle here, its project folder remapped (any OS to any OS)
  sepia move <session-id> --to-project DIR [--remove-original]
${COL}move a session to another project folder on this computer (a copy with a new id;
${COL}--remove-original removes the original after a backup in Sepia's data folder)
`

/** Options read from the command line. */
export interface MoveCliOptions {
  out?: string
  agent?: string
  project?: string
  toProject?: string
  targetHome?: string
  removeOriginal?: boolean
  json?: boolean
  homes?: string[]
}

type Out = NodeJS.WritableStream

/** A typed folder: absolute in either OS style as typed, else resolved against the shell's folder. */
const folderArg = (p: string): string => (isAbsoluteAnyStyle(p) ? p : resolve(p))

async function pickSession(api: SepiaService, id: string, o: MoveCliOptions) {
  for (const h of o.homes ?? []) api.paths.allow(resolve(h), 'picked') // a home typed on the command line: chosen by the user
  const lib = await api.getLibrary()
  const matches = lib.sessions.filter((s) => (s.id === id || s.id.startsWith(id)) && (!o.agent || s.agent === o.agent))
  const exact = matches.filter((s) => s.id === id)
  const pick = exact.length > 0 ? exact : matches
  if (pick.length === 0) throw sessionNotFound(id, lib.homes, o.homes)
  if (pick.length > 1) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${id}" matches ${pick.length} sessions; give more of the id or --agent.` })
  return pick[0]!
}

function installLines(r: InstallBundleResult): string[] {
  return [
    `Installed ${r.agent} session ${r.sessionId}${r.sessionId !== r.originalSessionId ? ` (a new id: ${r.originalSessionId} is already in this store)` : ''}`,
    `  project folder: ${r.projectPath}${r.projectPath !== r.originalProjectPath ? ` (was ${r.originalProjectPath})` : ''}`,
    ...(r.subagentIds.length ? [`  sub-agents: ${r.subagentIds.join(', ')}`] : []),
    `  read back: ${r.readBack.messages} entries: messages, tool results and markers (the bundle had ${r.readBack.expectedMessages}), project folder ${r.readBack.workingDirectory}`,
    ...r.files.map((f) => `  wrote ${f}`),
    ...r.backups.map((b) => `  backup of the database: ${b}`),
    ...(r.notes ?? []).map((n) => `  note: ${n}`),
    `Resume it: cd ${r.projectPath} && ${r.resumeCommand}`,
  ]
}

/** Run one of the three commands. Resolves the exit code; API errors are thrown for the caller to print. */
export async function runMoveCommand(command: 'bundle' | 'install-bundle' | 'move', api: SepiaService, args: string[], o: MoveCliOptions, out: Out, err: Out): Promise<number> {
  const first = args[0]
  if (command === 'bundle') {
    if (!first || !o.out) {
      err.write(`sepia bundle needs a session id and --out FILE.\n\n${MOVE_USAGE}`)
      return 2
    }
    const s = await pickSession(api, first, o)
    const outPath = resolve(o.out)
    api.paths.allow(dirname(outPath), 'picked')
    const r = await api.bundleSession(s.agent, s.id, { outPath })
    if (o.json) out.write(JSON.stringify(r, null, 2) + '\n')
    else {
      out.write(
        [
          `Wrote ${r.path}: ${r.agent} session ${r.sessionId}, ${plural(r.files, 'file')} (${Math.round(r.bytes / 1024)} KB)${r.subagentIds.length ? `, ${plural(r.subagentIds.length, 'sub-agent')}` : ''}.`,
          `  project folder: ${r.projectPath}`,
          '  This bundle holds the session exactly as stored, SECRETS INCLUDED (API keys, tokens in the transcript):',
          '  it is meant for your own other computer. To share a session with someone, use `sepia collect` or `sepia export`.',
          `  On the other computer: sepia install-bundle ${r.path} --project <the project folder there>`,
          '',
        ].join('\n'),
      )
    }
    return 0
  }
  if (command === 'install-bundle') {
    if (!first) {
      err.write(`sepia install-bundle needs the bundle file.\n\n${MOVE_USAGE}`)
      return 2
    }
    const options: InstallBundleOptions = {}
    if (o.project) options.project = folderArg(o.project)
    if (o.targetHome) {
      const abs = resolve(o.targetHome)
      api.paths.allow(abs, 'picked')
      options.targetHome = abs
    }
    const r = await api.installBundle(resolve(first), options)
    out.write(o.json ? JSON.stringify(r, null, 2) + '\n' : installLines(r).join('\n') + '\n')
    return 0
  }
  if (!first || !o.toProject) {
    err.write(`sepia move needs a session id and --to-project DIR.\n\n${MOVE_USAGE}`)
    return 2
  }
  const s = await pickSession(api, first, o)
  const r = await api.moveSession(s.agent, s.id, { toProject: folderArg(o.toProject), removeOriginal: o.removeOriginal === true })
  if (o.json) out.write(JSON.stringify(r, null, 2) + '\n')
  else {
    const orig = r.original.kept
      ? [`The original ${r.original.sessionId} is kept where it was (--remove-original removes it after a backup).`]
      : [`The original ${r.original.sessionId} was removed; its backup: ${r.original.backup} (sepia install-bundle puts it back).`, ...r.original.databaseBackups.map((b) => `  backup of the database: ${b}`)]
    out.write([...installLines(r.install), ...orig, ''].join('\n'))
  }
  return 0
}
