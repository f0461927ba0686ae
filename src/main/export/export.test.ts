/**
 * Exports from the real fixture sessions: Markdown, IR JSON, ATIF (validated), the content
 * choice, masking, safe file names and atomic writes that never replace a file.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Session, SessionSummary } from '../../shared/ir'
import { claudeCode } from '../agents/claude-code'
import { cline } from '../agents/cline'
import { codex } from '../agents/codex'
import { gemini } from '../agents/gemini'
import { opencode } from '../agents/opencode'
import { FAKE_SECRETS } from '../../../tests/builders/secrets/fake-secrets'
import { readAgentHome } from '../../../tests/helpers/read-home'
import { findAppRoot } from '../context'
import { sessionToAtif } from './atif'
import { validateAtif } from './atif-validate'
import { exportFileName, exportSessions, renderExport, type ExportDeps, type ExportFormat } from './index'
import { IR_JSON_FORMAT, type IrJsonExport } from './json'
import { sessionToMarkdown } from './markdown'
import { select, sessionsOfProject } from './service'
import { numbered, writeNewFileAtomic } from './write'

const ROOT = findAppRoot()
const home = (agent: string) => join(ROOT, 'fixtures/real', agent, 'home')
const DEPS: ExportDeps = { exportedBy: 'Sepia test', now: () => 1_800_000_000_000 }
const TOOLS_ID = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
const FIRST_PROMPT = '[tools] List the files, then create NOTES.md and mark its TODO line as done.'

let claude: Session[] = []
const all: Session[] = []

beforeAll(async () => {
  claude = (await readAgentHome(claudeCode, home('claude-code'))).sessions
  all.push(...claude)
  all.push(...(await readAgentHome(cline, home('cline'))).sessions)
  all.push(...(await readAgentHome(cline, home('cline-legacy'))).sessions)
  all.push(...(await readAgentHome(codex, home('codex'))).sessions)
  all.push(...(await readAgentHome(gemini, home('gemini'))).sessions)
  all.push(...(await readAgentHome(opencode, home('opencode'))).sessions)
})

const tools = () => claude.find((s) => s.id === TOOLS_ID)!
const text = (d: string | Uint8Array) => (typeof d === 'string' ? d : Buffer.from(d).toString('utf8'))

describe('Markdown export', () => {
  it('shows the prompt, thinking, tool calls with arguments and results', () => {
    const md = sessionToMarkdown(tools())
    expect(md).toContain(`# ${FIRST_PROMPT}`)
    expect(md).toContain('- **Project:** /home/ana/src/ledger-api')
    expect(md).toContain('<details><summary>Thinking</summary>')
    expect(md).toContain('**Tool call: Bash** (execute) — completed')
    expect(md).toContain('"command": "ls -la"')
    expect(md).toContain('drwxr-xr-x 8 root root 4096 Nov 30 07:02 .git')
  })

  it('leaves thinking and tool output out when asked', () => {
    const md = sessionToMarkdown(tools(), { thinking: false, toolOutput: false })
    expect(md).not.toContain('Thinking')
    expect(md).not.toContain('"command": "ls -la"')
    expect(md).not.toContain('.gitignore')
    expect(md).toContain('**Tool call: Bash** (execute) — completed')
    expect(md).toContain(FIRST_PROMPT)
  })
})

describe('IR JSON export', () => {
  it('is the IR, versioned, with the content choice applied', async () => {
    const r = await renderExport(tools(), 'json', {}, DEPS)
    const doc = JSON.parse(text(r.data)) as IrJsonExport
    expect(doc).toMatchObject({ format: IR_JSON_FORMAT, irVersion: 1, exportedAt: 1_800_000_000_000, exportedBy: 'Sepia test' })
    expect(doc.session.id).toBe(TOOLS_ID)
    expect(doc.session.irVersion).toBe(1)
    expect(doc.session.nodes.length).toBe(tools().nodes.length)
    expect(doc.session.nodes.some((n) => n.thinking)).toBe(true)

    const lean = JSON.parse(text((await renderExport(tools(), 'json', { includeThinking: false, includeToolOutput: false }, DEPS)).data)) as IrJsonExport
    expect(lean.options).toEqual({ includeThinking: false, includeToolOutput: false })
    expect(lean.session.nodes.some((n) => n.thinking || n.thinkingSignature)).toBe(false)
    const results = lean.session.nodes.filter((n) => n.role === 'tool')
    expect(results.length).toBeGreaterThan(0)
    expect(results.every((n) => n.content === '' && n.metadata?.omitted === 'tool output')).toBe(true)
    expect(lean.session.nodes.flatMap((n) => n.toolCalls ?? []).every((c) => JSON.stringify(c.arguments) === '{}')).toBe(true)
  })
})

describe('ATIF export', () => {
  it('validates for every fixture session of every agent', () => {
    expect(all.length).toBeGreaterThanOrEqual(20)
    for (const s of all) {
      const doc = sessionToAtif(s, { exportedBy: 'Sepia test' })
      expect(validateAtif(doc), `${s.agent}/${s.id}`).toEqual([])
    }
  })

  it('maps the session: agent, user prompt, agent step with tool call, observation and metrics', () => {
    const doc = sessionToAtif(tools()) as Record<string, any>
    expect(doc.schema_version).toBe('ATIF-v1.7')
    expect(doc.session_id).toBe(TOOLS_ID)
    expect(doc.agent).toMatchObject({ name: 'claude-code', version: '2.1.332', model_name: 'claude-opus-5-5' })
    const steps = doc.steps as Record<string, any>[]
    expect(steps[0]).toMatchObject({ step_id: 1, source: 'user', message: FIRST_PROMPT })
    const bash = steps.find((s) => s.tool_calls?.[0]?.function_name === 'Bash')!
    expect(bash.source).toBe('agent')
    expect(bash.tool_calls[0].arguments).toEqual({ command: 'ls -la', description: 'List files in the project' })
    expect(bash.observation.results[0].source_call_id).toBe(bash.tool_calls[0].tool_call_id)
    expect(bash.observation.results[0].content).toContain('Makefile')
    expect(bash.reasoning_content).toContain('look at the project first')
    expect(bash.metrics).toMatchObject({ prompt_tokens: 4689, completion_tokens: 99 })
    expect(doc.final_metrics.total_steps).toBe(steps.length)
    // No tool result is a step of its own: each sits in its call's observation.
    expect(steps.filter((s) => s.source === 'system' && s.observation).length).toBe(0)
  })

  it('embeds sub-agent sessions and references them from the spawning call', async () => {
    const parent = claude.find((s) => (s.childSessionIds?.length ?? 0) > 0)!
    const child = claude.find((s) => s.id === parent.childSessionIds![0])!
    const r = await renderExport(parent, 'atif', {}, { ...DEPS, childrenOf: async (s) => (s.id === parent.id ? [child] : []) })
    const doc = JSON.parse(text(r.data)) as Record<string, any>
    expect(validateAtif(doc)).toEqual([])
    expect(doc.subagent_trajectories.map((t: { trajectory_id: string }) => t.trajectory_id)).toEqual([child.id])
    const refs = (doc.steps as any[]).flatMap((s) => s.observation?.results ?? []).flatMap((o: any) => o.subagent_trajectory_ref ?? [])
    expect(refs).toEqual([{ trajectory_id: child.id, session_id: child.id }])
  })

  it('leaves reasoning and tool output out when asked', () => {
    const doc = sessionToAtif(tools(), { includeThinking: false, includeToolOutput: false }) as Record<string, any>
    expect(validateAtif(doc)).toEqual([])
    const steps = doc.steps as any[]
    expect(steps.some((s) => s.reasoning_content)).toBe(false)
    expect(steps.flatMap((s) => s.tool_calls ?? []).every((c: any) => JSON.stringify(c.arguments) === '{}')).toBe(true)
    expect(steps.flatMap((s) => s.observation?.results ?? []).every((o: any) => o.content === undefined)).toBe(true)
  })
})

describe('validateAtif', () => {
  const good = () => ({
    schema_version: 'ATIF-v1.7',
    agent: { name: 'devin', version: '3000.11.3' },
    steps: [
      { step_id: 1, source: 'user', message: 'hi', timestamp: '2026-03-02T10:00:02Z' },
      { step_id: 2, source: 'agent', message: '', tool_calls: [{ tool_call_id: 'a', function_name: 'exec', arguments: {} }], observation: { results: [{ source_call_id: 'a', content: 'ok' }] } },
    ],
  })

  it('accepts the spec example and a minimal document', () => {
    expect(validateAtif(good())).toEqual([])
    const example = {
      schema_version: 'ATIF-v1.7',
      session_id: 'quiet-harbor',
      agent: { name: 'devin', version: '3000.11.3', model_name: 'SWE-2 High' },
      steps: [
        { step_id: 1, source: 'system', message: 'You are Devin …' },
        { step_id: 2, source: 'user', timestamp: '2026-03-02T10:00:02Z', message: 'add a --dry-run flag' },
        {
          step_id: 3,
          source: 'agent',
          timestamp: '2026-03-02T10:00:04Z',
          model_name: 'swe-2-high',
          message: "I'll look at the parser first.",
          reasoning_content: 'Need argparse setup.',
          tool_calls: [{ tool_call_id: 'exec_0_9f2c#a1', function_name: 'exec', arguments: { command: 'grep -n argparse cli.py' } }],
          observation: { results: [{ source_call_id: 'exec_0_9f2c#a1', content: '14:import argparse' }] },
          metrics: { prompt_tokens: 12312, completion_tokens: 87, cached_tokens: 11800 },
          extra: { generation_model: 'swe-2-high' },
        },
      ],
      final_metrics: { total_prompt_tokens: 12312, total_completion_tokens: 87, total_cached_tokens: 11800, total_steps: 3 },
    }
    expect(validateAtif(example)).toEqual([])
  })

  it('names each missing or wrong required field', () => {
    const cases: [(d: any) => void, string][] = [
      [(d) => (d.schema_version = 'ATIF-v2.0'), '$.schema_version'],
      [(d) => delete d.agent.version, '$.agent.version'],
      [(d) => delete d.agent, '$.agent'],
      [(d) => delete d.steps, '$.steps'],
      [(d) => (d.steps[1].step_id = 3), '$.steps[1].step_id'],
      [(d) => (d.steps[0].source = 'assistant'), '$.steps[0].source'],
      [(d) => delete d.steps[0].message, '$.steps[0].message'],
      [(d) => (d.steps[0].timestamp = 'yesterday'), '$.steps[0].timestamp'],
      [(d) => (d.steps[0].tool_calls = []), '$.steps[0].tool_calls: only allowed on agent steps'],
      [(d) => (d.steps[1].tool_calls[0].arguments = 'ls'), '$.steps[1].tool_calls[0].arguments'],
      [(d) => delete d.steps[1].tool_calls[0].function_name, '$.steps[1].tool_calls[0].function_name'],
      [(d) => (d.steps[1].observation.results[0].subagent_trajectory_ref = [{ session_id: 'x' }]), 'only session_id is invalid'],
      [(d) => ((d.schema_version = 'ATIF-v1.6'), delete d.session_id), '$.session_id'],
      [(d) => (d.subagent_trajectories = [{ schema_version: 'ATIF-v1.7', agent: { name: 'a', version: '1' }, steps: [] }]), '$.subagent_trajectories[0].trajectory_id'],
      [(d) => (d.steps[1].metrics = { prompt_tokens: -1 }), '$.steps[1].metrics.prompt_tokens'],
    ]
    for (const [mutate, expected] of cases) {
      const d = good()
      mutate(d)
      const errors = validateAtif(d)
      expect(errors.some((e) => e.includes(expected)), `${expected} in ${JSON.stringify(errors)}`).toBe(true)
    }
  })
})

describe('masking', () => {
  it('no export format lets a secret out', async () => {
    const s = structuredClone(tools())
    const secrets = FAKE_SECRETS.slice(0, 4)
    s.nodes[0]!.content += '\n' + secrets.map((f) => f.inText.replace('%s', f.secret)).join('\n')
    const call = s.nodes.flatMap((n) => n.toolCalls ?? [])[0]!
    call.arguments = { command: `curl -H "Authorization: Bearer ${secrets[0]!.secret}" x` }
    for (const format of ['md', 'html', 'json', 'atif'] as ExportFormat[]) {
      const out = text((await renderExport(s, format, {}, DEPS)).data)
      for (const f of secrets) expect(out, `${format} leaks ${f.kind}`).not.toContain(f.secret)
      expect(out).toContain(secrets[0]!.label)
    }
  })
})

describe('files', () => {
  it('names files safely: agent, date, title, id, extension', () => {
    expect(exportFileName(tools(), 'atif')).toBe(`claude-code_2026-11-30_tools-List-the-files-then-create-NOTES.m_${TOOLS_ID}.atif.json`)
    const odd = { ...tools(), id: 'a/b\\c:d', title: 'CON <weird> "title"?', createdAt: undefined }
    expect(exportFileName(odd, 'md')).toBe('claude-code_CON-weird-title_a-b-c-d.md')
    expect(numbered('/x/y.atif.json', 2)).toBe('/x/y (2).atif.json')
  })

  it('writes one file per session, never replacing an existing file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sepia-export-'))
    const pick = claude.slice(0, 3)
    const first = await exportSessions(pick, 'md', {}, dir, DEPS)
    expect(first.map((f) => f.sessionId)).toEqual(pick.map((s) => s.id))
    const before = readFileSync(first[0]!.path, 'utf8')
    const progress: number[] = []
    const second = await exportSessions([() => Promise.resolve(pick[0]!)], 'md', {}, dir, { ...DEPS, onProgress: (d) => progress.push(d) })
    expect(second[0]!.path).toMatch(/ \(2\)\.md$/)
    expect(readFileSync(first[0]!.path, 'utf8')).toBe(before)
    expect(progress).toEqual([0, 1])
    expect(readdirSync(dir).length).toBe(4)
  })

  it('a write that fails half-way leaves no file and no temp file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sepia-export-fault-'))
    writeFileSync(join(dir, 'keep.txt'), 'mine')
    const big = 'x'.repeat(300_000)
    await expect(writeNewFileAtomic(join(dir, 'out.md'), big, { afterChunk: (n) => { if (n > 100_000) throw new Error('disk full') } })).rejects.toThrow('disk full')
    expect(readdirSync(dir)).toEqual(['keep.txt'])
    await expect(exportSessions([tools()], 'md', {}, dir, { ...DEPS, writeHooks: { afterChunk: () => { throw new Error('disk full') } } })).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(readdirSync(dir)).toEqual(['keep.txt'])
  })

  it('stops between files when cancelled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sepia-export-cancel-'))
    const controller = new AbortController()
    const run = exportSessions(claude.slice(0, 3), 'json', {}, dir, { ...DEPS, signal: controller.signal, onProgress: (d) => { if (d === 1) controller.abort() } })
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' })
    expect(readdirSync(dir).length).toBe(1)
  })
})

describe('selection', () => {
  const summaries = (): SessionSummary[] => all.map((s) => ({ id: s.id, agent: s.agent, workingDirectory: s.workingDirectory, messageCount: 0, toolCallCount: 0, format: s.source.format, files: [], home: '', diagnosticCount: 0 }))
  it('resolves a list, a project and all', () => {
    expect(select(summaries(), [{ agent: 'claude-code', id: TOOLS_ID }]).map((s) => s.id)).toEqual([TOOLS_ID])
    const byPath = sessionsOfProject(summaries(), '/home/ana/src/ledger-api/')
    expect(byPath.length).toBeGreaterThanOrEqual(5)
    expect(byPath.every((s) => s.workingDirectory === '/home/ana/src/ledger-api')).toBe(true)
    expect(sessionsOfProject(summaries(), 'ledger-api').length).toBe(byPath.length)
    expect(select(summaries(), { all: true }).length).toBe(all.length)
    expect(() => select(summaries(), [{ agent: 'claude-code', id: 'nope' }])).toThrow(/No claude-code session with id nope/)
    expect(() => select(summaries(), { project: '/nowhere' })).toThrow(/No session in the open folders has the project/)
    expect(() => select(summaries(), [])).toThrow(/at least one/)
  })
})
