/**
 * What a restore would change: each covered file compared with the file on disk now — `added`
 * (missing now, the checkpoint has it), `modified`, `deleted` (on disk now, absent at the
 * checkpoint), `unchanged` — with a unified diff (disk now → checkpoint) for text, or `binary`.
 * Reads only; paths that would leave the folder are refused here as in the restore.
 */
import { open, lstat, readFile, readlink } from 'node:fs/promises'
import { lazyRequire } from '../util/lazy-require'
import type { RestoreFilePreview, RestoreFileStatus } from '../../shared/api'
import { execFlag } from './atomic'
import { safeLinkTarget, safeTargetPath } from './paths'
import type { CheckpointFiles, FileAtCheckpoint, Progress, RefusedPath } from './types'

const diff = lazyRequire<typeof import('diff')>('diff')

/** Text larger than this (either side, bytes) gets no diff, only sizes. */
export const MAX_DIFF_BYTES = 1 << 20

/** One compared file: its preview and where it is on disk. */
export interface ComparedFile {
  file: FileAtCheckpoint
  abs: string
  preview: RestoreFilePreview
  /** What is on disk now. */
  disk: 'absent' | 'file' | 'symlink'
  /** Permission bits on disk now. */
  diskMode?: number
}

/** True when the bytes look binary (a NUL in the first 8000 bytes, git's rule). */
export function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000)
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true
  return false
}

/** Compare a file on disk with `bytes` by streaming (the disk file may be large). */
export async function sameBytes(path: string, bytes: Uint8Array): Promise<boolean> {
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(Math.min(1 << 20, Math.max(bytes.length, 1)))
    let pos = 0
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos)
      if (bytesRead === 0) return pos === bytes.length
      if (pos + bytesRead > bytes.length) return false
      if (!buf.subarray(0, bytesRead).equals(bytes.subarray(pos, pos + bytesRead))) return false
      pos += bytesRead
    }
  } finally {
    await fh.close()
  }
}

const decoder = new TextDecoder('utf-8')

/**
 * Compare one checkpoint file with the disk under `root`. Resolves the refusal reason instead
 * when the path (or a symbolic link it holds) would leave `root`.
 */
export async function compareFile(root: string, file: FileAtCheckpoint, withDiff: boolean): Promise<ComparedFile | RefusedPath> {
  const safe = await safeTargetPath(root, file.path)
  if (!safe.ok) return { path: file.path, reason: safe.reason }
  const abs = safe.value
  let disk: ComparedFile['disk'] = 'absent'
  let diskMode: number | undefined
  let sizeBefore: number | undefined
  try {
    const st = await lstat(abs)
    disk = st.isSymbolicLink() ? 'symlink' : 'file'
    diskMode = st.mode & 0o777
    sizeBefore = st.size
  } catch {
    // absent
  }
  const after = file.exists ? await file.read() : undefined
  if (after && file.symlink) {
    const ok = safeLinkTarget(root, abs, decoder.decode(after))
    if (!ok.ok) return { path: file.path, reason: ok.reason }
  }
  let status: RestoreFileStatus
  if (!after) status = disk === 'absent' ? 'unchanged' : 'deleted'
  else if (disk === 'absent') status = 'added'
  else if (file.symlink || disk === 'symlink') {
    status = file.symlink && disk === 'symlink' && (await readlink(abs)) === decoder.decode(after) ? 'unchanged' : 'modified'
  } else {
    const sameExec = execFlag(diskMode ?? 0) === execFlag(file.mode)
    status = sizeBefore === after.length && sameExec && (await sameBytes(abs, after)) ? 'unchanged' : 'modified'
  }
  const preview: RestoreFilePreview = { path: file.path, status, binary: false }
  if (disk !== 'absent' && sizeBefore !== undefined) preview.sizeBefore = sizeBefore
  if (after) preview.sizeAfter = after.length
  if (diskMode !== undefined && disk === 'file') preview.modeBefore = diskMode
  if (after && !file.symlink) preview.modeAfter = file.mode
  if (file.symlink || disk === 'symlink') preview.symlink = true
  if (withDiff && status !== 'unchanged') await addDiff(preview, abs, disk, after)
  return { file, abs, preview, disk, ...(diskMode !== undefined ? { diskMode } : {}) }
}

async function addDiff(preview: RestoreFilePreview, abs: string, disk: ComparedFile['disk'], after: Uint8Array | undefined): Promise<void> {
  if ((preview.sizeBefore ?? 0) > MAX_DIFF_BYTES || (after?.length ?? 0) > MAX_DIFF_BYTES) {
    preview.binary = (after !== undefined && isBinary(after)) || (disk === 'file' && isBinary(await head(abs)))
    preview.diffNote = `Too large to show a diff (${formatBytes(Math.max(preview.sizeBefore ?? 0, after?.length ?? 0))}).`
    return
  }
  let before: Uint8Array = new Uint8Array()
  if (disk === 'file') before = await readFile(abs)
  else if (disk === 'symlink') before = Buffer.from(await readlink(abs))
  if (isBinary(before) || (after && isBinary(after))) {
    preview.binary = true
    return
  }
  const oldText = decoder.decode(before)
  const newText = after ? decoder.decode(after) : ''
  if (oldText === newText) {
    preview.diffNote = 'Same content; only the permissions (executable bit) differ.'
    return
  }
  const name = preview.path
  preview.diff = diff().createTwoFilesPatch(disk === 'absent' ? '/dev/null' : `a/${name}`, after ? `b/${name}` : '/dev/null', oldText, newText, 'on disk now', 'at the checkpoint')
}

/** The first 8000 bytes of a file (for the binary check of a large file). */
async function head(path: string): Promise<Uint8Array> {
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(8000)
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
    return buf.subarray(0, bytesRead)
  } finally {
    await fh.close()
  }
}

/** Sizes in plain words: `512 B`, `3.2 KB`, `1.5 MB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`
  return `${(n / 1024 ** 3).toFixed(1)} GB`
}

/** Compare every file of a checkpoint with `root`. */
export async function compareAll(root: string, files: CheckpointFiles, withDiff: boolean, onProgress?: Progress): Promise<{ compared: ComparedFile[]; refused: RefusedPath[] }> {
  const compared: ComparedFile[] = []
  const refused: RefusedPath[] = [...files.refused]
  let done = 0
  for (const f of files.files) {
    const r = await compareFile(root, f, withDiff)
    if ('reason' in r) refused.push(r)
    else compared.push(r)
    onProgress?.(++done, files.files.length, 'Comparing with the files on disk')
  }
  return { compared, refused }
}
