/**
 * The committed generated homes under `fixtures/generated/<name>/home` (the demo library's Cursor,
 * Cursor agent CLI and Devin CLI sessions, and conversion sources of the resume matrix): which
 * test generators write each one and what it holds. `scripts/make-fixture-homes.ts` writes them;
 * `tests/fixture-homes.test.ts` checks that reading a committed home gives the same IR as
 * generating it afresh. No real store of these agents exists here (src/main/agents/cursor/FIXTURES.md,
 * src/main/agents/devin/FIXTURES.md), so the homes are built from documented shapes
 * (shared/formats/cursor-devin-atif-acp.md §A, §B, §C, §F), never recorded. Harness code only.
 */
import { join } from 'node:path'
import type { AgentId } from '../../src/shared/ir'
import { writeNegativeStore } from './cursor/fixtures-negative'
import { writeCursorHome } from './cursor/fixtures-old'
import { writeAgentHome } from './cursor-agent/fixtures-home'
import { writeAgentNegativeHome } from './cursor-agent/fixtures-negative'
import { writeMainHome } from './devin/fixtures-homes'

/** One generated home: folder name, the agents whose sessions it holds, its writer and its README. */
export interface GeneratedHome {
  /** Folder under `fixtures/generated/` (the home is `<name>/home`). */
  name: 'cursor' | 'cursor-negative' | 'cursor-agent' | 'devin'
  /** Readers that find sessions in it (first = the one it is made for). */
  agents: AgentId[]
  /** Writes the home into `home` (a Linux layout, HOME standing for `/home/ana`). */
  write(home: string): void
  /** What the home holds (README body, Markdown). */
  holds: string
}

/** Every generated home, in folder order. */
export const GENERATED_HOMES: readonly GeneratedHome[] = [
  {
    name: 'cursor',
    agents: ['cursor'],
    write: (home) => writeCursorHome(home, 'linux'),
    holds: [
      'The three positive Cursor IDE storage generations in one Linux user folder',
      '(`.config/Cursor/User`), 14 sessions (`writeCursorHome`):',
      '',
      '- modern store (`writeModernStore`): `composerData` + `fullConversationHeadersOnly` + `bubbleId:` rows',
      '  (`_v` 3/10/16/17), thinking with signature, tool bubbles (completed, rejected, error, invalid `rawArgs`,',
      '  newline call id), token counts, orphan bubbles, a remote and a Windows project, a multi-root workspace,',
      '  a sub-composer and a `task-<toolCallId>` sub-agent, an unsent draft (not listed);',
      '- v0.43 inline composers (`writeInlineStore`): `conversation[]` in the composer row;',
      '- ≤ v0.42 workspace chats (`writeLegacyStore`): chat-pane tabs, `chatSessions`, a double-encoded',
      '  workspace composer.',
    ].join('\n'),
  },
  {
    name: 'cursor-negative',
    agents: ['cursor'],
    write: (home) => void writeNegativeStore(home),
    holds: [
      'The Cursor IDE negative store (`writeNegativeStore`), 2 sessions and the cases that must each become a',
      'diagnostic while the rest loads: NULL, binary-BLOB and non-JSON bubbles, a header naming no bubble row,',
      'orphan bubbles, BLOB-JSON and Python-literal bubbles (read, with a note), NULL and non-JSON composer rows',
      '(discovery diagnostics), a composer stored as a BLOB (read), a draft (not listed), a workspace without',
      '`workspace.json`, a `workspace.json` that is not JSON, an unreadable `composer.composerHeaders`.',
    ].join('\n'),
  },
  {
    name: 'cursor-agent',
    agents: ['cursor-agent', 'cursor'],
    write: (home) => {
      writeAgentHome(home)
      writeAgentNegativeHome(home)
    },
    holds: [
      'The Cursor agent CLI home (`writeAgentHome`): a `store.db` session (subtree, stale checkpoint, injected',
      'context, reasoning and redacted reasoning, Shell/StrReplace calls with `highLevelToolCallResult`, an',
      'image, a protobuf-wrapped leaf), an ACP session (OpenAI-shaped messages, a compaction summary), a flat',
      'and a nested transcript (with a sub-agent transcript), and a transcript owned by an IDE composer (so this',
      'home also holds one Cursor IDE session); plus the negative cases (`writeAgentNegativeHome`): missing',
      'subtree and leaf, a tree cycle, role `"weird"`, a binary leaf, an orphan tool result, a BOM leaf,',
      'non-hex `meta` with and without a transcript, plain-JSON `meta`, a `store.db` that is not SQLite,',
      '`hasConversation:false` without a store (not listed).',
      '',
      'Transcripts without `meta.json` take their times from the file mtime (`metadata.clock = "file-mtime"`),',
      'so those times are the checkout time, not the fixed times the generator set.',
    ].join('\n'),
  },
  {
    name: 'devin',
    agents: ['devin'],
    write: (home) => writeMainHome(home),
    holds: [
      'The Devin CLI main home (`writeMainHome`): a schema-17 `sessions.db` with `quiet-harbor` (branch, context',
      'rebuild, parallel and failing `exec` calls, `edit`, a `run_subagent` call and its `sidekick` sub-agent, a',
      'dangling sub-agent head), `amber-falcon` (ms times, compaction, import twins), `pale-moon` (hidden, corrupt',
      'and `null` `chat_message`, corrupt node metadata, a truncated ATIF transcript) and `still-river` (zero',
      'metrics, an empty ATIF file), plus `lost-lantern` (an ATIF transcript with no database row).',
    ].join('\n'),
  },
]

/** `fixtures/generated/<name>/home` under the repository (or packaged resources) root `root`. */
export function generatedHomePath(root: string, name: GeneratedHome['name']): string {
  return join(root, 'fixtures', 'generated', name, 'home')
}

/** The README.md of one generated home. */
export function generatedReadme(h: GeneratedHome): string {
  return [
    `# ${h.name}: generated, not recorded`,
    '',
    'Written by `npx tsx scripts/make-fixture-homes.ts` from the test generators in `src/main/agents/` (see',
    '`src/main/agents/cursor/FIXTURES.md` and `src/main/agents/devin/FIXTURES.md`), which build the stores from',
    'documented shapes (`shared/formats/cursor-devin-atif-acp.md`), not from a real agent run. Every id, text',
    'and time is invented and fixed; paths use `HOME=/home/ana`. Do not edit by hand: change the generator and',
    'rerun the script. SQLite files are checkpointed; Sepia reads them through a temporary copy.',
    '',
    h.holds,
    '',
  ].join('\n')
}
