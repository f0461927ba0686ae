/**
 * The export methods of the API (`exportSessions`, `exportSessionContent`): argument checks in
 * main, the selection resolved against the library, then `index.ts` does the work. `api.ts`
 * delegates here.
 */
import { resolve } from 'node:path'
import { SepiaError, type Library, type SepiaApi } from '../../shared/api'
import type { ExportContentOptions, ExportRequest, ExportResult } from '../../shared/export'
import { isAgentId, type AgentId, type Session, type SessionSummary } from '../../shared/ir'
import type { TaskRegistry } from '../bundle/tasks'
import { storeRoots } from '../bundle/rules'
import type { AppContext } from '../context'
import type { PathPolicy } from '../paths'
import { isInside } from '../paths'
import type { HomeLayout } from '../platform'
import { exportSessions, FORMAT_FILES, isExportFormat, renderExport, type ExportDeps, type ExportFormat } from './index'
import { unreadAgentNames, unreadSentence } from '../health/unread'
import { runWriteJob } from '../util/write-journal'

/** What the export methods need from the API. */
export interface ExportServiceDeps {
  context: AppContext
  /** The library (sessions come out of it masked). */
  library: { load(): Promise<Library>; getSession(agent: AgentId, id: string): Promise<Session>; readonly openHomes: readonly { layout: HomeLayout }[] }
  paths: PathPolicy
  tasks: TaskRegistry
  /** Opens the start-up homes when nothing is open yet. */
  init: () => Promise<void>
  /** The app's data folder (default export folder). */
  appDataDir: string
  now: () => number
}

/** The two export methods. */
export function createExportMethods(d: ExportServiceDeps): Pick<SepiaApi, 'exportSessions' | 'exportSessionContent'> {
  const deps = (): ExportDeps => {
    const out: ExportDeps = {
      exportedBy: `Sepia ${d.context.version}`,
      now: d.now,
      pdf: { os: d.context.platform, env: d.context.env },
      childrenOf: async (s) => {
        const kids: Session[] = []
        for (const id of s.childSessionIds ?? []) {
          try {
            kids.push(await d.library.getSession(s.agent, id))
          } catch {
            // a child that cannot be read is left out of the ATIF document
          }
        }
        return kids
      },
    }
    if (d.context.printToPdf) out.pdf!.printToPdf = d.context.printToPdf
    return out
  }

  return {
    async exportSessions(request: ExportRequest): Promise<ExportResult> {
      // The task is registered at once, so progress can be asked for as soon as the call is made.
      return d.tasks.run((request as ExportRequest | undefined)?.taskId, async (task) => {
        if (!request || typeof request !== 'object') throw bad('Say which sessions to export, in which format.')
        const format = checkFormat(request.format)
        const options = contentOptions(request)
        task.report(0, 0, 'scan')
        await d.init()
        const lib = await d.library.load()
        const picked = select(lib.sessions, request.sessions, lib.sessions.length === 0 ? await unreadAgentNames(d.library.openHomes.map((h) => h.layout)) : [])
        const outDir = request.outDir === undefined ? resolve(d.appDataDir, 'exports', stamp(d.now())) : await d.paths.checkWrite(request.outDir, 'The export folder', { operation: 'export', grant: request.grant })
        for (const h of d.library.openHomes) {
          for (const root of storeRoots(h.layout)) {
            if (isInside(resolve(root.dir), outDir)) throw new SepiaError({ code: 'BAD_ARGUMENT', path: outDir, message: `${outDir} is inside ${root.dir}, where an agent keeps its sessions; Sepia does not write there. Choose another folder.` })
          }
        }
        const loaders = picked.map((s) => () => d.library.getSession(s.agent, s.id))
        // A recorded write job (util/write-journal.ts): a kill leaves no temp file after the next start.
        const files = await runWriteJob(d.appDataDir, 'export', [outDir], () => exportSessions(loaders, format, options, outDir, { ...deps(), onProgress: task.report, signal: task.signal }))
        return { outDir, files }
      })
    },

    async exportSessionContent(agent: AgentId, id: string, format: ExportFormat, options?: ExportContentOptions) {
      if (!isAgentId(agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(agent)}" is not an agent Sepia knows.` })
      if (typeof id !== 'string' || id === '') throw bad('A session id is required.')
      const f = checkFormat(format)
      const o = contentOptions(options ?? {})
      await d.init()
      const session = await d.library.getSession(agent, id)
      const r = await renderExport(session, f, o, deps())
      const binary = FORMAT_FILES[f].binary
      return {
        fileName: r.fileName,
        mimeType: r.mimeType,
        encoding: binary ? ('base64' as const) : ('utf8' as const),
        content: typeof r.data === 'string' ? r.data : Buffer.from(r.data).toString('base64'),
      }
    },
  }
}

/**
 * The sessions a selection names, in the library's order (newest first) or the list's order.
 * `unread` names agents Sepia cannot read whose history the open folders hold (said when `{all}`
 * finds nothing). Throws `SESSION_NOT_FOUND` when nothing matches, `BAD_ARGUMENT` for a bad selection.
 */
export function select(sessions: readonly SessionSummary[], selection: unknown, unread: readonly string[] = []): SessionSummary[] {
  if (Array.isArray(selection)) {
    if (selection.length === 0) throw bad('Choose at least one session to export.')
    const byKey = new Map(sessions.map((s) => [`${s.agent}/${s.id}`, s]))
    const out: SessionSummary[] = []
    for (const item of selection) {
      const { agent, id } = (item ?? {}) as { agent?: unknown; id?: unknown }
      if (!isAgentId(agent) || typeof id !== 'string' || id === '') throw bad('Each session to export is {agent, id}.')
      const s = byKey.get(`${agent}/${id}`)
      if (!s) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `No ${agent} session with id ${id} is in the open folders; nothing was exported.` })
      if (!out.includes(s)) out.push(s)
    }
    return out
  }
  if (selection && typeof selection === 'object' && 'project' in selection) {
    const project = (selection as { project: unknown }).project
    if (typeof project !== 'string' || project.trim() === '') throw bad('Give the project folder whose sessions to export.')
    const out = sessionsOfProject(sessions, project)
    if (out.length === 0) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `No session in the open folders has the project ${project}. Run "sepia list" to see the projects.` })
    return out
  }
  if (selection && typeof selection === 'object' && (selection as { all?: unknown }).all === true) {
    if (sessions.length === 0) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: unread.length > 0 ? `The open folders hold no sessions Sepia can read; ${unreadSentence(unread)}` : 'The open folders hold no sessions to export.' })
    return [...sessions]
  }
  throw bad('Say which sessions to export: a list of {agent, id}, {project}, or {all: true}.')
}

/**
 * Sessions of a project: the working directory equals `project` (trailing separators and case of
 * a Windows path ignored), else — when none does — ends with it as whole folder names
 * (`--project ledger-api` matches `/home/ana/src/ledger-api`).
 */
export function sessionsOfProject(sessions: readonly SessionSummary[], project: string): SessionSummary[] {
  const norm = (p: string) => p.replace(/[\\/]+$/, '').replace(/\\/g, '/')
  const want = norm(project.trim())
  const exact = sessions.filter((s) => s.workingDirectory !== undefined && (norm(s.workingDirectory) === want || norm(s.workingDirectory).toLowerCase() === want.toLowerCase()))
  if (exact.length) return exact
  return sessions.filter((s) => s.workingDirectory !== undefined && norm(s.workingDirectory).endsWith(`/${want.replace(/^\/+/, '')}`))
}

function checkFormat(format: unknown): ExportFormat {
  if (!isExportFormat(format)) throw bad(`"${String(format)}" is not an export format; use md, html, json, atif or pdf.`)
  return format
}

function contentOptions(o: ExportContentOptions): ExportContentOptions {
  for (const k of ['includeThinking', 'includeToolOutput'] as const) {
    if (o[k] !== undefined && typeof o[k] !== 'boolean') throw bad(`${k} must be true or false.`)
  }
  return { includeThinking: o.includeThinking !== false, includeToolOutput: o.includeToolOutput !== false }
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-').slice(0, 19)
}

function bad(message: string): SepiaError {
  return new SepiaError({ code: 'BAD_ARGUMENT', message })
}
