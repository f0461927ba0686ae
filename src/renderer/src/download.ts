/**
 * Save text the API returned (CSV, JSONL) as a file: a Blob behind a temporary `<a download>`
 * link. Works in browser mode (the browser's download) and in Electron (its save dialog); nothing
 * leaves the machine.
 */
import { downloadBlob } from './actions/download'

/** Offer `text` as a download named `fileName` (`mime` e.g. `text/csv`). */
export function downloadText(fileName: string, text: string, mime: string): void {
  downloadBlob(new Blob([text], { type: `${mime};charset=utf-8` }), fileName)
}

/** A file-name-safe stamp of the local date, `YYYY-MM-DD`. */
export function fileDate(now = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}
