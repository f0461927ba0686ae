/**
 * `sepia export` and `sepia collect` (issue "Exports" and "Review bundles"):
 *
 *   sepia export <session-id>... | --project P | --all  --format md|html|json|atif|pdf --out DIR
 *                [--no-thinking] [--no-tool-output] [--agent ID] [--home DIR]... [--json]
 *   sepia collect [--home DIR]... --out PATH [--zip] [--include-credentials] [--json]
 *
 * Both go through the API (`exportSessions`, `collectForReview`); the paths typed here count as
 * chosen by the user (the API's path policy allows them).
 */
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { SepiaError } from '../shared/api'
import type { ExportSelection } from '../shared/export'
import type { SepiaService } from '../main/api'
import { isExportFormat } from '../main/export'
import { resolveHome } from '../main/platform'
import { sessionNotFound } from './terminal'
import { plural } from '../shared/plural'
import { matchSession } from './pick'

/** Usage lines of the two commands (inserted in the CLI's usage text). */
export const EXPORT_USAGE = `  sepia export <session-id>... | --project P | --all  --format md|html|json|atif|pdf --out DIR
               [--no-thinking] [--no-tool-output] [--home DIR]
                                                one file per session, secrets masked
  sepia collect [--home DIR] --out PATH [--zip] [--include-credentials]
                                                copy the agent stores into a review bundle
`

/** Options the CLI parsed for these commands. */
export interface ExportCliOptions {
  format?: string
  out?: string
  project?: string
  all: boolean
  agent?: string
  noThinking: boolean
  noToolOutput: boolean
  zip: boolean
  includeCredentials: boolean
  homes: string[]
  json: boolean
}

/** Run `sepia export`. Resolves the exit code (2 for bad usage). */
export async function runExport(api: SepiaService, ids: string[], o: ExportCliOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  if (!o.format || !isExportFormat(o.format)) return usage(err, 'sepia export needs --format md, html, json, atif or pdf.')
  if (!o.out) return usage(err, 'sepia export needs --out DIR, the folder to write the files in.')
  const chosen = [ids.length > 0, o.project !== undefined, o.all].filter(Boolean).length
  if (chosen !== 1) return usage(err, 'sepia export needs session ids, or --project P, or --all (one of them).')
  let sessions: ExportSelection
  if (o.all) sessions = { all: true }
  else if (o.project !== undefined) sessions = { project: o.project }
  else {
    const lib = await api.getLibrary()
    sessions = ids.map((id) => {
      const s = matchSession(lib.sessions, id, o.agent)
      if (!s) throw sessionNotFound(id, lib.homes, o.homes)
      return { agent: s.agent, id: s.id }
    })
  }
  const outDir = resolve(o.out)
  api.paths.allow(outDir, 'picked')
  const result = await api.exportSessions({ sessions, format: o.format, outDir, includeThinking: !o.noThinking, includeToolOutput: !o.noToolOutput })
  if (o.json) out.write(JSON.stringify(result, null, 2) + '\n')
  else {
    out.write(`Wrote ${plural(result.files.length, 'file')} to ${result.outDir}\n`)
    for (const f of result.files) out.write(`  ${f.path}  (${plural(f.bytes, 'byte')})\n`)
  }
  return 0
}

/** Run `sepia collect`. Resolves the exit code. */
export async function runCollect(api: SepiaService, o: ExportCliOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  if (!o.out) return usage(err, 'sepia collect needs --out PATH (a new folder, or a new .zip file with --zip).')
  const homes = (o.homes.length > 0 ? o.homes : [resolveHome(process.env, homedir)]).map((h) => resolve(h))
  for (const h of homes) api.paths.allow(h, 'home') // read only: a home collected from is never written
  const outPath = resolve(o.out)
  api.paths.allow(resolve(outPath, '..'), 'picked')
  const r = await api.collectForReview({ target: o.zip ? 'zip' : 'folder', outPath, includeCredentials: o.includeCredentials, homes })
  if (o.json) out.write(JSON.stringify(r, null, 2) + '\n')
  else {
    out.write(`Collected ${plural(r.files, 'file')}, ${plural(r.bytes, 'byte')}, into ${r.path}\n`)
    for (const [agent, n] of Object.entries(r.byAgent)) out.write(`  ${agent}: ${plural(n, 'file')}\n`)
    if (r.credentialsLeftOut > 0) out.write(`${plural(r.credentialsLeftOut, 'credential file')} left out (--include-credentials copies them).\n`)
  }
  for (const w of r.warnings) err.write(`warning: ${w}\n`)
  return 0
}

function usage(err: NodeJS.WritableStream, message: string): number {
  err.write(`${message}\n\n${EXPORT_USAGE}`)
  return 2
}
