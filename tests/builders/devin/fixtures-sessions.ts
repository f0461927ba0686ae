/**
 * Test-only fixture scenarios for the Devin reader, following the fixture recipe of
 * `shared/formats/cursor-devin-atif-acp.md` C6 and the edge cases 30-39 (see FIXTURES.md for the
 * list). Each session's data is a plain value; `fixtures-homes.ts` writes them into homes.
 */
import type { SessionData } from './fixtures'
import { acpCall, acpUpdate, assistant, call, CWD, metrics, system, T0, tool, user } from './fixtures-messages'

const PREFIX = 'You are Devin, an interactive command line agent that helps users with software engineering tasks.'
const prefix = { is_system_prefix: true, summarized_from: null, num_tokens_preceding: null }

/**
 * `quiet-harbor`: an abandoned branch (node 5), a context rebuild copying nodes 1-7 (same
 * `message_id`, `compact/prior_node_ids`), a turn with two parallel `exec` calls (one failing), a
 * sub-agent spawn, a live and a dangling `subagent_heads` row, `tool_call_state` for some calls
 * (one with no update, one naming no call), prompt history with a shell entry.
 */
export function quietHarbor(): SessionData {
  const a1 = assistant('m-a1', "I'll look at the parser first.", {
    at: 4, thinking: 'Need to find argparse setup.', model: 'swe-2-high', request: 'req-a1', metrics: metrics(512, 87, 11800),
    calls: [call('exec_0_9f2c#a1', 'exec', { command: 'grep -n argparse cli.py' })],
    content: { 'exec_0_9f2c#a1': { toolCallId: 'exec_0_9f2c#a1', title: 'Ran grep', status: 'pending', kind: 'execute', rawInput: { command: 'grep -n argparse cli.py' }, content: [], _meta: {} } },
  })
  const t1 = tool('m-t1', 'exec_0_9f2c#a1', '14:import argparse', { at: 5, exit: 0, durationMs: 12 })
  const a2 = assistant('m-a2', "I'll add the flag next to parse_args.", {
    at: 8, model: 'swe-2-high', request: 'req-a2', metrics: metrics(300, 120, 12300, 40),
    calls: [call('edit_0_77aa#b2', 'edit', { file_path: `${CWD}/cli.py`, old_string: 'args = p.parse_args()', new_string: "p.add_argument('--dry-run', action='store_true')\nargs = p.parse_args()" })],
  })
  const t2 = tool('m-t2', 'edit_0_77aa#b2', 'Edited cli.py', { at: 9, kind: 'edit' })
  const copy = (ids: number[]) => ({ ...prefix, is_system_prefix: null, extensions: { 'compact/prior_node_ids': ids } })
  const nodes: SessionData['nodes'] = [
    { node: 1, parent: null, chat: system('m-sys', PREFIX), at: T0, meta: prefix },
    { node: 2, parent: 1, chat: user('m-u1', 'add a --dry-run flag', 2), at: T0 + 2 },
    { node: 3, parent: 2, chat: a1, at: T0 + 4 },
    { node: 4, parent: 3, chat: t1, at: T0 + 5 },
    { node: 5, parent: 4, chat: assistant('m-a2x', 'Let me rewrite the whole CLI instead.', { at: 6, model: 'swe-2-high', request: 'req-a2x', metrics: metrics(280, 30, 12300) }), at: T0 + 6 },
    { node: 6, parent: 4, chat: a2, at: T0 + 8 },
    { node: 7, parent: 6, chat: t2, at: T0 + 9 },
    // Context rebuild: a new root that copies the chain above.
    { node: 20, parent: null, chat: system('m-sys', PREFIX), at: T0 + 200, meta: { ...prefix, extensions: { 'compact/prior_node_ids': [1] } } },
    { node: 21, parent: 20, chat: system('m-sys2', 'You are powered by swe-2-high.'), at: T0 + 200, meta: prefix },
    { node: 22, parent: 21, chat: system('m-ctx', '<system_info>os: linux</system_info>', 200, { 'affogato/cog-context': { key: 'workspace/context' } }), at: T0 + 200 },
    { node: 23, parent: 22, chat: user('m-u1', 'add a --dry-run flag', 2), at: T0 + 200, meta: copy([2]) },
    { node: 24, parent: 23, chat: a1, at: T0 + 200, meta: copy([3]) },
    { node: 25, parent: 24, chat: t1, at: T0 + 200, meta: copy([4]) },
    { node: 26, parent: 25, chat: a2, at: T0 + 200, meta: copy([6]) },
    { node: 27, parent: 26, chat: t2, at: T0 + 200, meta: copy([7]) },
    {
      node: 28, parent: 27, at: T0 + 300,
      chat: user('m-u2', 'now run the tests and add one for --dry-run', 300, {
        ext: { 'chisel/acp-content-blocks': [{ type: 'text', text: 'now run the tests and add one for --dry-run' }, { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }] },
      }),
    },
    { node: 29, parent: 28, chat: user('m-rules', '<rules type="always-on">Use pytest.</rules>', 300, { input: false }), at: T0 + 300 },
    {
      node: 30, parent: 29, at: T0 + 304,
      chat: assistant('m-a3', 'Running both test suites.', {
        at: 304, thinking: 'Run unit and cli tests in parallel.', model: 'swe-2-high', request: 'req-a3', metrics: metrics(900, 60, 13000),
        calls: [call('exec_1_aa01#c1', 'exec', { command: 'pytest tests/unit' }, 0), call('exec_1_aa02#c2', 'exec', { command: 'pytest tests/cli' }, 1)],
      }),
    },
    { node: 31, parent: 30, chat: tool('m-t3', 'exec_1_aa01#c1', '12 passed', { at: 306, exit: 0, durationMs: 2400 }), at: T0 + 306 },
    { node: 32, parent: 31, chat: tool('m-t4', 'exec_1_aa02#c2', 'FAILED tests/cli/test_dry_run.py::test_flag', { at: 307, exit: 1, success: false, durationMs: 3100 }), at: T0 + 307 },
    {
      node: 33, parent: 32, at: T0 + 310,
      chat: assistant('m-a4', "One test fails; I'll ask a sidekick to investigate.", {
        at: 310, model: 'swe-2-high', request: 'req-a4', metrics: metrics(400, 50, 13100),
        calls: [call('run_subagent_2_bb#d1', 'run_subagent', { agent: 'sidekick', prompt: 'Investigate why tests/cli/test_dry_run.py fails.' })],
      }),
    },
    {
      node: 34, parent: 33, at: T0 + 420,
      chat: tool('m-t5', 'run_subagent_2_bb#d1', 'Sidekick finished: the fixture path was wrong.', {
        at: 420, kind: 'other', durationMs: 95000, ext: { 'subagent/agent_id': 'sidekick', 'subagent/profile_name': 'sidekick', 'subagent/model': 'swe-1-6-fast', 'subagent/chain_node_id': 44 },
      }),
    },
    { node: 35, parent: 34, chat: assistant('m-a5', 'Fixed the fixture path; all tests pass now.', { at: 430, model: 'swe-2-high', request: 'req-a5', metrics: metrics(500, 40, 13200) }), at: T0 + 430 },
    // Sub-agent chain (its own root in the same forest).
    { node: 40, parent: null, chat: system('m-s0', 'You are a sidekick sub-agent.', 320, { 'agent-ext/rules-loaded': { rule_paths: [`${CWD}/AGENTS.md`] } }), at: T0 + 320, meta: prefix },
    { node: 41, parent: 40, chat: user('m-s1', 'Investigate why tests/cli/test_dry_run.py fails.', 321, { ext: { 'subagent/handoff': true, 'chisel/fusion_lead_model_uid': 'swe-2-high' } }), at: T0 + 321 },
    { node: 42, parent: 41, chat: assistant('m-s2', 'Checking the fixture.', { at: 330, model: 'swe-1-6-fast', metrics: metrics(200, 20, 0), calls: [call('exec_s_01#e1', 'exec', { command: 'pytest tests/cli -x' })] }), at: T0 + 330 },
    { node: 43, parent: 42, chat: tool('m-s3', 'exec_s_01#e1', 'FileNotFoundError: fixtures/cli.json', { at: 340, exit: 1, success: false }), at: T0 + 340 },
    { node: 44, parent: 43, chat: assistant('m-s4', 'The fixture path was wrong.', { at: 400, model: 'swe-1-6-fast', metrics: metrics(250, 15, 0) }), at: T0 + 400 },
  ]
  return {
    row: {
      id: 'quiet-harbor', working_directory: CWD, backend_type: 'windsurf', model: 'swe-2-high', agent_mode: 'normal',
      created_at: T0, last_activity_at: T0 + 430, title: 'Add a --dry-run flag', main_chain_id: 35, shell_last_seen_index: 0,
      cogs_json: '{"core":{"model":"swe-2-high"}}', workspace_dirs: '[]', hidden: 0,
      metadata: JSON.stringify({ total_credit_cost: 1.25, total_acu_cost: 0.5 }),
    },
    nodes,
    toolStates: [
      {
        id: 'edit_0_77aa#b2',
        call: acpCall('edit_0_77aa#b2', 'Edit cli.py', 'edit', { locations: [{ path: `${CWD}/cli.py`, line: 14 }], rawInput: { file_path: `${CWD}/cli.py` } }),
        update: acpUpdate('edit_0_77aa#b2', 'completed', { content: [{ type: 'diff', path: `${CWD}/cli.py`, oldText: 'args = p.parse_args()\n', newText: "p.add_argument('--dry-run', action='store_true')\nargs = p.parse_args()\n" }, { type: 'terminal', terminalId: 't-9' }] }),
      },
      { id: 'exec_1_aa01#c1', call: acpCall('exec_1_aa01#c1', 'Ran pytest tests/unit', 'execute'), update: null },
      { id: 'exec_1_aa02#c2', call: acpCall('exec_1_aa02#c2', 'Ran pytest tests/cli', 'execute'), update: acpUpdate('exec_1_aa02#c2', 'failed') },
      { id: 'exec_9_dead#zz', call: acpCall('exec_9_dead#zz', 'Ran ls', 'execute'), update: acpUpdate('exec_9_dead#zz', 'completed') },
    ],
    heads: [
      { agent: 'sidekick', node: 44, at: T0 + 400 },
      { agent: 'ghost', node: 999, at: T0 + 410 },
    ],
    prompts: [
      { content: 'add a --dry-run flag', at: T0 + 2 },
      { content: 'now run the tests and add one for --dry-run', at: T0 + 300 },
      { content: 'git status', at: T0 + 310, shell: true },
    ],
  }
}

/**
 * `amber-falcon`: times in **milliseconds** (sessions and rows), a compaction pair sharing
 * `summarized_from = 5`, and an import's unrendered/rendered assistant twins (nodes 14, 15).
 */
export function amberFalcon(): SessionData {
  const ms = (s: number) => (T0 + 86400 + s) * 1000
  const bare = (id: string, role: string, content: string) => ({ message_id: id, role, content })
  const edit = call('edit_3_cc#f1', 'edit', { file_path: `${CWD}/README.md`, old_string: '', new_string: '## Testing\n' })
  const compaction = { summarized_from: 5, num_tokens_preceding: 48000, is_system_prefix: null }
  return {
    row: { id: 'amber-falcon', working_directory: CWD, backend_type: 'windsurf', model: 'swe-1-6-slow', agent_mode: 'accept-edits', created_at: ms(0), last_activity_at: ms(60), title: 'Repo layout', main_chain_id: 17, workspace_dirs: JSON.stringify([`${CWD}/docs`]), hidden: 0, metadata: null },
    nodes: [
      { node: 1, parent: null, chat: system('m-sys', PREFIX), at: ms(0), meta: prefix },
      { node: 2, parent: 1, chat: { ...bare('f-u1', 'user', 'summarize the repo layout'), metadata: { is_user_input: true } }, at: ms(1) },
      { node: 3, parent: 2, chat: bare('f-a1', 'assistant', 'src/ holds the code and tests/ the tests.'), at: ms(3) },
      { node: 4, parent: 3, chat: { ...bare('f-u2', 'user', 'and the docs?'), metadata: { is_user_input: true } }, at: ms(5) },
      { node: 5, parent: 4, chat: bare('f-a2', 'assistant', 'docs/ has the user guide.'), at: ms(7) },
      { node: 10, parent: null, chat: system('m-sys', PREFIX), at: ms(20), meta: { ...prefix, extensions: { 'compact/prior_node_ids': [1] } } },
      { node: 11, parent: 10, chat: bare('f-sum', 'assistant', '## Summary\nThe user asked about the repo layout: src/, tests/, docs/.'), at: ms(20), meta: compaction },
      {
        node: 12, parent: 11, at: ms(20), meta: { ...compaction, num_tokens_preceding: 48100 },
        chat: system('f-cont', 'You are continuing work from a previous conversation thread. Full conversation history saved at /home/ana/.local/share/devin/cli/summaries/main/history_3fa2.md.', 86420, {
          'devin-rs/summary': { source: 'async_file_compactor' }, 'compact/edited_files': { paths: [`${CWD}/src/app.py`] },
          'compact/todo_list': { todos: [{ content: 'add tests', status: 'pending' }] }, 'subagent/handoff_history': [],
        }),
      },
      { node: 13, parent: 12, chat: { ...bare('f-u3', 'user', 'write a README section about tests'), metadata: { is_user_input: true } }, at: ms(30) },
      { node: 14, parent: 13, chat: { ...bare('f-tw-a', 'assistant', "I'll write it."), tool_calls: [edit], metadata: { request_id: 'req-tw', finish_reason: 'tool_calls' } }, at: ms(32) },
      { node: 15, parent: 14, chat: { ...bare('f-tw-b', 'assistant', "I'll write it."), tool_calls: [edit], metadata: { finish_reason: 'tool_calls', generation_model: 'swe-1-6-slow', metrics: metrics(640, 45, 2048) } }, at: ms(32) },
      { node: 16, parent: 15, chat: tool('f-t1', 'edit_3_cc#f1', 'Edited README.md', { at: 86433, kind: 'edit' }), at: ms(33) },
      { node: 17, parent: 16, chat: { ...bare('f-a3', 'assistant', 'Added a Testing section.'), metadata: { generation_model: 'swe-1-6-slow', finish_reason: 'stop', metrics: metrics(700, 12, 2048) } }, at: ms(40) },
    ],
  }
}

/**
 * `pale-moon`: `model = ''`, `main_chain_id` NULL, `hidden = 1`, no title, a corrupt
 * `chat_message` (`'{not json'`), a literal `'null'` chat_message, `'null'` and corrupt node metadata.
 */
export function paleMoon(): SessionData {
  return {
    row: { id: 'pale-moon', working_directory: CWD, backend_type: 'windsurf', model: '', agent_mode: 'bypass', created_at: T0 + 7200, last_activity_at: T0 + 7300, title: null, main_chain_id: null, workspace_dirs: '[]', hidden: 1, metadata: 'null' },
    nodes: [
      { node: 1, parent: null, chat: system('p-sys', PREFIX), at: T0 + 7200, meta: prefix },
      { node: 2, parent: 1, chat: user('p-u1', 'check the build', 7201), at: T0 + 7201, meta: '{bad' },
      { node: 3, parent: 2, chat: assistant('p-a1', 'Running make.', { at: 7203, model: 'swe-2-low', metrics: metrics(100, 10, 0), calls: [call('exec_7_ee#g1', 'exec', { command: 'make' })] }), at: T0 + 7203 },
      { node: 4, parent: 3, chat: '{not json', at: T0 + 7204 },
      { node: 5, parent: 4, chat: 'null', at: T0 + 7205, meta: 'null' },
      { node: 6, parent: 5, chat: assistant('p-a2', 'The build is green.', { at: 7210, model: 'swe-2-high', metrics: metrics(120, 8, 0) }), at: T0 + 7210, meta: 'null' },
    ],
  }
}

/** `still-river`: a two-node session whose only generation was interrupted (all-zero metrics). */
export function stillRiver(): SessionData {
  return {
    row: { id: 'still-river', working_directory: '/home/ana/src/other', backend_type: 'windsurf', model: 'swe-2-high', agent_mode: 'plan', created_at: T0 + 9000, last_activity_at: T0 + 9005, title: 'hello', main_chain_id: 2, hidden: 0 },
    nodes: [
      { node: 1, parent: null, chat: user('r-u1', 'hello', 9000), at: T0 + 9000 },
      { node: 2, parent: 1, chat: assistant('r-a1', '', { at: 9005, model: 'swe-2-high', metrics: metrics(0, 0, 0, 0), finish: 'cancelled' }), at: T0 + 9005 },
    ],
  }
}

/** `old-oak` for the older schema: no message metadata at all, a retry branch, no main_chain_id. */
export function oldOak(): SessionData {
  const m = (id: string, role: string, content: string) => ({ message_id: id, role, content })
  return {
    row: { id: 'old-oak', working_directory: '/home/ana/src/legacy', backend_type: 'windsurf', model: 'swe-1-5', agent_mode: 'normal', created_at: T0 - 86400, last_activity_at: T0 - 86000 },
    nodes: [
      { node: 1, parent: null, chat: m('o-u1', 'user', 'list the files'), at: T0 - 86400 },
      { node: 2, parent: 1, chat: m('o-a1', 'assistant', 'There is one file: main.py'), at: T0 - 86390 },
      { node: 3, parent: 1, chat: m('o-a2', 'assistant', 'main.py and README.md'), at: T0 - 86380 },
      { node: 4, parent: 3, chat: m('o-u2', 'user', 'thanks'), at: T0 - 86000 },
    ],
    prompts: [{ content: 'list the files', at: T0 - 86400 }],
  }
}
