/**
 * Fan-out re-pairing: one call that ran several items (Cline `run_commands` with two commands,
 * `read_files` with three files; a patch with several hunks) becomes one call per item in the
 * target, and each needs its own result.
 *
 * Cline answers per item (`tool_result.content = [{query, result, success}, ...]`, seed 002 "Tool
 * vocabulary: one logical call can fan out to N calls and its result answers per item"); the Cline
 * reader joins the items as `> <query>\n<result>` sections separated by a blank line and keeps
 * `metadata.results = [{query, success}]` (src/main/agents/cline/sdk-nodes.ts
 * `toolResultContent`). That text is split back here with the recorded queries. A result that does
 * not answer per item (a patch) goes whole to the first part; the other parts point to it.
 */
import type { MessageNode } from '../../shared/ir'

/** One item's result. */
export interface ItemResult {
  text: string
  isError: boolean
}

/** Text given to the parts of a split call whose result was not recorded per item. */
export const SEE_FIRST_PART = '(Same call as the part above; its result covers this part too.)'

/** The per-item queries a reader recorded for a result node (`metadata.results[].query`), if any. */
export function recordedQueries(result: MessageNode): string[] | undefined {
  const list = result.metadata?.results
  if (!Array.isArray(list)) return undefined
  const out: string[] = []
  for (const r of list) {
    if (typeof r !== 'object' || r === null) return undefined
    const q = (r as Record<string, unknown>).query
    out.push(typeof q === 'string' ? q : q === undefined || q === null ? '' : JSON.stringify(q))
  }
  return out
}

/**
 * Split `text` (items joined as `> <query>\n<body>` with blank lines between) by the known
 * queries. Undefined when the text does not have that shape.
 */
export function splitJoined(text: string, queries: readonly string[]): string[] | undefined {
  if (queries.length === 1) return [text]
  const heads = queries.map((q) => `> ${q}\n`)
  if (!text.startsWith(heads[0]!)) return undefined
  const starts: number[] = [0]
  let from = heads[0]!.length
  for (let i = 1; i < heads.length; i++) {
    const at = text.indexOf(`\n\n${heads[i]}`, from)
    if (at < 0) return undefined
    starts.push(at + 2)
    from = at + 2 + heads[i]!.length
  }
  return starts.map((start, i) => {
    const bodyStart = start + heads[i]!.length
    const end = i + 1 < starts.length ? starts[i + 1]! - 2 : text.length
    return text.slice(bodyStart, end)
  })
}

/** The results of the `parts` items of a fan-out call, from its one result node. */
export function splitResult(result: MessageNode, parts: number): ItemResult[] {
  const queries = recordedQueries(result)
  if (queries && queries.length === parts) {
    const texts = splitJoined(result.content, queries)
    if (texts) {
      const list = result.metadata!.results as Record<string, unknown>[]
      return texts.map((text, i) => ({ text, isError: list[i]?.success === false }))
    }
  }
  const out: ItemResult[] = [{ text: result.content, isError: result.isError === true }]
  for (let i = 1; i < parts; i++) out.push({ text: SEE_FIRST_PART, isError: false })
  return out
}
