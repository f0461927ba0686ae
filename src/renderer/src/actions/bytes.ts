/** Byte sizes for people: `512 B`, `1.4 KB`, `3.2 MB` (1 KB = 1024 bytes), in the user's locale. */
import { displayLocale } from '../format'

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const

/** `bytes` (a count of bytes) as a short size. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return ''
  let v = bytes
  let u = 0
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024
    u++
  }
  const digits = u === 0 || v >= 100 ? 0 : 1
  return `${new Intl.NumberFormat(displayLocale(), { maximumFractionDigits: digits }).format(v)} ${UNITS[u]}`
}
