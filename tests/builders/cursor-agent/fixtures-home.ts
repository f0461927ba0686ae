/**
 * Fixture generator: a Cursor agent CLI home with every documented shape (tests only; see
 * src/main/agents/cursor/FIXTURES.md). Ids and times are fixed so the IR is deterministic.
 *
 * - `STORE`: chats/<md5(cwd)>/<id>/store.db (AI-SDK leaves: system, injected `<user_info>` +
 *   `<user_query>`, reasoning with signature, redacted-reasoning, Shell/StrReplace tool calls and
 *   results with `highLevelToolCallResult`, an image as hex bytes, a `<timestamp>`-prefixed prompt,
 *   a protobuf-wrapped leaf), a subtree (0x12), a stale older checkpoint, meta.json,
 *   prompt_history.json, and a transcript of the same id (the store wins).
 * - `ACP`: acp-sessions/<id>/ with OpenAI-shaped messages, a compaction summary and v5 `output`.
 * - `FLAT`: a flat transcript only (store pruned), project path from `.workspace-trusted`.
 * - `NESTED`: a nested transcript with one sub-agent transcript; the chat folder kept meta.json only.
 * - `IDE`: a transcript whose id is a Cursor IDE composer (left to the Cursor IDE reader).
 */
import { join } from 'node:path'
import { closeDb, createStateDb, cursorUserDir, put } from '../cursor/fixtures'
import { BlobStore, chatFolder, hexJson, projectFolder, writeJson, writeJsonl, writeStoreDb } from './fixtures'

/** Session ids of the agent home. */
export const AGENT = {
  STORE: '5d7c0b1e-2a44-4f0e-9f3b-8c1a2e6d4b70',
  ACP: '6e8d1c2f-3b55-4a1f-8a4c-9d2b3f7e5c81',
  FLAT: '7f9e2d3a-4c66-4b2a-9b5d-ae3c4a8f6d92',
  NESTED: '8a0f3e4b-5d77-4c3b-8c6e-bf4d5b9a7ea3',
  SUB: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
  IDE: '9b1a4f5c-6e88-4d4c-9d7f-c05e6cab8fb4',
} as const

const CWD = '/home/ana/src/ledgerlite'
const PNG_HEX = '89504e470d0a1a0a0000000d49484452'

function storeSession(home: string): void {
  const s = new BlobStore()
  const sys = s.message({ role: 'system', content: 'You are an AI coding assistant, powered by a model.' })
  const user1 = s.message({ role: 'user', content: [
    { type: 'text', text: '<user_info>\nOS: linux\nShell: bash\nWorkspace: /home/ana/src/ledgerlite\n</user_info>' },
    { type: 'text', text: '<user_query>\nrename flags.ts to featureFlags.ts\n</user_query>' },
  ], providerOptions: { cursor: { requestId: 'req-s-1' } } })
  const asst1 = s.message({ role: 'assistant', id: 'msg_1', content: [
    { type: 'reasoning', text: 'Use git mv so history follows.', signature: 'sig-store-1' },
    { type: 'text', text: 'Renaming the module and updating imports.' },
    { type: 'tool-call', toolCallId: 'toolu_01Xy', toolName: 'Shell', args: { command: 'git mv src/flags.ts src/featureFlags.ts' }, providerOptions: { cursor: { modelName: 'claude-4.5-sonnet', requestId: 'req-s-2' } } },
  ] })
  const tool1 = s.message({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_01Xy', toolName: 'Shell', result: '{"output":"","exitCode":0}' }],
    providerOptions: { cursor: { highLevelToolCallResult: { output: { success: { localExecutionTimeMs: 41, exitCode: 0 }, isError: false } } } } })
  const asst2 = s.message({ role: 'assistant', id: '1', content: [
    { type: 'redacted-reasoning', data: 'opaque-redacted-blob==' },
    { type: 'tool-call', toolCallId: 'toolu_02Ed', toolName: 'StrReplace', args: { path: '/home/ana/src/ledgerlite/src/app.ts', old_string: "from './flags'", new_string: "from './featureFlags'" } },
  ] })
  const tool2 = s.message({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_02Ed', toolName: 'StrReplace', result: 'The file was updated.' }],
    providerOptions: { cursor: { highLevelToolCallResult: { output: { success: { executionTime: 12 } } } } } })
  const user2 = s.message({ role: 'user', content: [
    { type: 'text', text: '<timestamp>Monday, Mar 2, 2026, 4:10 PM (UTC+1)</timestamp>\n<user_query>\ndoes this screenshot look right?\n</user_query>' },
    { type: 'image', image: { __type: 'Uint8Array', hex: PNG_HEX } },
  ] })
  const asst3 = s.wrappedMessage({ role: 'assistant', content: [{ type: 'text', text: 'Yes, the import now points at featureFlags. [REDACTED]' }] }, 1783737900000)
  const sub = s.tree([{ leaf: sys }, { leaf: user1 }, { leaf: asst1 }, { leaf: tool1 }])
  const stale = s.tree([{ leaf: sys }, { leaf: user1 }, { leaf: s.message({ role: 'assistant', content: 'stale branch answer' }) }])
  const root = s.tree([{ tree: sub }, { leaf: asst2 }, { leaf: tool2 }, { leaf: user2 }, { leaf: asst3 }], { workspaceUri: `file://${CWD}`, clientTag: 'cli' })
  void stale
  const dir = chatFolder(home, CWD, AGENT.STORE)
  writeStoreDb(join(dir, 'store.db'), s, hexJson({ agentId: AGENT.STORE, latestRootBlobId: root, name: 'Rename flags module', mode: 'auto-run', createdAt: 1783737832293, lastUsedModel: 'gpt-5.4-high', isRunEverything: true, blobEncryptionKey: 'bm90LWEtcmVhbC1rZXk=' }))
  writeJson(join(dir, 'meta.json'), { schemaVersion: 1, createdAtMs: 1783737832293, hasConversation: true, updatedAtMs: 1783737933338, cwd: CWD })
  writeJson(join(dir, 'prompt_history.json'), ['rename flags.ts to featureFlags.ts', 'does this screenshot look right?'])
  const proj = projectFolder(home, 'home-ana-src-ledgerlite', CWD)
  writeJsonl(join(proj, 'agent-transcripts', `${AGENT.STORE}.jsonl`), [{ role: 'user', message: { content: [{ type: 'text', text: '<user_query>\nrename flags.ts\n</user_query>' }] } }], 1783737933000)
}

function acpSession(home: string): void {
  const s = new BlobStore()
  const m = [
    s.message({ role: 'user', content: 'Summarize the failing CI job' }),
    s.message({ role: 'assistant', content: 'Reading the log.', tool_calls: [{ id: 'call_r1', type: 'function', function: { name: 'ReadFile', arguments: '{"path":"/home/ana/src/api/ci.log"}' } }] }),
    s.message({ role: 'tool', tool_call_id: 'call_r1', content: 'ERROR: lint failed' }),
    s.message({ role: 'user', content: [{ type: 'text', text: 'Summary of the earlier conversation: CI fails on lint.' }], providerOptions: { cursor: { isSummary: true } } }),
    s.message({ role: 'assistant', content: [{ type: 'reasoning', text: '', providerOptions: { openai: { encryptedContent: 'gAAAA-encrypted' } } }, { type: 'tool-call', toolCallId: 'call_g1', toolName: 'Grep', input: { pattern: 'eslint', path: '/home/ana/src/api' } }] }),
    s.message({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_g1', toolName: 'Grep', output: { type: 'text', value: 'package.json:12: "eslint": "^9"' } }] }),
    s.message({ role: 'assistant', content: [{ type: 'text', text: 'Lint fails because eslint 9 needs a flat config.' }] }),
  ]
  const root = s.tree(m.map((leaf) => ({ leaf })))
  const dir = join(home, '.cursor', 'acp-sessions', AGENT.ACP)
  writeStoreDb(join(dir, 'store.db'), s, hexJson({ agentId: AGENT.ACP, latestRootBlobId: root, name: 'CI lint', mode: 'auto-run', createdAt: 1783800000000 }))
  writeJson(join(dir, 'meta.json'), { schemaVersion: 1, cwd: '/home/ana/src/api', title: 'CI lint failure' })
}

function transcripts(home: string): void {
  const proj = projectFolder(home, 'home-ana-src-ledgerlite', CWD)
  writeJsonl(join(proj, 'agent-transcripts', `${AGENT.FLAT}.jsonl`), [
    { role: 'user', message: { content: [{ type: 'text', text: '<timestamp>Monday, Mar 2, 2026, 4:10 PM (UTC+1)</timestamp>\n<user_query>\nadd a --dry-run flag\n</user_query>' }] } },
    { role: 'assistant', message: { content: [{ type: 'text', text: 'Looking at the CLI entry point.' }, { type: 'tool_use', name: 'Read', input: { path: '/home/ana/src/ledgerlite/cli.py' } }, { type: 'tool_use', name: 'Grep', input: { pattern: 'argparse', path: '/home/ana/src/ledgerlite' } }] } },
    { type: 'error', error: 'Provider Error: upstream timeout' },
    '',
    { role: 'user', message: { content: [{ type: 'text', text: '<system_reminder>Todo list is empty.</system_reminder>' }] } },
    { role: 'assistant', message: { content: [{ type: 'thinking', thinking: 'Add the flag next to --verbose.' }, { type: 'text', text: 'Added `--dry-run`.\n\n[REDACTED]' }] } },
    { type: 'turn_ended', status: 'success' },
  ], 1772464300000)
  const nested = projectFolder(home, 'home-ana-src-api')
  writeJsonl(join(nested, 'agent-transcripts', AGENT.NESTED, `${AGENT.NESTED}.jsonl`), [
    { role: 'user', message: { content: [{ type: 'text', text: '<user_query>\nfind unused exports\n</user_query>' }] } },
    { role: 'assistant', message: { content: [{ type: 'tool_use', name: 'Task', input: { description: 'scan exports', prompt: 'List exports nobody imports' } }] } },
    { role: 'assistant', message: { content: [{ type: 'text', text: 'Two exports are unused.' }] } },
    { type: 'turn_ended', status: 'error', error: { message: 'aborted by user' } },
  ], 1772500000000)
  writeJsonl(join(nested, 'agent-transcripts', AGENT.NESTED, 'subagents', `${AGENT.SUB}.jsonl`), [
    { role: 'user', message: { content: [{ type: 'text', text: 'List exports nobody imports' }] } },
    { role: 'assistant', message: { content: [{ type: 'tool_use', name: 'Glob', input: { glob_pattern: '**/*.ts', target_directory: '/home/ana/src/api' } }, { type: 'text', text: 'parseTz and oldFormat.' }] } },
  ], 1772499990000)
  // The store was pruned; its chat folder kept meta.json (hasConversation, cwd, times).
  writeJson(join(chatFolder(home, '/home/ana/src/api', AGENT.NESTED), 'meta.json'), { schemaVersion: 1, createdAtMs: 1772499000000, hasConversation: true, updatedAtMs: 1772500000000, cwd: '/home/ana/src/api' })
  writeJsonl(join(proj, 'agent-transcripts', AGENT.IDE, `${AGENT.IDE}.jsonl`), [{ role: 'user', message: { content: [{ type: 'text', text: 'an IDE chat' }] } }], 1772400000000)
  writeJsonl(join(proj, 'agent-transcripts', AGENT.IDE, 'subagents', 'c0ffee00-0000-4000-8000-000000000001.jsonl'), [{ role: 'user', message: { content: [{ type: 'text', text: 'IDE sub-agent' }] } }], 1772400000000)
  const ide = createStateDb(join(cursorUserDir(home), 'globalStorage', 'state.vscdb'))
  put(ide, 'cursorDiskKV', `composerData:${AGENT.IDE}`, { _v: 17, composerId: AGENT.IDE, fullConversationHeadersOnly: [{ bubbleId: 'i1', type: 1 }] })
  put(ide, 'cursorDiskKV', `bubbleId:${AGENT.IDE}:i1`, { type: 1, bubbleId: 'i1', text: 'an IDE chat' })
  closeDb(ide)
}

/** Write the agent home (all sessions above) into `home`. */
export function writeAgentHome(home: string): void {
  storeSession(home)
  acpSession(home)
  transcripts(home)
}
