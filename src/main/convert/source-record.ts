/**
 * What a source session's own files record about its tool calls, read from the raw files and not
 * through Sepia's reader, so the convert verification can catch a reading or a conversion that
 * loses a result the source holds (issue 14 "Conversion of real sessions").
 *
 * Known today: Cline-family legacy tasks of the native tool-call era, whose
 * `api_conversation_history.json` (Anthropic MessageParam[]) holds `tool_use` blocks answered in
 * the next user message by `tool_result` blocks (`tool_use_id`), by a text block
 * "[name for 'path'] Result:" when Cline had no id, or by "Tool [name] was not executed because
 * ..." when Cline refused the call (cline v3.49.1 ToolResultUtils.pushToolResult,
 * formatResponse.toolAlreadyUsed). Other sources return undefined (no independent record).
 */
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import type { Session } from '../../shared/ir'

/** Tool calls and answers as the source file records them. */
export interface SourceToolRecord {
  /** The file read (absolute path). */
  file: string
  /** Call ids in file order. */
  calls: string[]
  /** Ids of the calls the file records an answer for (a result, a text result or a refusal). */
  answered: string[]
}

type Block = Record<string, unknown>

/** The source's own tool record, or undefined when the source has none Sepia can read apart. */
export async function sourceToolRecord(session: Session): Promise<SourceToolRecord | undefined> {
  const file = session.source.files.find((f) => basename(f) === 'api_conversation_history.json')
  if (!file) return undefined
  let items: unknown
  try {
    items = JSON.parse(await readFile(file, 'utf8'))
  } catch {
    return undefined
  }
  if (!Array.isArray(items)) return undefined
  const blocksOf = (m: unknown): Block[] => {
    const c = (m as { content?: unknown } | null)?.content
    return Array.isArray(c) ? (c.filter((b) => b && typeof b === 'object') as Block[]) : []
  }
  const calls: string[] = []
  const answered: string[] = []
  items.forEach((m, i) => {
    if ((m as { role?: unknown } | null)?.role !== 'assistant') return
    const uses = blocksOf(m).filter((b) => b.type === 'tool_use' && typeof b.id === 'string') as { id: string; name?: unknown }[]
    if (!uses.length) return
    calls.push(...uses.map((u) => u.id))
    const next = items[i + 1]
    if ((next as { role?: unknown } | null)?.role !== 'user') return
    const open = [...uses]
    const take = (pick: (u: (typeof uses)[number]) => boolean) => {
      const k = open.findIndex(pick)
      if (k >= 0) answered.push(open.splice(k, 1)[0]!.id)
    }
    for (const b of blocksOf(next)) {
      if (b.type === 'tool_result') take((u) => u.id === b.tool_use_id)
      else if (b.type === 'text' && typeof b.text === 'string') {
        const name = /^\s*\[([\w-]+)[^\]]*\] Result:/.exec(b.text)?.[1] ?? /^\s*Tool \[([\w-]+)\] was not executed because/.exec(b.text)?.[1]
        if (name) take((u) => u.name === name)
      }
    }
  })
  if (!calls.length) return undefined
  return { file, calls, answered }
}
