import { describe, expect, it } from 'vitest'
import { AGENT_IDS } from '../shared/ir'
import { AGENTS } from '../main/agents/registry'
import { CONVERT_TARGETS } from './convert'
import { closeAgents, unknownAgentError } from './agent-arg'

describe('an --agent / --to value that is not an agent id', () => {
  it('names the close ids: a display name, a prefix, a longer form', () => {
    expect(closeAgents('claude', AGENTS)).toEqual(['claude-code'])
    expect(closeAgents('Claude Code', AGENTS)).toEqual(['claude-code'])
    expect(closeAgents('gemini-cli', AGENTS)).toEqual(['gemini'])
    expect(closeAgents('roo', AGENTS)).toEqual(['roo-code'])
    expect(closeAgents('copilot', AGENTS)).toEqual(['copilot-cli'])
    expect(closeAgents('Factory Droid', AGENTS)).toEqual(['droid'])
    expect(closeAgents('claude-code-cli', AGENTS)).toEqual(['claude-code'])
    expect(closeAgents('xyz', AGENTS)).toEqual([])
    expect(closeAgents('', AGENTS)).toEqual([])
  })

  it('says "Did you mean" and lists what the option takes', () => {
    const e = unknownAgentError('claude', CONVERT_TARGETS, AGENTS, 'writes')
    expect(e.code).toBe('UNKNOWN_AGENT')
    expect(e.message).toBe(`"claude" is not an agent id. Did you mean claude-code? Sepia writes: ${CONVERT_TARGETS.join(', ')}.`)
    // Only the ids the option takes are suggested: Cursor is read, not written.
    expect(unknownAgentError('cursor-ide', CONVERT_TARGETS, AGENTS, 'writes').message).not.toContain('Did you mean')
    expect(unknownAgentError('cursor-ide', AGENT_IDS, AGENTS, 'reads').message).toContain('Did you mean cursor?')
  })

  it('says that Windsurf and Trae chats are encrypted', () => {
    expect(unknownAgentError('windsurf', CONVERT_TARGETS, AGENTS, 'writes').message).toMatch(/^Windsurf keeps its chats encrypted; Sepia can list them \(sepia doctor\) but not write them\. Sepia writes: claude-code/)
    expect(unknownAgentError('Trae', AGENT_IDS, AGENTS, 'reads').message).toMatch(/^Trae keeps its chats encrypted; .* not read them\./)
  })
})
