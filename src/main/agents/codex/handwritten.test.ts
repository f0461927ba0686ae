/**
 * The 21 hand-written rollouts of fixtures/real/codex/handwritten (what the real CLI resumed is
 * in its README): each reads without throwing, with the expected messages and diagnostics.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { REPO_ROOT } from '../../../../tests/helpers/golden'
import { readHome } from '../../../../tests/builders/codex/testing'

const ROOT = join(REPO_ROOT, 'fixtures', 'real', 'codex', 'handwritten')
const ROLES = 'user,assistant,tool,assistant'
const cannotResume = (field: string): [undefined, 'info', string] => [undefined, 'info', `session_meta lacks ${field}; Codex cannot resume this rollout`]

/** Expected shape per variant (defaults: ROLES, 1 paired call, no diagnostics, the project cwd). */
const WANT: Record<string, { roles?: string; paired?: number; id?: string; cwd?: string | null; diagnostics?: [number | undefined, string, string?][] }> = {
  '01-session-meta-payload-without-id': { id: '01a22b3d-d20e-7965-80e2-b5c8abb00dfe', diagnostics: [cannotResume('id')] },
  '03-session-meta-payload-without-timestamp': { diagnostics: [cannotResume('timestamp')] },
  '04-session-meta-payload-without-cwd': { cwd: null, diagnostics: [cannotResume('cwd')] },
  '05-session-meta-payload-without-originator': { diagnostics: [cannotResume('originator')] },
  '06-session-meta-payload-without-cli-version': { diagnostics: [cannotResume('cli_version')] },
  '09-session-meta-payload-without-id-and-session-id': { id: '01a22b3e-246d-77a9-bddf-04e5577c10b1', diagnostics: [cannotResume('id')] },
  '10-no-top-level-timestamp-on-any-line': { diagnostics: [[undefined, 'info', '5 lines have no timestamp; Codex does not load them']] },
  '12-no-session-meta-line': { id: '01a22b3e-430f-728b-9081-f52b28addfdc', cwd: null, diagnostics: [[undefined, 'info']] },
  '13-only-the-session-meta-line': { roles: '', paired: 0 },
  '14-function-call-without-its-output': { roles: 'user,assistant,assistant', paired: 0 },
  '18-file-name-without-the-rollout-prefix': { id: '01a22b3f-e8c5-7d61-8d8a-69f1a47d47cb', diagnostics: [[undefined, 'info']] },
  '19-uuid-in-the-file-name-differs-from-session-meta-id': { id: '01a22b3f-f32c-784e-9a61-61db7556d043', diagnostics: [[undefined, 'info']] },
  '20-one-line-that-is-not-json': { diagnostics: [[3, 'error', 'line is not JSON; skipped']] },
}

describe('codex hand-written variants', () => {
  const folders = readdirSync(ROOT).filter((d) => /^\d\d-/.test(d)).sort()

  it('has all 21 variants', () => {
    expect(folders).toHaveLength(21)
  })

  it.each(folders)('%s reads with the expected messages', async (folder) => {
    const want = WANT[folder] ?? {}
    const home = await readHome(join(ROOT, folder, 'home'))
    expect(home.diagnostics).toEqual([])
    // Variant 16's home also holds the earlier real run (a prompt whose answer never came).
    const s = folder.startsWith('16-') ? home.byId('01a22b3f-d371-72b2-882e-cacd6220bcb6') : home.sessions[0]!
    expect(home.sessions).toHaveLength(folder.startsWith('16-') ? 2 : 1)
    if (want.id) expect(s.id).toBe(want.id)
    expect(s.nodes.map((n) => n.role).join(',')).toBe(want.roles ?? ROLES)
    const calls = countPairedToolCalls(s)
    expect(calls.paired).toBe(want.paired ?? 1)
    if (want.roles !== '') {
      expect(s.nodes[0]!.content).toBe('HANDWRITTEN-USER: please list the files')
      expect(s.nodes[s.nodes.length - 1]!.content).toBe('HANDWRITTEN-ASSISTANT: there is one file, README.md.')
      expect(s.nodes.flatMap((n) => n.toolCalls ?? []).map((c) => [c.id, c.name, c.arguments])).toEqual([['call_hand_1', 'exec_command', { cmd: 'ls' }]])
      expect(summarize(s, ROOT).messageCount).toBe(3)
      expect(s.title).toBe('HANDWRITTEN-USER: please list the files')
    } else {
      expect(s.title).toBeUndefined()
    }
    const diags = s.diagnostics.map((d) => [d.line, d.severity, d.message])
    const expected = want.diagnostics ?? []
    expect(diags.map((d) => d.slice(0, 2))).toEqual(expected.map((d) => d.slice(0, 2)))
    expected.forEach((d, i) => {
      if (d[2] !== undefined) expect(diags[i]![2]).toBe(d[2])
    })
    for (const d of s.diagnostics) expect(d.path).toBe(s.source.files[0])
    const cwd = want.cwd === undefined ? '/home/ana/src/csv-tools' : want.cwd
    if (cwd === null) expect(s.workingDirectory).toBeUndefined()
    else expect(s.workingDirectory).toBe(cwd)
  })

  it('15: event_msg user_message/agent_message echoes do not become second messages', async () => {
    const s = (await readHome(join(ROOT, '15-plus-event-msg-user-message-agent-message-lines', 'home'))).sessions[0]!
    expect(s.nodes.map((n) => n.nodeId)).toEqual(['L2', 'L4', 'L5', 'L6'])
    expect(s.metadata.eventTypes).toEqual({ user_message: 1, agent_message: 1 })
  })

  it('16: the earlier real run reads as a prompt without an answer', async () => {
    const s = (await readHome(join(ROOT, '16-home-where-codex-already-ran-once-state-5-sqlite-exists', 'home'))).byId('01a22b3e-6f35-7933-83e2-b517bd3b7336')
    expect(s.nodes.map((n) => [n.role, !!n.isMeta])).toEqual([
      ['system', true],
      ['system', true],
      ['user', false],
    ])
    expect(s.title).toBe('[qa] hello')
  })
})
