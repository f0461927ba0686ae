/** Small hand-made IR values for the renderer tests. */
import type { Library } from '../../../shared/api'
import type { MessageNode, Session, SessionSummary } from '../../../shared/ir'

/** A session summary with the required fields filled. */
export function summary(id: string, over: Partial<SessionSummary> = {}): SessionSummary {
  return { id, agent: 'claude-code', messageCount: 2, toolCallCount: 0, format: 'claude-code-jsonl', files: [`/h/${id}.jsonl`], home: '/h', diagnosticCount: 0, ...over }
}

/** A library holding `sessions`, with Claude Code and Cline registered. */
export function library(sessions: SessionSummary[]): Library {
  const caps = { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: false }
  return {
    homes: [{ path: '/h', os: 'linux', isDemo: false }],
    agents: [
      { id: 'claude-code', displayName: 'Claude Code', sessionCount: sessions.filter((s) => s.agent === 'claude-code').length, capabilities: caps },
      { id: 'cline', displayName: 'Cline', sessionCount: sessions.filter((s) => s.agent === 'cline').length, capabilities: caps },
    ],
    sessions,
    diagnostics: [],
    credentialFiles: [],
    loadedAt: 0,
  }
}

/** A node with the required fields filled. */
export function node(nodeId: string, role: MessageNode['role'], content: string, over: Partial<MessageNode> = {}): MessageNode {
  return { nodeId, role, content, ...over }
}

/** A session with a tool call and its result, thinking, an injected message, an event and an orphan result. */
export function kitchenSink(): Session {
  return {
    irVersion: 1,
    id: 's1',
    agent: 'claude-code',
    title: 'Fix the parser',
    workingDirectory: 'C:\\Users\\ana\\src\\ledger',
    model: 'claude-opus-5-5',
    createdAt: Date.UTC(2026, 2, 1, 10, 0, 0),
    checkpoints: [],
    source: { format: 'claude-code-jsonl', files: ['/h/.claude/projects/x/s1.jsonl'] },
    diagnostics: [{ severity: 'error', path: '/h/.claude/projects/x/s1.jsonl', line: 7, message: 'line is not valid JSON; skipped' }],
    metadata: {},
    usage: { inputTokens: 1200, outputTokens: 80, cost: 0.0123 },
    nodes: [
      node('u1', 'user', 'Please **fix** the parser <script>alert(1)</script>', { createdAt: Date.UTC(2026, 2, 1, 10, 0, 0) }),
      node('m1', 'user', '<system-reminder>env</system-reminder>', { isMeta: true }),
      node('a1', 'assistant', 'Let me look.', {
        thinking: 'The parser fails on empty lines.',
        toolCalls: [
          { id: 't1', name: 'Bash', kind: 'execute', arguments: { command: 'npm test', description: 'Run tests' }, status: 'failed', isError: true },
          {
            id: 't2',
            name: 'Edit',
            kind: 'edit',
            arguments: { file_path: '/p/a.ts', old_string: 'a', new_string: 'b' },
            status: 'completed',
            diffs: [{ path: '/p/a.ts', oldText: 'a\n', newText: 'b\n' }],
          },
          { id: 't3', name: 'Task', kind: 'other', arguments: { description: 'Look around' }, status: 'pending', subagentSessionId: 's2' },
        ],
      }),
      node('r1', 'tool', 'FAIL parser.test.ts\n' + Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n'), { toolCallId: 't1', isError: true }),
      node('r2', 'tool', 'edited', { toolCallId: 't2' }),
      node('e1', 'user', 'Conversation compacted', { event: 'compaction' }),
      node('r9', 'tool', 'stray result', { toolCallId: 'nope' }),
      node('a2', 'assistant', 'Done, see [docs](https://example.com/docs).'),
      node('a3', 'assistant', ''),
    ],
  }
}
