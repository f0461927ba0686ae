/**
 * Exports (issue "Exports"): one session, a selection, a project or everything, to Markdown,
 * self-contained HTML, IR JSON, ATIF v1.7 or PDF, one file per session with a safe file name.
 * Every session is masked first (`mask.ts`: secrets as in the safety feature), then rendered with
 * the "include thinking / tool output" choice.
 *
 * Sessions are loaded and written one at a time (10,000 sessions never sit in memory together);
 * progress is reported per file; an AbortSignal stops between files.
 *
 * The HTML renderer (markdown-it, whose entity and TLD tables are built when it loads) and the
 * ATIF converter and validator (~0.2 MB of schema code) are imported by the first export that
 * needs them, not by every command that loads the API (issue 15: a warm `sepia list` or
 * `sepia search` loaded and ran them for nothing).
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { SepiaError } from '../../shared/api'
import type { ExportFormat } from '../../shared/export'
import type { Session } from '../../shared/ir'
import { sessionToJsonText } from './json'
import { sessionToMarkdown } from './markdown'
import { maskForExport } from './mask'
import { openPdfPrinter, type PdfPrinter, type PdfPrinterOptions } from './pdf'
import type { ContentChoice } from './rows'
import { writeNewFileAtomic, type WriteHooks } from './write'
import { plural } from '../../shared/plural'

/** Export formats (issue "Exports"; `--format md|html|json|atif|pdf`), as in the API. */
export type { ExportFormat }

/** File extension and MIME type of each format. */
export const FORMAT_FILES: Record<ExportFormat, { ext: string; mimeType: string; binary: boolean }> = {
  md: { ext: '.md', mimeType: 'text/markdown; charset=utf-8', binary: false },
  html: { ext: '.html', mimeType: 'text/html; charset=utf-8', binary: false },
  json: { ext: '.json', mimeType: 'application/json', binary: false },
  atif: { ext: '.atif.json', mimeType: 'application/json', binary: false },
  pdf: { ext: '.pdf', mimeType: 'application/pdf', binary: true },
}

/** True when `v` names an export format. */
export function isExportFormat(v: unknown): v is ExportFormat {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(FORMAT_FILES, v)
}

/** What the exporter needs from its host. */
export interface ExportDeps {
  /** `Sepia <version>`, written into each export. */
  exportedBy: string
  /** ms since epoch. */
  now: () => number
  /** How to print PDFs (Electron hook, or a local Chromium). Required for `pdf`. */
  pdf?: PdfPrinterOptions
  /** Child (sub-agent) sessions to embed in an ATIF export; none when absent. */
  childrenOf?: (session: Session) => Promise<Session[]>
  /** Progress: files done, files in total, phase (`export`). */
  onProgress?: (done: number, total: number, phase: string) => void
  signal?: AbortSignal
  /** Test hooks for the atomic write. */
  writeHooks?: WriteHooks
}

/** One export rendered in memory. */
export interface RenderedExport {
  fileName: string
  mimeType: string
  /** Text for md/html/json/atif, bytes for pdf. */
  data: string | Uint8Array
}

/**
 * Render one (unmasked) session in `format`: masks it, applies the content choice, and for ATIF
 * validates the document (a failure is a bug: SepiaError `INTERNAL` listing the problems).
 * `printer` is used for PDF (opened from `deps.pdf` when absent, and closed again).
 */
export async function renderExport(session: Session, format: ExportFormat, options: ContentChoice, deps: ExportDeps, printer?: PdfPrinter): Promise<RenderedExport> {
  const masked = maskForExport(session)
  const { mimeType } = FORMAT_FILES[format]
  const fileName = exportFileName(session, format)
  const at = deps.now()
  switch (format) {
    case 'md':
      return { fileName, mimeType, data: sessionToMarkdown(masked, { thinking: options.includeThinking !== false, toolOutput: options.includeToolOutput !== false, maxToolOutput: 200_000 }) }
    case 'html': {
      const { sessionToHtml } = await import('./html')
      return { fileName, mimeType, data: sessionToHtml(masked, { ...options, generator: deps.exportedBy, exportedAt: at }) }
    }
    case 'json':
      return { fileName, mimeType, data: sessionToJsonText(masked, { ...options, exportedAt: at, exportedBy: deps.exportedBy }) }
    case 'atif': {
      const [{ sessionToAtif }, { validateAtif }] = await Promise.all([import('./atif'), import('./atif-validate')])
      const children = deps.childrenOf ? await collectChildren(masked, deps.childrenOf) : new Map<string, Session[]>()
      const doc = sessionToAtif(masked, { ...options, exportedBy: deps.exportedBy, childrenOf: (s) => children.get(s.id) ?? [] })
      const errors = validateAtif(doc)
      if (errors.length) throw new SepiaError({ code: 'INTERNAL', message: `The ATIF export of session ${session.id} does not validate: ${errors.slice(0, 5).join('; ')}` })
      return { fileName, mimeType, data: JSON.stringify(doc, null, 2) + '\n' }
    }
    case 'pdf': {
      const own = printer ?? (await openPdfPrinter(pdfOptions(deps)))
      try {
        const { sessionToHtml } = await import('./html')
        const html = sessionToHtml(masked, { ...options, openDetails: true, generator: deps.exportedBy, exportedAt: at })
        return { fileName, mimeType, data: await own.print(html) }
      } finally {
        if (!printer) await own.close()
      }
    }
  }
}

/** A session to export: the session, or a function loading it (so a batch loads one at a time). */
export type ExportSource = Session | (() => Promise<Session>)

/** A file an export wrote. */
export interface ExportedFile {
  /** Absolute path. */
  path: string
  /** Size in bytes. */
  bytes: number
  agent: Session['agent']
  sessionId: string
}

/**
 * Export sessions to `outDir` (created when missing), one file per session. Never overwrites a
 * file: a name already taken gets ` (2)`, ` (3)`… Writes are atomic. Rejects with `CANCELLED`
 * when `deps.signal` aborts (the files written so far stay and are named in the message),
 * `UNAVAILABLE` for PDF without an engine, `WRITE_FAILED` when the folder cannot be written.
 */
export async function exportSessions(sessions: readonly ExportSource[], format: ExportFormat, options: ContentChoice, outDir: string, deps: ExportDeps): Promise<ExportedFile[]> {
  try {
    await mkdir(outDir, { recursive: true })
  } catch (e) {
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not create the folder ${outDir}: ${(e as Error).message}. Choose another folder.`, path: outDir })
  }
  const printer = format === 'pdf' && sessions.length > 0 ? await openPdfPrinter(pdfOptions(deps)) : undefined
  const files: ExportedFile[] = []
  try {
    deps.onProgress?.(0, sessions.length, 'export')
    for (const source of sessions) {
      if (deps.signal?.aborted) {
        throw new SepiaError({ code: 'CANCELLED', message: `Export cancelled after ${files.length} of ${plural(sessions.length, 'file')}; those are in ${outDir}.`, path: outDir })
      }
      const session = typeof source === 'function' ? await source() : source
      const r = await renderExport(session, format, options, deps, printer)
      let written
      try {
        written = await writeNewFileAtomic(join(outDir, r.fileName), r.data, deps.writeHooks)
      } catch (e) {
        throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write ${r.fileName} in ${outDir}: ${(e as Error).message}. Nothing was left half-written.`, path: outDir })
      }
      files.push({ ...written, agent: session.agent, sessionId: session.id })
      deps.onProgress?.(files.length, sessions.length, 'export')
    }
  } finally {
    await printer?.close()
  }
  return files
}

/**
 * A file name for a session's export, safe on every OS: `<agent>_<yyyy-mm-dd>_<title>_<id><ext>`,
 * only letters, digits, `.`, `-`, `_`; title cut to 40 and id to 48 characters.
 */
export function exportFileName(session: Session, format: ExportFormat): string {
  const date = session.createdAt !== undefined ? new Date(session.createdAt).toISOString().slice(0, 10) : ''
  const title = slug(session.title ?? '', 40)
  const parts = [session.agent, date, title, slug(session.id, 48) || 'session'].filter(Boolean)
  return parts.join('_') + FORMAT_FILES[format].ext
}

function slug(text: string, max: number): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, max)
    .replace(/[-.]+$/g, '')
}

function pdfOptions(deps: ExportDeps): PdfPrinterOptions {
  if (!deps.pdf) throw new SepiaError({ code: 'UNAVAILABLE', message: 'PDF export is not available here.' })
  return deps.pdf
}

/** Children of a session and of its children, by parent id (cycles and repeats ignored). */
async function collectChildren(root: Session, childrenOf: (s: Session) => Promise<Session[]>): Promise<Map<string, Session[]>> {
  const out = new Map<string, Session[]>()
  const seen = new Set([root.id])
  const queue = [root]
  while (queue.length) {
    const s = queue.shift()!
    const kids = (await childrenOf(s)).filter((k) => !seen.has(k.id)).map(maskForExport)
    for (const k of kids) seen.add(k.id)
    if (kids.length) out.set(s.id, kids)
    queue.push(...kids)
  }
  return out
}

export { findChromium, openPdfPrinter } from './pdf'
export type { ContentChoice } from './rows'
