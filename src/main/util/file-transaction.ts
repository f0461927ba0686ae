/**
 * Atomic creation of new files for the writers (`agents/<agent>/write*.ts`) and `move/install.ts`
 * (DESIGN.md "Rules that hold everywhere": writing happens only in convert and restore, into a new
 * session id, atomically): each file is written in full to
 * a temporary name beside its destination, then renamed; nothing existing is ever overwritten.
 * `rollback()` removes everything the transaction created (temporaries, renamed files, folders it
 * made), so a fault mid-write leaves the store as it was.
 *
 * Inside a write job (`util/write-journal.ts`) every folder, temporary file and final name is
 * recorded before it is made, so a process killed mid-write is cleaned up on the next start.
 *
 * It lives in `util/` (it was `convert/atomic.ts`) so that the writers import it without importing
 * `convert/`, which imports them (`tests/layering.test.ts`).
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, open, rename, rm, rmdir } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
import { SepiaError } from '../../shared/api'
import { dropWrite, noteWrite, pausePoint } from './write-journal'

/** Text content: a string, or chunks produced one by one (a large session is never one string); or bytes as they are (a moved file). */
export type Chunks = string | Iterable<string> | AsyncIterable<string> | Uint8Array

/** Bytes gathered before a write call. */
const FLUSH_AT = 256 * 1024

/** New files created together, all or nothing. */
export class FileTransaction {
  private readonly staged: { temp: string; final: string }[] = []
  private readonly committed: string[] = []
  private readonly createdDirs: string[] = []

  /** `fault(step)` is called at each step (tests throw there to simulate a crash). */
  constructor(private readonly fault?: (step: string) => void) {}

  /** Create `dir` and missing parents, remembering which were made (for rollback). */
  async ensureDir(dir: string): Promise<void> {
    const missing: string[] = []
    for (let d = dir; !existsSync(d); d = dirname(d)) {
      missing.push(d)
      if (dirname(d) === d) break
    }
    for (const d of missing) noteWrite({ type: 'dir', path: d })
    await mkdir(dir, { recursive: true })
    this.createdDirs.push(...missing)
  }

  /**
   * Write `content` to a temporary file beside `final`. Throws `WRITE_FAILED` when `final` already
   * exists (an existing session is never touched).
   */
  async stage(final: string, content: Chunks): Promise<void> {
    if (existsSync(final)) throw new SepiaError({ code: 'WRITE_FAILED', message: `${final} already exists; Sepia never overwrites a session.`, path: final })
    await this.ensureDir(dirname(final))
    const temp = `${final}.sepia-tmp-${randomBytes(4).toString('hex')}`
    this.staged.push({ temp, final })
    noteWrite({ type: 'created', path: final })
    noteWrite({ type: 'temp', path: temp })
    const fh = await open(temp, 'wx')
    try {
      let buf = ''
      const flush = async (): Promise<void> => {
        if (buf === '') return
        await fh.write(buf)
        buf = ''
      }
      if (typeof content === 'string') buf = content
      else if (content instanceof Uint8Array) await fh.write(content)
      else {
        for await (const chunk of content as AsyncIterable<string>) {
          buf += chunk
          if (buf.length >= FLUSH_AT) await flush()
        }
      }
      await flush()
      await fh.sync()
    } finally {
      await fh.close()
    }
    pausePoint('staged')
    this.fault?.(`staged:${basename(final)}`)
  }

  /** Rename every staged file to its final name (refusing to replace a file that appeared meanwhile). */
  async commit(): Promise<string[]> {
    for (const { temp, final } of this.staged) {
      if (existsSync(final)) throw new SepiaError({ code: 'WRITE_FAILED', message: `${final} appeared while writing; nothing was replaced.`, path: final })
      await rename(temp, final)
      dropWrite({ type: 'temp', path: temp })
      this.committed.push(final)
      pausePoint('renamed')
      this.fault?.(`renamed:${basename(final)}`)
    }
    return [...this.committed]
  }

  /** Remove every file and folder this transaction created. Never throws. */
  async rollback(): Promise<void> {
    for (const { temp } of this.staged) await rm(temp, { force: true }).catch(() => undefined)
    for (const f of this.committed) await rm(f, { force: true }).catch(() => undefined)
    for (const d of [...this.createdDirs].sort((a, b) => b.length - a.length)) await rmdir(d).catch(() => undefined)
  }
}
