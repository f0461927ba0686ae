/**
 * Small helpers shared by the Cline SDK and legacy readers: unique node ids, the linear node
 * chain, tool call locations/diffs and SEARCH/REPLACE parsing.
 */
import type { MessageNode, ToolCall, ToolCallDiff, Usage } from '../../../shared/ir'
import { toolKind } from '../../ir/toolkind'
import { isRecord } from '../../util/json'

/** Allocates node ids unique within a session: `base`, then `base~2`, `base~3`... */
export class NodeIds {
  private readonly used = new Set<string>()
  /** A fresh id derived from `base`. */
  take(base: string): string {
    let id = base
    for (let n = 2; this.used.has(id); n++) id = `${base}~${n}`
    this.used.add(id)
    return id
  }
}

/**
 * Link nodes in file order (each node's parent is the one before it) where the store records no
 * tree. Cline transcripts are linear: neither store has a parent id per message.
 */
export function chainNodes(nodes: MessageNode[]): void {
  for (let i = 1; i < nodes.length; i++) nodes[i]!.parentNodeId ??= nodes[i - 1]!.nodeId
}

/** A non-empty string or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** A finite number or undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/** Build a {@link Usage} from named numeric fields, dropping absent ones; undefined when all are absent. */
export function usageOf(fields: Partial<Record<keyof Usage, unknown>>): Usage | undefined {
  const u: Usage = {}
  for (const [k, v] of Object.entries(fields) as [keyof Usage, unknown][]) {
    const n = num(v)
    if (n !== undefined) u[k] = n
  }
  return Object.keys(u).length ? u : undefined
}

/**
 * One `------- SEARCH / ======= / +++++++ REPLACE` block (Cline's replace_in_file diff, also the
 * older `<<<<<<< SEARCH / >>>>>>> REPLACE` markers, cline/cline src/core/assistant-message/diff.ts).
 */
export function parseSearchReplace(diff: string): { oldText: string; newText: string }[] {
  const out: { oldText: string; newText: string }[] = []
  const re = /^[-<]{3,} SEARCH>?\r?\n([\s\S]*?)\r?\n?^={3,}\r?\n([\s\S]*?)\r?\n?^[+>]{3,} REPLACE>?\s*$/gm
  for (let m = re.exec(diff); m; m = re.exec(diff)) out.push({ oldText: m[1] ?? '', newText: m[2] ?? '' })
  return out
}

/**
 * A {@link ToolCall} with its ACP kind and, where the arguments name files, `locations` and
 * `diffs` (ACP diff content; seed 002 "Checkpoints / file diffs": Cline's editor inputs).
 * Knows the SDK tools (`editor`, `read_files`) and the legacy XML tools (`write_to_file`,
 * `replace_in_file`, `read_file`...); other tools get a location from a `path` argument.
 */
export function makeToolCall(id: string, name: string, args: unknown): ToolCall {
  const call: ToolCall = { id, name, kind: toolKind(name), arguments: args }
  if (!isRecord(args)) return call
  const paths: string[] = []
  const diffs: ToolCallDiff[] = []
  const path = str(args.path) ?? str(args.file_path) ?? str(args.filePath)
  if (path) paths.push(path)
  for (const key of ['files', 'paths']) {
    const list = args[key]
    if (Array.isArray(list)) {
      for (const f of list) {
        const p = typeof f === 'string' ? f : isRecord(f) ? str(f.path) : undefined
        if (p) paths.push(p)
      }
    }
  }
  const lower = name.toLowerCase()
  if (path && lower === 'editor') {
    const oldText = typeof args.old_text === 'string' ? args.old_text : undefined
    const newText = typeof args.new_text === 'string' ? args.new_text : undefined
    if (oldText !== undefined || newText !== undefined) {
      const d: ToolCallDiff = { path }
      if (oldText !== undefined) d.oldText = oldText
      if (newText !== undefined) d.newText = newText
      diffs.push(d)
    }
  } else if (path && lower === 'write_to_file' && typeof args.content === 'string') {
    diffs.push({ path, newText: args.content })
  } else if (path && (lower === 'replace_in_file' || lower === 'apply_diff')) {
    // The XML tool passes `diff`; the UI's ClineSayTool puts the same blocks in `content`.
    const text = str(args.diff) ?? str(args.content) ?? ''
    for (const b of parseSearchReplace(text)) diffs.push({ path, oldText: b.oldText, newText: b.newText })
  }
  if (paths.length) call.locations = [...new Set(paths)].map((p) => ({ path: p }))
  if (diffs.length) call.diffs = diffs
  return call
}

/** Exit code from a legacy command result text (`Command executed successfully (exit code 0).`). */
export function exitCodeFromText(text: string): number | undefined {
  const m = /\(exit code (-?\d+)\)/.exec(text.slice(0, 400))
  return m ? Number(m[1]) : undefined
}
