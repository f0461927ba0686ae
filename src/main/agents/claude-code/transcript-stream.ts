/**
 * A {@link Transcript} that lets its nodes go: the catalog's index path (`stream.ts`) reads a
 * transcript of any size with memory bounded by ids (uuids, node ids, message ids), not text.
 *
 * A node stays open while a later record may still change it: the records of one API reply share
 * `message.id` and are merged into one node (seed 002 "Claude Code"), usually on adjacent lines
 * with the reply's tool results in between. A node is handed over ("released") once it is the
 * oldest open node and either {@link StreamWindow.bytes} of the file were read after the line
 * that made it or more than {@link StreamWindow.nodes} nodes are open. Nodes are released in node
 * order, finished as {@link Transcript.finish} would finish them (assistant text from its blocks,
 * parent resolved). What they lack, the catalog does not store: `metadata.missingParentUuid`,
 * tool-call `durationMs`, and `parentNodeId` when the parent comes later in the file.
 *
 * A record of a reply whose node was already released (a "late" record) is noted in {@link late}
 * with the last line naming that reply; the caller then makes another pass with those replies
 * held open up to that line (`holdUntil`), so every node is released whole.
 */
import type { MessageNode } from '../../../shared/ir'
import { fillAssistant, Transcript, type BrokenLink, type RawParent } from './transcript'

/** When open nodes are released (see the module comment). */
export interface StreamWindow {
  /** Bytes of the file read after the line that made a node. */
  bytes: number
  /** Open nodes. */
  nodes: number
}

/** The window of the index path: ~8 MB of text and 2,000 nodes at most stay open. */
export const DEFAULT_WINDOW: StreamWindow = { bytes: 8 << 20, nodes: 2000 }

/** A node released before its parent was seen: resolved again at the end. */
interface Deferred {
  nodeId: string
  line: number
  uuid: string
}

/** A transcript that hands each node to `emit` once it can no longer change. */
export class StreamTranscript extends Transcript {
  /** `message.id` of replies continued after their node was released → last line naming them. */
  readonly late = new Map<string, number>()
  /** Nodes released so far (the `seq` of the next one). */
  released = 0
  private readonly openedAt: number[] = []
  private readonly midOf = new Map<MessageNode, string>()
  private readonly closed = new Set<string>()
  private readonly deferred: Deferred[] = []
  private position = 0
  private lineNo = 0

  /**
   * `emit(node, seq)` receives each node once, in order. `holdUntil`: replies (`message.id`) to
   * keep open up to and including the given line (from an earlier pass's {@link late}).
   */
  constructor(
    private readonly emit: (node: MessageNode, seq: number) => void,
    private readonly window: StreamWindow = DEFAULT_WINDOW,
    private readonly holdUntil: ReadonlyMap<string, number> = new Map(),
  ) {
    super()
  }

  /** Call before the records of line `lineNo` (starting at byte `offset`): releases what is due. */
  advance(lineNo: number, offset: number): void {
    this.lineNo = lineNo
    this.position = offset
    while (this.nodes.length > 0) {
      const due = this.nodes.length > this.window.nodes || offset - this.openedAt[0]! > this.window.bytes
      if (!due) break
      const mid = this.midOf.get(this.nodes[0]!)
      if (mid !== undefined && (this.holdUntil.get(mid) ?? -1) >= lineNo) break
      this.release()
    }
  }

  protected override push(node: MessageNode, parent: RawParent, line: number): void {
    super.push(node, parent, line)
    this.openedAt.push(this.position)
  }

  protected override openMessage(mid: string): MessageNode | undefined {
    if (this.closed.has(mid) || this.late.has(mid)) this.late.set(mid, this.lineNo)
    return super.openMessage(mid)
  }

  protected override registerMessage(mid: string, node: MessageNode): void {
    super.registerMessage(mid, node)
    this.midOf.set(node, mid)
  }

  /** Hand over the oldest open node, finished. */
  private release(): void {
    const node = this.nodes.shift()!
    this.openedAt.shift()
    const seq = this.released++
    const blocks = this.assistantBlocks.get(node)
    if (blocks) {
      fillAssistant(node, blocks)
      this.assistantBlocks.delete(node)
    }
    const mid = this.midOf.get(node)
    if (mid !== undefined) {
      this.midOf.delete(node)
      this.byMessageId.delete(mid)
      this.closed.add(mid)
    }
    const p = this.parents.get(node)
    const line = this.lines.get(node) ?? 0
    this.parents.delete(node)
    this.lines.delete(node)
    if (p && 'nodeId' in p) node.parentNodeId = p.nodeId
    else if (p) {
      // Records are never re-mapped, so only a parent not seen yet can still change: retry it at the end.
      const r = this.resolve(p.uuid)
      if ('nodeId' in r && r.nodeId !== node.nodeId) node.parentNodeId = r.nodeId
      else if ('missing' in r && !p.logical) this.deferred.push({ nodeId: node.nodeId, line, uuid: p.uuid })
    }
    this.emit(node, seq)
  }

  /** Release every open node; returns the parent links that name no record, in node order. */
  override async finish(): Promise<BrokenLink[]> {
    while (this.nodes.length > 0) this.release()
    const broken: BrokenLink[] = []
    for (const d of this.deferred) if ('missing' in this.resolve(d.uuid)) broken.push(d)
    return broken
  }
}
