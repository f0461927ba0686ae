/**
 * The resume matrix as Markdown (`RESUME-MATRIX.md`, also printed): source store x target agent,
 * each cell the sessions that resumed with every prior turn, then the per-session details and why a
 * cell that cannot pass does not.
 */
import type { CaseResult } from './run-case'

/** A target column. */
export interface Column {
  agent: string
  displayName: string
  /** `name@version` of the CLI. */
  cli: string
  /** When this column was last run (`YYYY-MM-DD`). */
  date?: string
}

/** A source row. */
export interface Row {
  label: string
  sessions: number
}

/**
 * How the cells now in the record were last run, when a run replaced single cases (the header names
 * only the last command): date, commands, load average (1 minute, 2 cores) and CLI versions.
 */
export const RUN_NOTES: readonly string[] = [
  '2026-12-02, public-real rows: every source into every target with `--sources public-real-claude-code,public-real-codex` (load about 30), then the cases that failed ' +
    'rerun one CLI at a time with `--cases` / `--only-failed`: Gemini CLI `@google/gemini-cli@0.61.0` (14 cases, load 11 to 17), Cline `cline@3.0.65` (9, load 8 to 15), ' +
    'Kilo Code `@kilocode/cli@7.7.7` (019f80ed, and 019ddeed again: load 13 to 17), OpenCode `opencode-ai@1.18.33` (5: the four public-real Claude Code sessions that ' +
    'had timed out at 240 s under load 30 passed in 41 to 99 s at load 13 to 17 with the load-scaled timeout; 019ddeed stops on its image).',
  '2026-12-02, Qwen Code and Pi: `--targets qwen-code,pi` (every source; load about 4; the public-real Claude Code home then held 43 sessions, the older columns ran on 38), ' +
    'the three sessions without turns into Qwen Code again with `--only-failed` once the check knew its "No saved session found", then `--sources qwen-code,pi` (every target), then `--targets pi` again once the Pi writer kept the cost (every source passed).',
  '2026-12-02, the five public-real Claude Code sessions the older columns had not run (the sub-agent sidechains of 155c3456) into Cline, Codex, Gemini CLI, OpenCode and Kilo Code ' +
    'with `--sources public-real-claude-code --targets codex,gemini,opencode,kilo-code,cline --cases <their ids>` (load about 1 to 2): all 25 passed (Cline 45 to 51 s a session), so every column now ran on all 43.',
  '2026-12-02, GitHub Copilot CLI and Factory Droid: `--targets copilot-cli` (every source; load about 8), the 7 public-real sessions that Copilot truncated to its 128,000-token default again with `--cases` once the driver set `COPILOT_PROVIDER_MAX_PROMPT_TOKENS` (all passed); ' +
    '`--targets droid` (every source; load about 8 to 10), then `--only-failed` once the check knew that Droid sends its own text for Edit results; then `--sources copilot-cli,droid` (every target).',
  '2026-12-02, Continue: `--targets continue` (every source; load 13 to 18), the 7 public-real sessions over the CLI\'s 200,000-token default context again with `--only-failed` once the check read its "Auto-compaction triggered" log line, then `--sources continue` (every target).',
  '2026-12-02, the cells between the Continue, Copilot CLI and Droid columns and rows, which had run in separate worktrees: `--sources continue --targets copilot-cli,droid`, then `--sources copilot-cli,droid --targets continue` (load about 2 to 4): 9 pass, the 2 Continue sessions with an edit into Droid cannot pass (Droid sends its own text for Edit results).'
]

/** Why a cell is empty or cannot pass, by `source>target` (or `source>*`). */
export const CELL_NOTES: Record<string, string> = {
  'claude-code>claude-code': 'same agent (nothing to convert)',
  'cline>cline': 'same agent and store (nothing to convert)',
  'codex>codex': 'same agent (nothing to convert)',
  'gemini>gemini': 'same agent (nothing to convert)',
  'opencode>opencode': 'same agent (nothing to convert)',
  'kilo>kilo-code': 'same agent (nothing to convert)',
  'public-real-claude-code>claude-code': 'same agent (nothing to convert)',
  'public-real-codex>codex': 'same agent (nothing to convert)',
  'qwen-code>qwen-code': 'same agent (nothing to convert)',
  'pi>pi': 'same agent (nothing to convert)',
  'copilot-cli>copilot-cli': 'same agent (nothing to convert)',
  'droid>droid': 'same agent (nothing to convert)',
  'continue>continue': 'same agent (nothing to convert)',
}

const cellKey = (source: string, target: string) => `${source}>${target}`

/** The matrix cell text for one source and target. */
export function cell(results: CaseResult[], source: string, target: string): string {
  const note = CELL_NOTES[cellKey(source, target)]
  const mine = results.filter((r) => r.source === source && r.target === target)
  if (mine.length === 0) return note ? `— ${note}` : '— not run'
  const passed = mine.filter((r) => r.ok).length
  const cannot = mine.filter((r) => !r.ok && r.cannot)
  const compacted = cannot.filter((r) => r.cannot!.startsWith('the target compacted')).length
  const other = cannot.length - compacted
  const failed = mine.length - passed - cannot.length
  // Compaction, and the rest of what the target drops or refuses itself (masked tool outputs,
  // skipped command-like messages, a session without turns, an image that does not decode): see
  // "Failures" for each case's reason.
  const tail = (compacted ? `, ${compacted} compacted by the target` : '') + (other ? `, ${other} cannot pass (the target's own doing)` : '')
  return `${failed === 0 ? 'PASS' : 'FAIL'} ${passed}/${mine.length}${tail}`
}

const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The whole report. */
export function renderMatrix(results: CaseResult[], rows: Row[], columns: Column[], meta: { date: string; command: string; textOnly: boolean; node: string }): string {
  const out: string[] = []
  out.push('# Resume matrix', '')
  out.push(
    `Every real sample session (\`fixtures/real/<agent>/home\`, written by the real agent CLIs) and the Cursor, Cursor agent and Devin fixture homes ` +
      `(\`fixtures/generated\`, built from the documented shapes: no real store of these agents exists here), converted by Sepia ` +
      `(${meta.textOnly ? 'text-only' : 'native tool blocks'}) into a fresh home, then resumed by the real target CLI against the loopback mock model ` +
      `(\`resume/mock\`). A session passes when Sepia's read-back matches what it wrote and the first request the agent sends after the resume prompt ` +
      `holds every prior user text, assistant text and tool result of the source, with at least as many tool-call blocks as the source had calls and ` +
      `every tool result answering a call.`,
    '',
  )
  out.push(
    `Last updated ${meta.date} by \`${meta.command}\` (Node ${meta.node}); cells of other targets and sources come from earlier runs kept in the ` +
      `\`.json\` record next to this file. CLIs: ${columns.map((c) => `${c.displayName} \`${c.cli}\`${c.date ? ` (run ${c.date})` : ''}`).join(', ')}.`,
    '',
  )
  if (RUN_NOTES.length) out.push(...RUN_NOTES.map((n) => `Runs: ${n}`), '')
  out.push(`| source \\ target | ${columns.map((c) => c.displayName).join(' | ')} |`)
  out.push(`|---|${columns.map(() => '---').join('|')}|`)
  for (const r of rows) out.push(`| ${r.label} (${r.sessions}) | ${columns.map((c) => cell(results, r.label, c.agent)).join(' | ')} |`)
  out.push('')
  const failed = results.filter((r) => !r.ok)
  if (failed.length) {
    out.push('## Failures', '')
    for (const f of failed) {
      out.push(`### ${f.source} \`${f.sessionId}\` → ${f.target}`, '')
      if (f.cannot) out.push(`Cannot pass: ${f.cannot}.`, '')
      out.push('```', f.verdict, ...f.missing.map((m) => `  ${m}`), ...(f.differences.length ? ['read-back differences:', ...f.differences.map((d) => `  ${d}`)] : []), ...(f.error ? [f.error] : []), '```', '')
    }
  }
  out.push('## Sessions', '')
  out.push('| source | session | target | result | what the conversion changed |')
  out.push('|---|---|---|---|---|')
  for (const r of results) {
    const changed = r.warnings.length ? r.warnings.map(esc).join('<br>') : 'nothing'
    out.push(`| ${r.source} | \`${r.sessionId}\` | ${r.target} | ${esc(r.verdict)} | ${changed} |`)
  }
  out.push('')
  return out.join('\n')
}
