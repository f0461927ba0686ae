/**
 * `sepia bundle`, `sepia install-bundle`, `sepia move` (issue 19 "Move to another machine or
 * folder"; the API's `bundleSession`, `installBundle`, `moveSession`, src/main/move/):
 *
 *   sepia bundle <session-id> --out FILE [--agent ID] [--home DIR]
 *   sepia install-bundle FILE [--project DIR] [--target-home DIR]
 *   sepia move <session-id> --to-project DIR [--remove-original] [--agent ID] [--home DIR]
 *
 * Paths typed on the command line are the user's choice (the API's path policy allows them), but a
 * home given with --home is only read: `move` refuses a session of a home that is not the user's own
 * (`install-bundle --target-home` is the explicit way to write into another home). A
 * project folder given in another OS's style (`C:\Users\ana\x` on Linux) is kept as typed, not
 * resolved against the shell's folder.
 * Exit codes: 0 done (and read back), 1 failure, 2 bad usage.
 */
import { dirname, resolve } from 'node:path'
import type { InstallBundleOptions, InstallBundleResult } from '../shared/move'
import type { SepiaService } from '../main/api'
import { isAbsoluteAnyStyle } from '../main/move/paths'
import { pasteableId, sessionNotFound } from './terminal'
import { shellQuote } from '../shared/convert'
import { processContext } from '../main/host'
import { plural } from '../shared/plural'
import { matchSession } from './pick'

const COL = ' '.repeat(48)

/** Usage lines for the CLI's help. */
export const MOVE_USAGE = `  sepia bundle <session-id> --out FILE [--home DIR]
${COL}write one session (sub-agents, checkpoints, file history) as a
${COL}session bundle zip for another computer; SECRETS INCLUDED (your own data, as stored)
  sepia install-bundle FILE [--project DIR] [--target-home DIR]
${COL}install a session bundle here, its project folder remapped (any OS to any OS)
  sepia move <session-id> --to-project DIR [--remove-original]
${COL}move a session of your own home to another project folder (a copy with a new id;
${COL}--remove-original removes the original after a backup in Sepia's data folder);
${COL}a home opened with --home is only read: bundle, then install-bundle --target-home
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
  const lib = await api.getLibrary()
  const s = matchSession(lib.sessions, id, o.agent)
  if (!s) throw sessionNotFound(id, lib.homes, o.homes)
  return s
}

function installLines(r: InstallBundleResult): string[] {
  return [
    `Installed ${r.agent} session ${r.sessionId}${r.sessionId !== r.originalSessionId ? ` (a new id: ${r.originalSessionId} is already in this store)` : ''}`,
    `  project folder: ${r.projectPath}${r.projectPath !== r.originalProjectPath ? ` (was ${r.originalProjectPath})` : ''}`,
    ...(r.subagentIds.length ? [`  sub-agents: ${r.subagentIds.join(', ')}`] : []),
    `  read back: ${plural(r.readBack.messages, 'entry', 'entries')}: messages, tool results and markers (the bundle had ${r.readBack.expectedMessages}), project folder ${r.readBack.workingDirectory}`,
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
      err.write(`sepia: sepia bundle needs a session id and --out FILE.\n\n${MOVE_USAGE}`)
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
    err.write(`sepia: sepia move needs a session id and --to-project DIR.\n\n${MOVE_USAGE}`)
    return 2
  }
  const s = await pickSession(api, first, o)
  // A home opened with --home is only read (README "Open a copied home folder"): say so and what does the same.
  if (resolve(s.home) !== resolve(processContext({ mode: 'browser' }).ownHome)) {
    err.write(
      `sepia: ${s.home} was opened with --home, so Sepia only reads it: it never writes into it or deletes from it, and "sepia move" moves sessions within your own home only.\n` +
        `To put a copy of the session into a home of your choice under another project folder:\n` +
        `  sepia bundle ${pasteableId(s.id)} --home ${shellQuote(s.home)} --out session.zip\n` +
        `  sepia install-bundle session.zip --project ${shellQuote(o.toProject)} --target-home <that home>\n`,
    )
    return 1
  }
  const r = await api.moveSession(s.agent, s.id, { toProject: folderArg(o.toProject), removeOriginal: o.removeOriginal === true })
  if (o.json) out.write(JSON.stringify(r, null, 2) + '\n')
  else {
    const orig = r.original.kept
      ? [`The original ${r.original.sessionId} is kept where it was (--remove-original removes it after a backup).`]
      : [`The original ${r.original.sessionId} was removed; its backup: ${r.original.backup} (put it back with: sepia install-bundle ${shellQuote(r.original.backup ?? '')}).`, ...r.original.databaseBackups.map((b) => `  backup of the database: ${b}`)]
    out.write([...installLines(r.install), ...orig, ''].join('\n'))
  }
  return 0
}
