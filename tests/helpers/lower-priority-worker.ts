/**
 * A worker thread for `src/main/util/thread-priority.test.ts`: lowers its own priority by 5 with
 * `lowerThreadPriority` and posts its thread id, its nice value before and after, and the answer.
 */
import { getPriority } from 'node:os'
import { parentPort } from 'node:worker_threads'
import { lowerThreadPriority, threadId } from '../../src/main/util/thread-priority'

const tid = threadId()
const before = tid === undefined ? undefined : getPriority(tid)
const got = lowerThreadPriority(5)
parentPort!.postMessage({ tid, before, got, now: tid === undefined ? undefined : getPriority(tid) })
