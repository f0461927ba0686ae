/**
 * Cursor IDE and Cursor agent CLI tool calls → intents (shared/formats/cursor-devin-atif-acp.md
 * §A5.3.1 names and arg keys, §B4 agent CLI vocabulary), and every call of the committed Cursor
 * fixture homes (tests/builders/fixture-sources.ts) decodes except the ones that cannot:
 * `edit_file` (a sketch applied by a model) and a call whose `rawArgs` are not JSON.
 */
import { describe, expect, it } from 'vitest'
import type { ToolCall } from '../../shared/ir'
import { toolKind } from '../ir/toolkind'
import { FIXTURE_SOURCES, readFixtureSessions } from '../../../tests/builders/fixture-sources'
import { decodeCall, type Intent } from './intents'

const call = (name: string, args: unknown): ToolCall => ({ id: 'c', name, kind: toolKind(name), arguments: args })
const ctx = { cwd: '/home/ana/src/app' }

describe('decodeCall: Cursor vocabularies', () => {
  it.each<[string, unknown, Intent[] | undefined]>([
    ['run_terminal_cmd', { command: 'npm test', is_background: false }, [{ type: 'execute', command: 'npm test' }]],
    ['read_file', { target_file: 'src/a.ts', start_line_one_indexed: 10, end_line_one_indexed_inclusive: 19, should_read_entire_file: false }, [{ type: 'read', path: '/home/ana/src/app/src/a.ts', offset: 10, limit: 10 }]],
    ['read_file', { target_file: 'src/a.ts', start_line_one_indexed: 1, end_line_one_indexed_inclusive: 250, should_read_entire_file: true }, [{ type: 'read', path: '/home/ana/src/app/src/a.ts' }]],
    ['read_file_v2', { targetFile: '/x/a.ts' }, [{ type: 'read', path: '/x/a.ts' }]],
    ['read_file_v2', { relativeWorkspacePath: 'b.ts' }, [{ type: 'read', path: '/home/ana/src/app/b.ts' }]],
    ['edit_file_v2_search_replace', { file_path: 'a.ts', old_string: 'x', new_string: 'y' }, [{ type: 'edit', path: '/home/ana/src/app/a.ts', oldText: 'x', newText: 'y' }]],
    ['ripgrep_raw_search', { pattern: 'TODO', path: 'src' }, [{ type: 'search', pattern: 'TODO', path: '/home/ana/src/app/src' }]],
    ['grep_search', { query: 'parse_row', targetDirectory: '/x' }, [{ type: 'search', pattern: 'parse_row', path: '/x' }]],
    ['glob_file_search', { glob_pattern: '*.py', target_directory: 'lib' }, [{ type: 'glob', pattern: '*.py', path: '/home/ana/src/app/lib' }]],
    ['list_dir', { relative_workspace_path: 'src' }, [{ type: 'list', path: '/home/ana/src/app/src' }]],
    ['web_search', { search_term: 'sqlite json_extract' }, [{ type: 'web-search', query: 'sqlite json_extract' }]],
    ['task_v2', { description: 'find callers', prompt: 'List callers', name: 'explore' }, [{ type: 'subagent', prompt: 'List callers', description: 'find callers' }]],
    ['Shell', { command: 'ls', working_directory: 'sub' }, [{ type: 'execute', command: 'ls', cwd: '/home/ana/src/app/sub' }]],
    ['Write', { path: '/x/n.md', contents: 'hi' }, [{ type: 'write', path: '/x/n.md', content: 'hi' }]],
    ['StrReplace', { path: '/x/a.ts', old_string: 'a', new_string: 'b' }, [{ type: 'edit', path: '/x/a.ts', oldText: 'a', newText: 'b' }]],
    ['Glob', { glob_pattern: '**/*.ts', target_directory: '/x' }, [{ type: 'glob', pattern: '**/*.ts', path: '/x' }]],
    ['edit_file', { target_file: 'a.ts', instructions: 'skip blanks', code_edit: '// ... existing code ...\nif (!row) continue' }, undefined],
  ])('%s %j', (name, args, want) => {
    expect(decodeCall(call(name, args), ctx)).toEqual(want)
  })
})

describe('the committed Cursor homes', () => {
  it('decode every tool call but edit_file and unparseable rawArgs', async () => {
    const undecoded: string[] = []
    let total = 0
    for (const label of ['cursor', 'cursor-agent'] as const) {
      for (const s of await readFixtureSessions(FIXTURE_SOURCES.find((x) => x.label === label)!)) {
        for (const c of s.nodes.flatMap((n) => n.toolCalls ?? [])) {
          total++
          if (!decodeCall(c, { cwd: s.workingDirectory })) undecoded.push(`${label} ${c.name} ${typeof c.arguments}`)
        }
      }
    }
    expect(total).toBe(14)
    expect(undecoded.sort()).toEqual(['cursor edit_file object', 'cursor read_file string'])
  })
})
