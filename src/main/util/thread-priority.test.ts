import { getPriority } from 'node:os'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { lowerThreadPriority, threadId } from './thread-priority'
import { sourceWorkerCode } from './worker-entry'

const linux = process.platform === 'linux'

describe('lowerThreadPriority', () => {
  it.runIf(linux)('lowers the calling thread only, not the process or its other threads', async () => {
    const before = getPriority(process.pid)
    const w = new Worker(sourceWorkerCode(import.meta.url, '../../../tests/helpers/lower-priority-worker.ts'), { eval: true })
    const got = await new Promise<{ tid?: number; before?: number; got?: number; now?: number }>((resolve, reject) => {
      w.once('message', resolve)
      w.once('error', reject)
    })
    await w.terminate()
    expect(got.tid).toBeGreaterThan(0)
    expect(got.tid).not.toBe(process.pid)
    expect(got.before).toBe(before)
    expect(got.got).toBe(Math.min(19, before + 5))
    expect(got.now).toBe(got.got)
    // This thread (the process's main thread: its id is the pid) is as it was.
    expect(getPriority(process.pid)).toBe(before)
    expect(threadId()).toBe(process.pid)
  })

  it.skipIf(linux)('changes nothing where a thread has no priority of its own', () => {
    expect(threadId()).toBeUndefined()
    expect(lowerThreadPriority(10)).toBeUndefined()
  })
})
