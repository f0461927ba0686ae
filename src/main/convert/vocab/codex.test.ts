/** Codex as a convert target: intents → exec_command / apply_patch / view_image / spawn_agent. */
import { describe, expect, it } from 'vitest'
import { parsePatch } from '../../agents/codex/patch'
import { encodeIntent } from '../vocabulary'
import { addFilePatch, codexVocabulary, patchPath, updateFilePatch } from './codex'

const ctx = { cwd: '/home/ana/src/app' }
const enc = (i: Parameters<typeof encodeIntent>[1]) => encodeIntent(codexVocabulary, i, ctx)

describe('codexVocabulary', () => {
  it('runs commands with exec_command, with workdir only when the call ran elsewhere', () => {
    expect(enc({ type: 'execute', command: 'ls -la', cwd: '/home/ana/src/app', timeoutMs: 5000 })).toEqual({ name: 'exec_command', input: { cmd: 'ls -la' } })
    expect(enc({ type: 'execute', command: 'make', cwd: '/tmp/build' })).toEqual({ name: 'exec_command', input: { cmd: 'make', workdir: '/tmp/build' } })
  })

  it('reads through the shell (1-based line ranges), images with view_image', () => {
    expect(enc({ type: 'read', path: '/home/ana/src/app/a b.txt' })).toEqual({ name: 'exec_command', input: { cmd: "cat '/home/ana/src/app/a b.txt'" } })
    expect(enc({ type: 'read', path: '/x/f.ts', offset: 10, limit: 5 })!.input).toEqual({ cmd: "sed -n '10,14p' /x/f.ts" })
    expect(enc({ type: 'read', path: '/x/f.ts', offset: 0 })!.input).toEqual({ cmd: "sed -n '1,$p' /x/f.ts" })
    expect(enc({ type: 'read', path: '/x/f.ts', limit: 20 })!.input).toEqual({ cmd: 'head -n 20 /x/f.ts' })
    expect(enc({ type: 'read', path: '/x/shot.PNG' })).toEqual({ name: 'view_image', input: { path: '/x/shot.PNG' } })
  })

  it('searches, globs and lists with rg and ls', () => {
    expect(enc({ type: 'search', pattern: 'TODO(x)', path: '/x', include: '*.ts' })!.input).toEqual({ cmd: "rg -n --glob '*.ts' -- 'TODO(x)' /x" })
    expect(enc({ type: 'glob', pattern: '**/*.md' })!.input).toEqual({ cmd: "rg --files -g '**/*.md'" })
    expect(enc({ type: 'list', path: '/x' })!.input).toEqual({ cmd: 'ls -la /x' })
  })

  it('writes and edits files with apply_patch patches that Codex reads back as the same change', () => {
    const w = enc({ type: 'write', path: '/home/ana/src/app/NOTES.md', content: '# Notes\n\nTODO\n' })!
    expect(w).toEqual({ name: 'apply_patch', input: { input: '*** Begin Patch\n*** Add File: NOTES.md\n+# Notes\n+\n+TODO\n*** End Patch\n' } })
    expect(parsePatch(w.input.input as string, ctx.cwd)!.diffs).toEqual([{ path: '/home/ana/src/app/NOTES.md', newText: '# Notes\n\nTODO\n' }])
    const e = enc({ type: 'edit', path: '/elsewhere/x.ts', oldText: 'a\nb', newText: 'c' })!
    expect(e.input.input).toBe('*** Begin Patch\n*** Update File: /elsewhere/x.ts\n@@\n-a\n-b\n+c\n*** End Patch\n')
    expect(parsePatch(e.input.input as string, ctx.cwd)!.diffs).toEqual([{ path: '/elsewhere/x.ts', oldText: 'a\nb', newText: 'c' }])
    // Patch markers inside the content stay content.
    expect(parsePatch(addFilePatch('f', '*** End Patch\nmore'))!.diffs).toEqual([{ path: 'f', newText: '*** End Patch\nmore\n' }])
    expect(updateFilePatch('f', '', 'new')).toBe('*** Begin Patch\n*** Update File: f\n@@\n+new\n*** End Patch\n')
    expect(patchPath('/home/ana/src/app', ctx.cwd)).toBe('/home/ana/src/app')
  })

  it('starts sub-agents with spawn_agent; web fetches and searches have no counterpart', () => {
    expect(enc({ type: 'subagent', prompt: 'Look at the git log', description: 'git' })).toEqual({ name: 'spawn_agent', input: { message: 'Look at the git log' } })
    expect(enc({ type: 'fetch', url: 'https://example.com' })).toBeUndefined()
    expect(enc({ type: 'web-search', query: 'codex' })).toBeUndefined()
    expect(codexVocabulary.validToolId('call_mock_222e4bf59de7d25d81bb8b02')).toBe(true)
    expect(codexVocabulary.validToolId('toolu:1/2')).toBe(false)
  })
})
