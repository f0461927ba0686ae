/**
 * Claude Code 1.x Task sub-agents kept inline in the session file (issue 14, point 3).
 *
 * Store facts (fixtures/public-real/claude-code sword-1090-siblings, Claude Code 1.0.90): a Task
 * call's sub-agent wrote its records into the parent's `<session id>.jsonl`, each with
 * `isSidechain: true` and no `agentId`. A thread starts with a `user` record whose `parentUuid`
 * is null and whose text is the Task call's `input.prompt`; the thread's later records chain to it
 * by `parentUuid`. Claude Code 2.x writes sub-agents to `<session id>/subagents/agent-<id>.jsonl`
 * (or, earlier, `agent-<id>.jsonl`) instead, read as their own sessions.
 *
 * Sepia reads each inline thread as a child session of the parent, as the `subagents/` layout is:
 * discovery lists one ref per thread ({@link FORMAT_INLINE_SIDECHAIN}, the parent's file, with
 * {@link InlineThread} hints), the child's reading keeps only its thread's records, and the
 * parent's reading leaves them out and points the Task call at the child (`subagentSessionId`).
 */
import { open, stat } from 'node:fs/promises'
import { forEachLine } from '../../util/lines'
import { type Json, obj, str } from './content'

/** Store generation of an inline 1.x sub-agent thread read as its own session. */
export const FORMAT_INLINE_SIDECHAIN = 'claude-code-inline-sidechain'

/** One inline sub-agent thread of a session file. */
export interface InlineThread {
  /** The child session's id: `<parent session id>/sidechain-<root uuid>`. */
  id: string
  /** `uuid` of the thread's first record. */
  root: string
  /** 1-based line of that record. */
  line: number
  /** The Task call (`tool_use.id`) whose `input.prompt` equals the root's text, when one does. */
  toolUseId?: string
  /** That call's `input.description`. */
  description?: string
  /** That call's `input.subagent_type`. */
  agentType?: string
}

/** Bytes read from a file's head to find its Claude Code `version` (past a few `summary` lines). */
const HEAD_BYTES = 16 * 1024
/** A 0.x or 1.x `version` field (the layout with inline sidechains). */
const OLD_VERSION = /"version"\s*:\s*"[01]\./

/** The child session id of the thread starting at `root` in session `parentId`. */
export function inlineThreadId(parentId: string, root: string): string {
  return `${parentId}/sidechain-${root}`
}

/** Text of a user record's message (a string, or its text blocks joined), trimmed. */
function userText(r: Json): string {
  const c = obj(r.message)?.content
  if (typeof c === 'string') return c.trim()
  if (!Array.isArray(c)) return ''
  return c.map((b) => (obj(b)?.type === 'text' ? (str(obj(b)!.text) ?? '') : '')).join('\n\n').trim()
}

/**
 * Membership of records in inline threads, fed records in file order: a record is in a thread
 * when it has `isSidechain: true` and is one of `roots` or names a member as its `parentUuid`.
 */
export class ThreadMembers {
  private readonly members = new Set<string>()
  constructor(private readonly roots: ReadonlySet<string>) {}

  /** True when `r` belongs to one of the threads (remembers it for its descendants). */
  take(r: Json): boolean {
    if (r.isSidechain !== true || r.agentId !== undefined) return false
    const uuid = str(r.uuid)
    const parent = str(r.parentUuid)
    const inThread = (uuid !== undefined && this.roots.has(uuid)) || (parent !== undefined && this.members.has(parent))
    if (inThread && uuid !== undefined) this.members.add(uuid)
    return inThread
  }
}

/**
 * Find the inline threads of one session file (one pass; only lines naming `isSidechain: true`
 * or a Task call are parsed). A thread's root is a sidechain `user`/`assistant` record whose
 * `parentUuid` is null or names no sidechain record. Each root is matched to the first unused
 * Task call (in file order) whose trimmed prompt equals the root's trimmed text. Never throws for
 * bad lines (they are skipped); rejects when the file cannot be read.
 */
export async function scanInlineThreads(path: string, parentId: string): Promise<InlineThread[]> {
  const sidechain = new Set<string>()
  const roots: { uuid: string; line: number; text: string }[] = []
  const calls: { id: string; prompt: string; description?: string; agentType?: string }[] = []
  await forEachLine(path, (text, lineNo) => {
    const side = text.includes('"isSidechain":true')
    if (!side && !text.includes('"Task"')) return
    let r: Json | undefined
    try {
      r = obj(JSON.parse(text))
    } catch {
      return
    }
    if (!r) return
    if (r.type === 'assistant') {
      const content = obj(r.message)?.content
      for (const b of Array.isArray(content) ? content : []) {
        const o = obj(b)
        const input = obj(o?.input)
        const prompt = str(input?.prompt)
        if (o?.type !== 'tool_use' || o.name !== 'Task' || prompt === undefined || str(o.id) === undefined) continue
        const call: (typeof calls)[number] = { id: str(o.id)!, prompt: prompt.trim() }
        const description = str(input!.description)
        if (description !== undefined) call.description = description
        const agentType = str(input!.subagent_type)
        if (agentType !== undefined) call.agentType = agentType
        calls.push(call)
      }
    }
    if (r.isSidechain !== true || r.agentId !== undefined) return
    const uuid = str(r.uuid)
    if (uuid === undefined || sidechain.has(uuid)) return
    sidechain.add(uuid)
    const parent = str(r.parentUuid)
    if ((r.type === 'user' || r.type === 'assistant') && (parent === undefined || !sidechain.has(parent))) roots.push({ uuid, line: lineNo, text: r.type === 'user' ? userText(r) : '' })
  })
  const used = new Set<string>()
  return roots.map((root) => {
    const t: InlineThread = { id: inlineThreadId(parentId, root.uuid), root: root.uuid, line: root.line }
    const call = root.text === '' ? undefined : calls.find((c) => !used.has(c.id) && c.prompt === root.text)
    if (call) {
      used.add(call.id)
      t.toolUseId = call.id
      if (call.description !== undefined) t.description = call.description
      if (call.agentType !== undefined) t.agentType = call.agentType
    }
    return t
  })
}

/** Answers of {@link inlineThreadsOf} by path, valid while size and mtime stay the same. */
const cache = new Map<string, { size: number; mtimeMs: number; old: boolean; threads: InlineThread[] }>()

/**
 * The inline threads of a session file that Claude Code 0.x/1.x wrote (its first 16 KiB name such
 * a `version`); none for a newer file, whose head is read once per process. A 1.x file's threads
 * are memoised by path, size and mtime (such a file is no longer written to). Never throws: an
 * unreadable file has no threads.
 */
export async function inlineThreadsOf(path: string, parentId: string): Promise<InlineThread[]> {
  try {
    const st = await stat(path)
    const hit = cache.get(path)
    // A file a 2.x CLI wrote stays one (appends keep its head): its head is read once.
    if (hit && !hit.old) return []
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.threads
    const fh = await open(path, 'r')
    let head: string
    try {
      const buf = Buffer.alloc(Math.min(HEAD_BYTES, st.size))
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
      head = buf.subarray(0, bytesRead).toString('utf8')
    } finally {
      await fh.close()
    }
    const old = OLD_VERSION.test(head)
    const threads = old ? await scanInlineThreads(path, parentId) : []
    // A head without any `version` yet (a file just started) is asked again next time.
    if (old || /"version"\s*:/.test(head)) cache.set(path, { size: st.size, mtimeMs: st.mtimeMs, old, threads })
    return threads
  } catch {
    return []
  }
}

/** The inline threads discovery listed in a ref's hints (`hints.inlineThreads`), if any. */
export function inlineThreadsHint(hints: Record<string, unknown> | undefined): InlineThread[] | undefined {
  const v = hints?.inlineThreads
  return Array.isArray(v) && v.length > 0 ? (v as InlineThread[]) : undefined
}

/** The thread a child ref reads (`hints.inlineThread`), if any. */
export function inlineThreadHint(hints: Record<string, unknown> | undefined): InlineThread | undefined {
  const v = obj(hints?.inlineThread)
  return v && typeof v.root === 'string' ? (v as unknown as InlineThread) : undefined
}
