/** Unit tests of the shared Cursor helpers: values decoded, wrappers stripped, URIs mapped. */
import { describe, expect, it } from 'vitest'
import { isInjectedContext, unwrapUserQuery } from './context'
import { decodeCell, parseLoose, toMs } from './json'
import { lexicalText } from './lexical'
import { parsePythonLiteral } from './pyliteral'
import { makeToolCall } from './tools'
import { uriObjectToPath, uriToPath } from './uri'

describe('lexicalText', () => {
  it('joins text nodes, linebreaks and paragraphs', () => {
    const state = { root: { type: 'root', children: [
      { type: 'paragraph', children: [{ type: 'text', text: 'fix ' }, { type: 'mention', text: '@parse.ts' }, { type: 'linebreak' }, { type: 'text', text: 'please' }] },
      { type: 'paragraph', children: [{ type: 'text', text: 'thanks' }] },
    ] } }
    expect(lexicalText(JSON.stringify(state))).toBe('fix @parse.ts\nplease\nthanks')
    expect(lexicalText(state)).toBe('fix @parse.ts\nplease\nthanks')
  })
  it('gives undefined for empty, invalid or non-Lexical values', () => {
    expect(lexicalText('')).toBeUndefined()
    expect(lexicalText('{"root":')).toBeUndefined()
    expect(lexicalText('plain text')).toBeUndefined()
    expect(lexicalText(JSON.stringify({ root: { children: [{ type: 'paragraph', children: [] }] } }))).toBeUndefined()
  })
})

describe('unwrapUserQuery / isInjectedContext', () => {
  it('strips a leading timestamp and the wrapper, keeping nested text', () => {
    expect(unwrapUserQuery('<timestamp>Monday, Mar 2, 2026, 4:10 PM (UTC+1)</timestamp>\n<user_query>\nadd a flag\n</user_query>')).toEqual({ text: 'add a flag', timestamp: 'Monday, Mar 2, 2026, 4:10 PM (UTC+1)', wrapped: true })
    expect(unwrapUserQuery('<user_query>\nSecond prompt with <user_query>nested tags</user_query> inside\n</user_query>').text).toBe('Second prompt with nested tags inside')
    expect(unwrapUserQuery('<user_query>\n\n</user_query>').text).toBe('')
    expect(unwrapUserQuery('<user_query>unclosed').text).toBe('unclosed')
    expect(unwrapUserQuery('<attached>x</attached>\n<user_query>q</user_query>')).toEqual({ text: 'q', outside: '<attached>x</attached>', wrapped: true })
    expect(unwrapUserQuery('plain [REDACTED] text')).toEqual({ text: 'plain [REDACTED] text', wrapped: false })
  })
  it('recognises the documented context tags only', () => {
    for (const t of ['<user_info>', '<system_reminder>', '<rules>', '<git_status>', '<agent_transcripts>']) expect(isInjectedContext(`  ${t}x`)).toBe(true)
    expect(isInjectedContext('<user_query>x</user_query>')).toBe(false)
    expect(isInjectedContext('please read <rules>')).toBe(false)
  })
})

describe('uriToPath / uriObjectToPath', () => {
  it('maps file, Windows, UNC and remote URIs', () => {
    expect(uriToPath('file:///home/ana/src/x%20y')).toEqual({ path: '/home/ana/src/x y' })
    expect(uriToPath('file:///c%3A/Users/ana/src/tidepool')).toEqual({ path: 'c:\\Users\\ana\\src\\tidepool' })
    expect(uriToPath('file://server/share/proj')).toEqual({ path: '\\\\server\\share\\proj' })
    expect(uriToPath('vscode-remote://ssh-remote%2Bbuildbox/home/u/x')).toEqual({ path: '/home/u/x', remote: 'ssh-remote+buildbox' })
    expect(uriToPath('untitled:Untitled-1')).toBeUndefined()
  })
  it('prefers fsPath, then path (drive → Windows), then external', () => {
    expect(uriObjectToPath({ fsPath: 'c:\\a', path: '/c:/a', scheme: 'file' })).toEqual({ path: 'c:\\a' })
    expect(uriObjectToPath({ path: '/c:/Users/a', scheme: 'file' })).toEqual({ path: 'c:\\Users\\a' })
    expect(uriObjectToPath({ external: 'file:///home/a', scheme: 'file' })).toEqual({ path: '/home/a' })
    expect(uriObjectToPath({ scheme: 'vscode-remote', authority: 'wsl+Ubuntu', path: '/home/a' })).toEqual({ path: '/home/a', remote: 'wsl+Ubuntu' })
  })
})

describe('value decoding', () => {
  it('decodes TEXT, BLOB JSON, double-encoded and Python literals; reports NULL, binary, non-JSON', () => {
    expect(decodeCell('{"a":1}')).toEqual({ value: { a: 1 } })
    expect(decodeCell(Buffer.from('{"a":1}'))).toEqual({ value: { a: 1 }, note: 'value is stored as a BLOB; read as UTF-8 JSON' })
    expect(decodeCell(JSON.stringify('{"a":1}'))).toEqual({ value: { a: 1 }, note: 'value is double-encoded' })
    expect(decodeCell("{'a': True, 'b': None, 'c': [1, 'x\\'y']}").value).toEqual({ a: true, b: null, c: [1, "x'y"] })
    expect(decodeCell(null).problem).toBe('value is NULL')
    expect(decodeCell(Buffer.from([0, 0xff])).problem).toMatch(/BLOB that is not JSON/)
    expect(decodeCell('nope').problem).toMatch(/not JSON/)
    expect(parseLoose('\uFEFF[1]')).toEqual({ value: [1] })
    expect(parsePythonLiteral('{1: (2, 3)}')).toEqual({ '1': [2, 3] })
    expect(parsePythonLiteral('{"a": nope}')).toBeUndefined()
  })
  it('toMs accepts ms and ISO, rejects process-relative values', () => {
    expect(toMs(1764410400000)).toBe(1764410400000)
    expect(toMs('1764410400000')).toBe(1764410400000)
    expect(toMs('2025-11-29T10:00:05.120Z')).toBe(1764410405120)
    expect(toMs(62550.5)).toBeUndefined()
    expect(toMs('')).toBeUndefined()
  })
})

describe('makeToolCall', () => {
  it('fills kind, locations and diffs from Cursor argument keys', () => {
    expect(makeToolCall('1', 'Write', { path: '/p/a.ts', contents: 'x' })).toEqual({ id: '1', name: 'Write', kind: 'edit', arguments: { path: '/p/a.ts', contents: 'x' }, locations: [{ path: '/p/a.ts' }], diffs: [{ path: '/p/a.ts', newText: 'x' }] })
    expect(makeToolCall('2', 'MultiEdit', { file_path: '/p/b.ts', edits: [{ old_string: 'a', new_string: 'b' }] }).diffs).toEqual([{ path: '/p/b.ts', oldText: 'a', newText: 'b' }])
    expect(makeToolCall('3', 'mcp-github-create_issue', {}).kind).toBe('other')
    expect(makeToolCall('4', 'run_terminal_command_v2', 'not json').kind).toBe('execute')
    expect(makeToolCall('5', 'read_file_v2', { effectiveUri: 'file:///p/c.ts' }).locations).toEqual([{ path: '/p/c.ts' }])
  })
})
