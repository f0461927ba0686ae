/**
 * Test-only: write whole Devin homes from the fixture scenarios — `sessions.db` plus ATIF
 * transcripts (`shared/formats/cursor-devin-atif-acp.md` D "Devin's ATIF output": one JSON
 * document per session, v1.7 root, legacy `metadata{metrics,…}` steps, rewritten after every step
 * so it can be empty or cut short). Deterministic: same input, same files.
 */
import { join } from 'node:path'
import { storeDir, writeSessionsDb, writeTranscript } from './fixtures'
import { CWD, iso } from './fixtures-messages'
import { amberFalcon, oldOak, paleMoon, quietHarbor, stillRiver } from './fixtures-sessions'

const AGENT = { name: 'devin', version: '3000.11.3', model_name: 'SWE-2 High', extra: { backend: 'windsurf', permission: 'normal' } }

/** ATIF v1.7 transcript of `quiet-harbor` (its main thread; reasoning for m-a2, which the db lacks). */
export function quietHarborAtif(): Record<string, unknown> {
  return {
    schema_version: 'ATIF-v1.7', session_id: 'quiet-harbor', agent: AGENT,
    steps: [
      { step_id: 1, source: 'system', message: 'You are Devin, an interactive command line agent …' },
      { step_id: 2, source: 'user', timestamp: iso(2), message: 'add a --dry-run flag' },
      {
        step_id: 3, source: 'agent', timestamp: iso(4), model_name: 'swe-2-high', message: "I'll look at the parser first.", reasoning_content: 'Need to find argparse setup.',
        tool_calls: [{ tool_call_id: 'exec_0_9f2c#a1', function_name: 'exec', arguments: { command: 'grep -n argparse cli.py' } }],
        observation: { results: [{ source_call_id: 'exec_0_9f2c#a1', content: '14:import argparse' }] },
        metrics: { prompt_tokens: 12312, completion_tokens: 87, cached_tokens: 11800 }, extra: { generation_model: 'swe-2-high' },
      },
      {
        step_id: 4, source: 'agent', timestamp: iso(8), model_name: 'swe-2-high', message: "I'll add the flag next to parse_args.", reasoning_content: 'The flag belongs right before parse_args().',
        tool_calls: [{ tool_call_id: 'edit_0_77aa#b2', function_name: 'edit', arguments: { file_path: `${CWD}/cli.py` } }],
        observation: { results: [{ source_call_id: 'edit_0_77aa#b2', content: 'Edited cli.py' }] },
      },
      { step_id: 5, source: 'user', timestamp: iso(300), message: [{ type: 'text', text: 'now run the tests and add one for --dry-run' }] },
      { step_id: 6, source: 'agent', timestamp: iso(304), message: 'Running both test suites.', reasoning_content: 'Run unit and cli tests in parallel.' },
      { step_id: 7, source: 'agent', timestamp: iso(310), message: "One test fails; I'll ask a sidekick to investigate.", extra: { request_id: 'req-a4' } },
      { step_id: 8, source: 'agent', timestamp: iso(430), message: 'Fixed the fixture path; all tests pass now.' },
    ],
    final_metrics: { total_prompt_tokens: 52000, total_completion_tokens: 357, total_cached_tokens: 49400, total_steps: 8 },
  }
}

/** `amber-falcon`'s export, saved under another name (`export-0001.json`), with legacy step metadata. */
export function amberFalconAtif(): Record<string, unknown> {
  return {
    schema_version: 'ATIF-v1.7', session_id: 'amber-falcon', agent: { ...AGENT, model_name: 'SWE-1.6 Slow' },
    steps: [
      { step_id: 1, source: 'user', timestamp: iso(86430), message: 'write a README section about tests' },
      { step_id: 2, source: 'agent', timestamp: iso(86440), message: 'Added a Testing section.', reasoning_content: 'A short section is enough.', metadata: { metrics: { input_tokens: 700, output_tokens: 12, cache_read_tokens: 2048 }, generation_model: 'swe-1-6-slow', is_user_input: false } },
    ],
    final_metrics: { total_prompt_tokens: 3400, total_completion_tokens: 57, total_cached_tokens: 2048 },
  }
}

/** `pale-moon`'s transcript cut in the middle of its 4th step (caught mid-rewrite). */
export function paleMoonAtifText(): string {
  const doc = {
    schema_version: 'ATIF-v1.7', session_id: 'pale-moon', agent: AGENT,
    steps: [
      { step_id: 1, source: 'system', message: 'You are Devin …' },
      { step_id: 2, source: 'user', timestamp: iso(7201), message: 'check the build' },
      { step_id: 3, source: 'agent', message: 'Running make.', reasoning_content: 'make is the build entry point.', tool_calls: [{ tool_call_id: 'exec_7_ee#g1', function_name: 'exec', arguments: { command: 'make' } }] },
      { step_id: 4, source: 'agent', message: 'The build is green.', reasoning_content: 'Exit code 0 everywhere.' },
    ],
  }
  const text = JSON.stringify(doc, null, 2)
  return text.slice(0, text.indexOf('Exit code 0'))
}

/** `lost-lantern`: a transcript whose session has no `sessions` row (ATIF steps only). */
export function lostLanternAtif(): Record<string, unknown> {
  return {
    schema_version: 'ATIF-v1.7', agent: AGENT,
    steps: [
      { step_id: 1, source: 'user', timestamp: iso(20000), message: 'print the version' },
      {
        step_id: 2, source: 'agent', timestamp: iso(20002), model_name: 'swe-2-high', message: 'Checking.', reasoning_content: 'Use --version.',
        tool_calls: [{ tool_call_id: 'exec_0_ll#a', function_name: 'exec', arguments: { command: 'python cli.py --version' } }],
        observation: { results: [{ source_call_id: 'exec_0_ll#a', content: '1.4.0' }] },
        metrics: { prompt_tokens: 1000, completion_tokens: 20, cached_tokens: 800, cost_usd: 0.002 },
      },
      { step_id: 3, source: 'agent', timestamp: iso(20004), message: 'Version 1.4.0.' },
    ],
    final_metrics: { total_prompt_tokens: 2100, total_completion_tokens: 30, total_cached_tokens: 1600, total_cost_usd: 0.004 },
  }
}

/**
 * The main fixture home: `quiet-harbor`, `amber-falcon`, `pale-moon` (hidden), `still-river` in a
 * schema-17 `sessions.db`, with transcripts: full, renamed, cut short, empty (0 bytes), and one
 * without a database row (`lost-lantern`).
 */
export function writeMainHome(home: string): void {
  const dir = storeDir(home)
  writeSessionsDb(join(dir, 'sessions.db'), [quietHarbor(), amberFalcon(), paleMoon(), stillRiver()], { schema: 'v17' })
  writeTranscript(join(dir, 'transcripts', 'quiet-harbor.json'), quietHarborAtif())
  writeTranscript(join(dir, 'transcripts', 'export-0001.json'), amberFalconAtif())
  writeTranscript(join(dir, 'transcripts', 'pale-moon.json'), undefined, paleMoonAtifText())
  writeTranscript(join(dir, 'transcripts', 'still-river.json'), undefined, '')
  writeTranscript(join(dir, 'transcripts', 'lost-lantern.json'), lostLanternAtif())
}

/** An older-schema store (no main_chain_id, no metadata columns, no tool_call_state/subagent_heads). */
export function writeOldHome(home: string): void {
  writeSessionsDb(join(storeDir(home), 'sessions.db'), [oldOak()], { schema: 'old' })
}

/** A live store: the rows of `amber-falcon` exist only in `sessions.db-wal`. */
export function writeWalHome(home: string): void {
  writeSessionsDb(join(storeDir(home), 'sessions.db'), [amberFalcon()], { schema: 'v17', walOnly: true })
}

/** A copied Windows profile: `AppData/Local/devin/cli/sessions.db` with `still-river`. */
export function writeWindowsHome(home: string): void {
  writeSessionsDb(join(home, 'AppData', 'Local', 'devin', 'cli', 'sessions.db'), [stillRiver()], { schema: 'v17' })
}
