/**
 * Save text the API returned (CSV, JSONL) as a file: a Blob behind a temporary `<a download>`
 * link. Works in browser mode (the browser's download) and in Electron (its save dialog); nothing
 * leaves the machine.
 */

/** Offer `text` as a download named `fileName` (`mime` e.g. `text/csv`). */
export function downloadText(fileName: string, text: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mime};charset=utf-8` }))
  const a = document.createElement('a')
  a.href = url
  a.download = fileName
  a.rel = 'noopener'
  a.style.display = 'none'
  document.body.appendChild(a)
  a.click()
  a.remove()
  // Give the browser time to start reading the Blob before it is released.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** A file-name-safe stamp of the local date, `YYYY-MM-DD`. */
export function fileDate(now = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}
