/**
 * The Cline CLI's prompt history `<clineDataDir>/cache/user_input_history.jsonl`, a secondary
 * source (seed 000 "CLI prompt history"; apps/cli/src/utils/input-history.ts:5-72).
 *
 * Each line is `{"prompt": <string>, "ts": <epoch ms>}`; the file keeps the last 20 distinct
 * prompts, oldest first, and every rewrite stamps every line with the write's time, so only the
 * last line's ts is its own prompt's time. No session id, directory or model is recorded.
 *
 * Rows (seed 000 "Past-use rows and secondary sources"): one user row per line with no session or
 * project; the last line at its ts, the others undated; every line undated when the file has a bad
 * line (the last line read may then not be the newest), and one `parser:` row names the bad lines.
 */
import type { AgentId } from '../../../../shared/ir'
import { isRecord } from '../../../util/json'
import { readLines } from '../../../util/lines'
import { num } from '../common'
import { makeSecondaryRow, type SecondaryRow } from '../timeline/rows'
import { plural } from '../../../../shared/plural'

/** The source name input-history rows carry (`recovered.source`). */
export const INPUT_HISTORY_SOURCE = 'user_input_history.jsonl'

/** Rows of the prompt history (see the module comment). Rejects when the file cannot be opened. */
export async function inputHistoryRows(path: string, agent: AgentId): Promise<SecondaryRow[]> {
  const prompts: { prompt: string; ts?: number; line: number }[] = []
  const bad: number[] = []
  for await (const { lineNo, text } of readLines(path)) {
    if (text.trim() === '') continue
    let rec: unknown
    try {
      rec = JSON.parse(text)
    } catch {
      bad.push(lineNo)
      continue
    }
    if (!isRecord(rec) || typeof rec.prompt !== 'string') {
      bad.push(lineNo)
      continue
    }
    prompts.push({ prompt: rec.prompt, ts: num(rec.ts), line: lineNo })
  }
  const recovered = { source: INPUT_HISTORY_SOURCE }
  const rows = prompts.map((p, i) =>
    makeSecondaryRow({
      agent,
      turnType: 'user',
      text: p.prompt,
      sourceFile: path,
      sourceLine: p.line,
      recovered,
      ...(i === prompts.length - 1 && bad.length === 0 && p.ts !== undefined ? { timestampUtc: p.ts } : {}),
    }),
  )
  if (bad.length) {
    rows.push(
      makeSecondaryRow({
        agent,
        turnType: 'system',
        text: `parser: ${path} has ${plural(bad.length, 'bad line')} (${bad.length === 1 ? 'line' : 'lines'} ${bad.join(', ')}); skipped, and no prompt's time is known`,
        sourceFile: path,
        sourceLine: bad[0]!,
        recovered,
      }),
    )
  }
  return rows
}
