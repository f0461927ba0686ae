/**
 * The text of a PDF, for tests: `pdftotext` (poppler-utils) when installed; otherwise a small
 * reader for the PDFs Chromium writes — inflate every FlateDecode stream, read the ToUnicode
 * CMaps (`bfchar`/`bfrange`), and decode the hex strings of `Tj`/`TJ` operators with each font's
 * map (the font is tracked by `Tf`; its CMap is found through the font dictionaries). Whitespace
 * is collapsed and ligatures (`ﬁ`) are unfolded (NFKC) in the result either way.
 */
import { spawnSync } from 'node:child_process'
import { inflateSync } from 'node:zlib'

/** The text of `pdf`, whitespace collapsed to single spaces. */
export function pdfText(pdf: Uint8Array): string {
  const r = spawnSync('pdftotext', ['-layout', '-', '-'], { input: Buffer.from(pdf), maxBuffer: 64 << 20 })
  const raw = r.status === 0 && !r.error ? r.stdout.toString('utf8') : fallbackText(Buffer.from(pdf))
  return raw.normalize('NFKC').replace(/\s+/g, ' ').trim()
}

/** True when `pdftotext` can be run here. */
export function hasPdfToText(): boolean {
  const r = spawnSync('pdftotext', ['-v'])
  return !r.error
}

interface PdfObject {
  dict: string
  stream?: Buffer
}

function objects(pdf: Buffer): Map<number, PdfObject> {
  const text = pdf.toString('latin1')
  const out = new Map<number, PdfObject>()
  const re = /(\d+) 0 obj\b/g
  let m: RegExpExecArray | null
  while ((m = re.exec(text))) {
    const start = m.index + m[0].length
    const end = text.indexOf('endobj', start)
    if (end < 0) break
    const body = text.slice(start, end)
    const s = body.indexOf('stream')
    const obj: PdfObject = { dict: s >= 0 ? body.slice(0, s) : body }
    if (s >= 0) {
      let from = start + s + 'stream'.length
      if (text[from] === '\r') from++
      if (text[from] === '\n') from++
      const to = text.lastIndexOf('endstream', end)
      const raw = pdf.subarray(from, to)
      try {
        obj.stream = /FlateDecode/.test(obj.dict) ? inflateSync(raw) : raw
      } catch {
        obj.stream = raw
      }
    }
    out.set(Number(m[1]), obj)
    re.lastIndex = end
  }
  return out
}

function cmap(text: string): Map<number, string> {
  const map = new Map<number, string>()
  const hexToStr = (h: string) => {
    let s = ''
    for (let i = 0; i + 4 <= h.length; i += 4) s += String.fromCharCode(parseInt(h.slice(i, i + 4), 16))
    return s
  }
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const p of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(parseInt(p[1]!, 16), hexToStr(p[2]!))
  }
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const p of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      const lo = parseInt(p[1]!, 16)
      const hi = parseInt(p[2]!, 16)
      const base = parseInt(p[3]!, 16)
      for (let c = lo; c <= hi; c++) map.set(c, String.fromCharCode(base + c - lo))
    }
  }
  return map
}

/** The fallback reader alone (tested even where pdftotext exists), whitespace collapsed. */
export function fallbackPdfText(pdf: Uint8Array): string {
  return fallbackText(Buffer.from(pdf)).normalize('NFKC').replace(/\s+/g, ' ').trim()
}

function fallbackText(pdf: Buffer): string {
  const objs = objects(pdf)
  // Font resource name → CMap, through every /Font dictionary (`/F4 12 0 R`) and the font's /ToUnicode.
  const fontMaps = new Map<string, Map<number, string>>()
  for (const o of objs.values()) {
    const fonts = /\/Font\s*<<([^>]*)>>/.exec(o.dict)
    if (!fonts) continue
    for (const f of fonts[1]!.matchAll(/\/(\w+)\s+(\d+) 0 R/g)) {
      const font = objs.get(Number(f[2]))
      const tu = font && /\/ToUnicode\s+(\d+) 0 R/.exec(font.dict)
      const stream = tu && objs.get(Number(tu[1]))?.stream
      if (stream) fontMaps.set(f[1]!, cmap(stream.toString('latin1')))
    }
  }
  let out = ''
  for (const o of objs.values()) {
    if (!o.stream) continue
    const content = o.stream.toString('latin1')
    if (!/\b(Tj|TJ)\b/.test(content)) continue
    let current: Map<number, string> | undefined
    for (const op of content.matchAll(/\/(\w+)\s+[\d.]+\s+Tf|(\[[^\]]*\]|<[0-9a-fA-F]*>)\s*(TJ|Tj)|\b(ET)\b/g)) {
      if (op[1]) current = fontMaps.get(op[1])
      else if (op[4]) out += '\n'
      else if (op[2]) {
        for (const h of op[2].matchAll(/<([0-9a-fA-F]*)>/g)) {
          const hex = h[1]!
          for (let i = 0; i + 4 <= hex.length; i += 4) out += current?.get(parseInt(hex.slice(i, i + 4), 16)) ?? ''
        }
        if (op[2].startsWith('[')) for (const gap of op[2].matchAll(/>\s*(-?\d+)\s*</g)) if (Number(gap[1]) < -200) out += ' '
      }
    }
  }
  return out
}
