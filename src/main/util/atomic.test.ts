/** writeFileAtomic: faults injected mid-write leave the target as it was and the next write works. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import * as fsp from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeFileAtomic, type AtomicFileHandle, type AtomicFs } from './atomic'

const dir = () => mkdtempSync(join(tmpdir(), 'sepia-atomic-'))
const real = fsp as unknown as AtomicFs
const errno = (code: string) => Object.assign(new Error(`${code}: injected`), { code })

/** A file system that fails at one step: `open`, the n-th `write`, `sync`, `copyFile` or `rename`. */
function faulty(step: 'open' | 'write' | 'sync' | 'copyFile' | 'rename', code = 'EIO', afterWrites = 0): AtomicFs {
  let writes = 0
  return {
    ...real,
    open: async (p, flags, mode) => {
      if (step === 'open' && flags !== 'r') throw errno(code)
      const h = await real.open(p, flags, mode)
      const wrapped: AtomicFileHandle = {
        write: async (b, o, l, pos) => {
          if (step === 'write' && writes++ >= afterWrites) throw errno(code)
          return h.write(b, o, l, pos)
        },
        sync: async () => {
          if (step === 'sync') throw errno(code)
          return h.sync()
        },
        close: () => h.close(),
      }
      return wrapped
    },
    copyFile: async (a, b, m) => {
      if (step === 'copyFile') throw errno(code)
      return real.copyFile(a, b, m)
    },
    rename: async (a, b) => {
      if (step === 'rename') throw errno(code)
      return real.rename(a, b)
    },
  }
}

/** A disk with `free` bytes left: writes beyond it fail with ENOSPC after a partial write. */
function fullDisk(free: number): AtomicFs {
  let left = free
  return {
    ...real,
    open: async (p, flags, mode) => {
      const h = await real.open(p, flags, mode)
      return {
        write: async (b, o, l, pos) => {
          if (left <= 0) throw errno('ENOSPC')
          const n = Math.min(l, left)
          left -= n
          return h.write(b, o, n, pos)
        },
        sync: () => h.sync(),
        close: () => h.close(),
      }
    },
  }
}

describe('writeFileAtomic', () => {
  it('writes a new file and leaves no temporary file', async () => {
    const d = dir()
    const r = await writeFileAtomic(join(d, 'out.jsonl'), 'line 1\nline 2\n')
    expect(r).toEqual({ path: join(d, 'out.jsonl'), bytes: 14 })
    expect(readFileSync(join(d, 'out.jsonl'), 'utf8')).toBe('line 1\nline 2\n')
    expect(readdirSync(d)).toEqual(['out.jsonl'])
  })

  it('streams an async iterable of chunks', async () => {
    const d = dir()
    async function* gen() {
      for (let i = 0; i < 3; i++) yield `${i}\n`
      yield Buffer.from('end')
    }
    await writeFileAtomic(join(d, 's.txt'), gen())
    expect(readFileSync(join(d, 's.txt'), 'utf8')).toBe('0\n1\n2\nend')
  })

  it('refuses to overwrite by default; backs up before replacing when asked', async () => {
    const d = dir()
    const p = join(d, 'a.json')
    writeFileSync(p, 'old')
    await expect(writeFileAtomic(p, 'new')).rejects.toMatchObject({ code: 'WRITE_FAILED', path: p })
    expect(readFileSync(p, 'utf8')).toBe('old')
    const r = await writeFileAtomic(p, 'new', { existing: 'backup', now: () => 42 })
    expect(r.backupPath).toBe(`${p}.sepia-backup-42`)
    expect(readFileSync(p, 'utf8')).toBe('new')
    expect(readFileSync(`${p}.sepia-backup-42`, 'utf8')).toBe('old')
  })

  for (const [step, code] of [
    ['open', 'EACCES'],
    ['write', 'EIO'],
    ['sync', 'EIO'],
    ['copyFile', 'ENOSPC'],
    ['rename', 'EXDEV'],
  ] as const) {
    it(`a fault at ${step} (${code}) leaves the existing file and folder as they were`, async () => {
      const d = dir()
      const p = join(d, 'session.jsonl')
      writeFileSync(p, 'original content')
      const big = 'x'.repeat(3 * (1 << 20)) // three chunks: the write fault hits mid-file
      await expect(writeFileAtomic(p, big, { fs: faulty(step, code, 1), existing: 'backup' })).rejects.toMatchObject({ code: 'WRITE_FAILED', path: p })
      expect(readFileSync(p, 'utf8')).toBe('original content')
      expect(readdirSync(d)).toEqual(['session.jsonl'])
      // Still usable: the next write succeeds.
      await writeFileAtomic(p, 'next', { existing: 'backup', now: () => 1 })
      expect(readFileSync(p, 'utf8')).toBe('next')
    })
  }

  it('a full disk mid-write says so in plain words and changes nothing', async () => {
    const d = dir()
    const p = join(d, 'out.json')
    writeFileSync(p, '{"keep":true}')
    const err = await writeFileAtomic(p, 'y'.repeat(5000), { fs: fullDisk(1000), existing: 'replace' }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'WRITE_FAILED', message: `Could not write ${p} because the disk is full. Free some space and try again. Nothing was changed.` })
    expect(readFileSync(p, 'utf8')).toBe('{"keep":true}')
    expect(readdirSync(d)).toEqual(['out.json'])
  })

  it('refuses to replace a folder', async () => {
    const d = dir()
    await expect(writeFileAtomic(d, 'x', { existing: 'replace' })).rejects.toMatchObject({ code: 'WRITE_FAILED' })
  })
})
