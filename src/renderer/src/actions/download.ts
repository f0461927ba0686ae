/**
 * Downloads in browser mode: an {@link ExportContent} (text, or base64 bytes for PDF) turned into
 * a Blob and saved through a temporary `<a download>` link.
 */
import type { ExportContent } from '../../../shared/export'

/** The bytes of a base64 string. */
export function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

/** The export's content as a Blob of its MIME type (base64 decoded to bytes). */
export function contentToBlob(c: ExportContent): Blob {
  const part: BlobPart = c.encoding === 'base64' ? (base64ToBytes(c.content) as Uint8Array<ArrayBuffer>) : c.content
  return new Blob([part], { type: c.mimeType })
}

/** Save `blob` as `fileName` (the browser's download). */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = fileName
  a.rel = 'noopener'
  a.style.display = 'none'
  document.body.appendChild(a)
  a.click()
  a.remove()
  // Give the browser time to start reading the blob before it is released.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
