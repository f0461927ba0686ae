#!/usr/bin/env node
// Draws build/icon.png (512×512): a sepia rounded square with a light page and a speech mark.
// Run once when the design changes; electron-builder derives the .ico/.icns from the PNG.
import { writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const S = 512
const px = Buffer.alloc(S * S * 4)
const inRounded = (x, y, x0, y0, x1, y1, r) => {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r)
  const cy = Math.min(Math.max(y, y0 + r), y1 - r)
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
}
for (let y = 0; y < S; y++) {
  for (let x = 0; x < S; x++) {
    const i = (y * S + x) * 4
    let c = [0, 0, 0, 0]
    if (inRounded(x, y, 16, 16, 496, 496, 96)) {
      const t = y / S
      c = [Math.round(150 - 50 * t), Math.round(98 - 38 * t), Math.round(56 - 26 * t), 255]
      if (inRounded(x, y, 120, 104, 392, 344, 36)) c = [246, 236, 218, 255]
      // the bubble's tail
      if (y >= 340 && y <= 410 && x >= 170 && x <= 250 && x - 170 <= (410 - y) * 1.1) c = [246, 236, 218, 255]
      // three text lines
      for (const [ly, lw] of [[160, 220], [214, 180], [268, 200]]) {
        if (y >= ly && y < ly + 22 && x >= 156 && x < 156 + lw && inRounded(x, y, 156, ly, 156 + lw, ly + 22, 11)) c = [120, 80, 48, 255]
      }
    }
    px.set(c, i)
  }
}
const rows = Buffer.alloc((S * 4 + 1) * S)
for (let y = 0; y < S; y++) px.copy(rows, y * (S * 4 + 1) + 1, y * S * 4, (y + 1) * S * 4)
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc = (buf) => {
  let c = 0xffffffff
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type, data) => {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type), data])
  const c = Buffer.alloc(4)
  c.writeUInt32BE(crc(td))
  return Buffer.concat([len, td, c])
}
const ihdr = Buffer.alloc(13)
ihdr.writeUInt32BE(S, 0)
ihdr.writeUInt32BE(S, 4)
ihdr[8] = 8
ihdr[9] = 6
const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))])
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), 'icon.png'), png)
