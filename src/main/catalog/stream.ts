/**
 * The catalog's streaming index path, for agents with `readStream` (Claude Code): the reader hands
 * over each finished node, this module turns it into its message row (written in batches by
 * `writer.ts`) and its skeleton node, keeps the per-session lists the catalog row needs (models,
 * tool-call pairing) and drops the node. Memory is bounded by ids, not by the session's text.
 *
 * It stores exactly what `extractSession` + `writeSession` store for the same session read whole
 * (`stream.test.ts` compares both over every Claude Code fixture home): the same per-node helpers
 * of `extract.ts`, and the pairing rule of `pairToolCalls` (src/main/ir/build.ts): the last
 * result of a call id is named after the first call with that id, in node order. A result
 * written before its call was seen gets its `tool_names` fixed at the end.
 */
import type { MessageNode } from '../../shared/ir'
import type { AgentDefinition, NodeStream, ReadContext, StoreRef, StreamedSession } from '../agents/types'
import { isPrompt, leftOutCount, problemCount, summarize } from '../ir/build'
import { encryptionKeyFiles } from '../secrets'
import { countedModel, finishRow, keptDiagnostics, MAX_DIAGNOSTICS, rawMessageRow, SKELETON_PART_CHARS, skeletonNode, skeletonShell, toolNamesOf, type RawMessageRow } from './extract'
import { writeHead, type RowSpill } from './rows'
import { stampOf, type CatalogStore, type FileStamp, type SessionHead } from './store'
import { MessageWriter } from './writer'

/**
 * Where a {@link SessionIndexer} puts one session's rows: a {@link MessageWriter} (masked rows
 * written as they come, {@link writerSink}), or the spill file of the lighter first pass
 * ({@link spillSink}, `rows.ts`).
 */
export interface RowSink {
  /** The next row (seq order), unmasked. */
  row(r: RawMessageRow): void
  /** Set the `tool_names` of row `seq` at the end. */
  fixToolNames(seq: number, toolNames: string): void
  /** Forget the rows taken so far: they come again from the first. */
  restart(): void
  /** The last row and fix were given (after the read, before the write). */
  sealed?(): void
  /** Write the session row (and the rest), returns the change counter. */
  finish(head: SessionHead, files: FileStamp[]): number
}

/** A sink that masks each row and writes it through `writer` (the one-pass index). */
export function writerSink(writer: MessageWriter): RowSink {
  return {
    row: (r) => writer.row(finishRow(r)),
    fixToolNames: (seq, names) => writer.fixToolNames(seq, names),
    restart: () => writer.restart(),
    finish: (head, files) => writer.finish(head, files),
  }
}

/**
 * A sink of the lighter first pass: the rows of the session `ref` go to `spill` (begun here), the
 * write is the session row alone, with the pending stamp (`rows.ts` `writeHead`).
 */
export function spillSink(store: CatalogStore, spill: RowSpill, ref: StoreRef): RowSink {
  const fixes = new Map<number, string>()
  spill.begin(ref, stampOf(ref))
  return {
    row: (r) => spill.row(r),
    fixToolNames: (seq, names) => void fixes.set(seq, names),
    restart: () => {
      fixes.clear()
      spill.restart()
    },
    sealed: () => spill.end(fixes),
    finish: (head, files) => writeHead(store, head, files),
  }
}

/** The last result node of a call id, as written. */
interface ResultSeen {
  seq: number
  /** `toolName` the reader set (before pairing). */
  own: string | undefined
  /** `tool_names` written for it. */
  written: string
  hasRow: boolean
}

/** Takes the nodes of one session (a {@link NodeStream}) and writes their rows. */
export class SessionIndexer implements NodeStream {
  readonly maxDiagnostics = MAX_DIAGNOSTICS
  private models = new Set<string>()
  /**
   * Skeleton nodes as JSON text (a third of their size as objects), grouped as they come into
   * JSON arrays of about `SKELETON_PART_CHARS` (the stored parts, `schema.ts` `skeletons`): a
   * few hundred strings for a 1 GB session instead of one per node, and never one joined string.
   */
  private parts: string[] = []
  private group: string[] = []
  private groupChars = 0
  private promptKept = false
  /** Call id → name of the first call with that id. */
  private calls = new Map<string, string>()
  private results = new Map<string, ResultSeen>()
  private fixes = new Map<number, string>()

  private readonly writer: RowSink

  constructor(sink: MessageWriter | RowSink) {
    this.writer = sink instanceof MessageWriter ? writerSink(sink) : sink
  }

  node(n: MessageNode, seq: number): void {
    const model = countedModel(n)
    if (model) this.models.add(model)
    for (const c of n.toolCalls ?? []) if (!this.calls.has(c.id)) this.calls.set(c.id, c.name)
    let result: ResultSeen | undefined
    if (n.role === 'tool' && n.toolCallId) {
      const own = n.toolName
      const prev = this.results.get(n.toolCallId)
      // No longer the last result of its call: it keeps the name its reader gave it.
      if (prev) this.settle(prev, prev.own)
      if (n.toolName === undefined) {
        const name = this.calls.get(n.toolCallId)
        if (name !== undefined) n.toolName = name
      }
      result = { seq, own, written: toolNamesOf(n), hasRow: false }
      this.results.set(n.toolCallId, result)
    }
    const row = rawMessageRow(n, seq)
    if (row) {
      this.writer.row(row)
      if (result) result.hasRow = true
    }
    const keepText = !this.promptKept && isPrompt(n)
    if (keepText) this.promptKept = true
    const s = skeletonNode(n, keepText)
    if (s) {
      const text = JSON.stringify(s)
      if (this.group.length > 0 && this.groupChars + text.length > SKELETON_PART_CHARS) this.closeGroup()
      this.group.push(text)
      this.groupChars += text.length + 1
    }
  }

  private closeGroup(): void {
    if (this.group.length > 0) this.parts.push(`[${this.group.join(',')}]`)
    this.group = []
    this.groupChars = 0
  }

  restart(): void {
    this.models = new Set()
    this.parts = []
    this.group = []
    this.groupChars = 0
    this.promptKept = false
    this.calls = new Map()
    this.results = new Map()
    this.fixes = new Map()
    this.writer.restart()
  }

  /** Queue a `tool_names` fix when a result's final tool name differs from what was written. */
  private settle(r: ResultSeen, toolName: string | undefined): void {
    const names = toolName ? ` ${toolName} ` : ''
    if (r.hasRow && names !== r.written) this.fixes.set(r.seq, names)
  }

  /** Write the session row from what the reader returned, after the last node. Returns the change counter. */
  finish(streamed: StreamedSession, ref: StoreRef, files: FileStamp[]): number {
    return this.writer.finish(this.head(streamed, ref), files)
  }

  /**
   * After the last node: settle the tool-name fixes (given to the sink, then `sealed`) and build
   * the session row's record from what the reader returned. Pure but for the sink; call once.
   */
  head(streamed: StreamedSession, ref: StoreRef): SessionHead {
    for (const [id, r] of this.results) this.settle(r, r.own ?? this.calls.get(id))
    for (const [seq, names] of this.fixes) this.writer.fixToolNames(seq, names)
    this.closeGroup()
    const links = streamed.callLinks
    if (links && links.size > 0) {
      // Sub-agent links are known only after the last node: patch the parts that have calls.
      this.parts = this.parts.map((text) => {
        if (!text.includes('"toolCalls":')) return text
        const nodes = JSON.parse(text) as MessageNode[]
        let changed = false
        for (const n of nodes) {
          for (const c of n.toolCalls ?? []) {
            const child = links.get(c.id)
            if (child !== undefined) {
              c.subagentSessionId = child
              changed = true
            }
          }
        }
        return changed ? JSON.stringify(nodes) : text
      })
    }
    this.writer.sealed?.()
    const session = streamed.session
    const summary = summarize(
      session,
      ref.home,
      streamed.totals,
      problemCount(session.diagnostics) + streamed.droppedDiagnostics,
      leftOutCount(session.diagnostics) + (streamed.droppedProblems ?? 0),
    )
    return {
      ref,
      summary,
      models: [...this.models],
      nodeCount: streamed.nodeCount,
      skeleton: skeletonShell(session, []),
      skeletonParts: this.parts,
      diagnostics: keptDiagnostics(session.diagnostics),
      credentialFiles: encryptionKeyFiles([session]),
    }
  }
}

/**
 * Read one session through `def.readStream`: its rows are written as they come (batches of a
 * large session commit on the way) and the returned function writes the rest and the session
 * row (one transaction, or a savepoint of the caller's). `stamps()` gives the files' sizes and
 * times, taken after the read as the whole-read path does. With `spill` (the lighter first pass
 * of a cold index, `rows.ts`) the rows go to the spill file unmasked and the returned function
 * writes the session row alone, with the pending stamp. Rejects as the reader does.
 */
export async function indexStream(def: AgentDefinition, ref: StoreRef, ctx: ReadContext, store: CatalogStore, stamps: () => FileStamp[], spill?: RowSpill): Promise<() => void> {
  if (!def.readStream) throw new Error(`${def.id} has no streaming reader`)
  const sink = spill ? spillSink(store, spill, ref) : writerSink(new MessageWriter(store, { home: ref.home, agent: ref.agent, sessionId: ref.sessionId }))
  const indexer = new SessionIndexer(sink)
  const streamed = await def.readStream(ref, ctx, indexer)
  const files = stamps()
  const head = indexer.head(streamed, ref)
  return () => void sink.finish(head, files)
}
