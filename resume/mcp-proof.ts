/**
 * `npm run mcp-proof` (issue 20, last line): the real Claude Code CLI calls `sepia mcp` and the
 * tool round trip shows in the mock model's request log. Not part of `npm test` (it installs
 * `@anthropic-ai/claude-code` from npm into the resume cache on first use, see `sandbox.ts`).
 *
 * 1. the mock (`mock/server.ts`) runs `scenarios/mcp-proof.json`: to the prompt `MCP-PROOF ...` it
 *    answers with a `tool_use` of `mcp__sepia__search_sessions` (`{query: "NOTES"}`), then a text;
 * 2. `claude -p --mcp-config <file> --strict-mcp-config --allowedTools mcp__sepia__search_sessions`
 *    runs in a sandbox home (clean environment, `claudeCodeEnv`), the config starting
 *    `node bin/sepia.mjs mcp --home fixtures/real/claude-code/home` (stores the real Claude Code wrote);
 * 3. the request log must hold a request offering `mcp__sepia__search_sessions` (in `tools`, or by
 *    name in Claude Code's deferred-tool list), and a later
 *    request carrying the `tool_result` for that call's id, not an error, naming a session of the
 *    fixture home (`c79310a4-...`, which the fixture's transcript mentions NOTES.md in).
 * Prints the verdict and writes `resume/MCP-PROOF.md` (with `--no-write`, only prints); the sandbox
 * home (with `mock-requests.jsonl`) is removed after a pass unless `--keep`. Exit 0 when the round
 * trip is in the log.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { findAppRoot } from '../src/main/context'
import { claudeCodeDriver, claudeCodeEnv } from './drivers/claude-code'
import type { Json } from './mock/normalize'
import { startMock } from './mock/server'
import { ensureInstalled, makeSandbox, run, stopSandboxProcesses } from './sandbox'

const ROOT = findAppRoot()
const FIXTURE_HOME = join(ROOT, 'fixtures/real/claude-code/home')
/** A session of the fixture home whose text holds "NOTES" (fixtures/real/claude-code). */
const EXPECTED_SESSION = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
const TOOL = 'mcp__sepia__search_sessions'

type Block = { type?: string; id?: string; name?: string; tool_use_id?: string; content?: unknown; is_error?: boolean }

function blocksOf(entry: Json): { role: string; blocks: Block[] }[] {
  const msgs = ((entry.body as Json | undefined)?.messages ?? []) as { role: string; content: unknown }[]
  return msgs.map((m) => ({ role: m.role, blocks: Array.isArray(m.content) ? (m.content as Block[]) : [{ type: 'text', content: m.content }] }))
}

const textOf = (c: unknown): string => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((x) => (typeof x === 'string' ? x : ((x as { text?: string }).text ?? JSON.stringify(x)))).join('') : JSON.stringify(c ?? ''))

/** The check of the request log; `ok` with the evidence, or why not. */
export function checkLog(entries: Json[]): { ok: boolean; lines: string[] } {
  const lines: string[] = []
  const messages = entries.filter((e) => e.api === 'anthropic.messages')
  lines.push(`${messages.length} Messages API request(s) logged`)
  // Claude Code 2.1.332 lists MCP tools as "deferred tools" by name in a system reminder (loaded
  // through its ToolSearch tool) rather than in `tools`; either counts as offered.
  const inTools = (e: Json) => (((e.body as Json | undefined)?.tools ?? []) as { name: string }[]).some((t) => t.name === TOOL)
  const offered = messages.find((e) => inTools(e) || JSON.stringify(e.body ?? '').includes(TOOL))
  if (!offered) return { ok: false, lines: [...lines, `no request offered the tool ${TOOL} (is the MCP server connected?)`] }
  const sepiaTools = [...new Set(JSON.stringify(offered.body).match(/mcp__sepia__[a-z_]+/g) ?? [])].sort()
  lines.push(`request #${String(offered.seq)} offers ${inTools(offered) ? 'in its tools list' : "as deferred tools (Claude Code's ToolSearch list)"}: ${sepiaTools.join(', ')}`)
  for (const e of messages) {
    const conv = blocksOf(e)
    const call = conv.flatMap((m) => (m.role === 'assistant' ? m.blocks : [])).find((b) => b.type === 'tool_use' && b.name === TOOL)
    if (!call) continue
    const result = conv.flatMap((m) => (m.role === 'user' ? m.blocks : [])).find((b) => b.type === 'tool_result' && b.tool_use_id === call.id)
    if (!result) continue
    const text = textOf(result.content)
    lines.push(`request #${String(e.seq)} carries the tool_result for ${call.id} (${text.length} characters${result.is_error ? ', is_error' : ''})`)
    if (result.is_error) return { ok: false, lines: [...lines, `the tool answered with an error: ${text.slice(0, 300)}`] }
    if (!text.includes(EXPECTED_SESSION)) return { ok: false, lines: [...lines, `the result does not name ${EXPECTED_SESSION}: ${text.slice(0, 300)}`] }
    const hits = (text.match(/"sessionId"/g) ?? []).length
    lines.push(`the result holds ${hits} hit(s), among them session ${EXPECTED_SESSION}`)
    lines.push(`excerpt: ${text.slice(0, 240).replace(/\s+/g, ' ')}…`)
    return { ok: true, lines }
  }
  return { ok: false, lines: [...lines, `no request carried a tool_result for a ${TOOL} call`] }
}

/** `result` (and `num_turns`) of `claude -p --output-format json`, else the output's start. */
function answerOf(output: string): string {
  const line = output.split('\n').find((l) => l.trim().startsWith('{"'))
  try {
    const j = JSON.parse(line ?? '') as { result?: string; num_turns?: number; is_error?: boolean }
    return `"${j.result ?? ''}" (${String(j.num_turns)} turns${j.is_error ? ', is_error' : ''})`
  } catch {
    return '`' + output.slice(0, 600).replace(/\s+/g, ' ') + '`'
  }
}

async function main(): Promise<number> {
  const write = !process.argv.includes('--no-write')
  const log = (s: string) => process.stderr.write(`mcp-proof: ${s}\n`)
  const bin = await ensureInstalled(claudeCodeDriver.package, log)
  const sandbox = makeSandbox('mcp-proof')
  const logFile = join(sandbox.home, 'mock-requests.jsonl')
  const mock = await startMock({ scenarioFile: join(ROOT, 'resume/scenarios/mcp-proof.json'), logFile, cwd: sandbox.cwd })
  const mcpConfig = join(sandbox.home, 'mcp.json')
  writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { sepia: { type: 'stdio', command: process.execPath, args: [join(ROOT, 'bin/sepia.mjs'), 'mcp', '--home', FIXTURE_HOME] } } }, null, 2))
  const env = claudeCodeEnv(sandbox.home, mock.url, { MCP_TIMEOUT: '60000', SEPIA_DATA_DIR: join(sandbox.home, 'sepia-data') })
  const args = ['-p', '--output-format', 'json', '--mcp-config', mcpConfig, '--strict-mcp-config', '--allowedTools', TOOL, '--', 'MCP-PROOF: find my past sessions that mention NOTES, using the sepia tools.']
  log(`running ${bin} ${args.join(' ')}`)
  const started = Date.now()
  let r: Awaited<ReturnType<typeof run>>
  try {
    r = await run(bin, args, { cwd: sandbox.cwd, env, timeoutMs: 240_000 })
  } finally {
    await stopSandboxProcesses(sandbox.home)
    await mock.stop()
  }
  const entries = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Json) : []
  const verdict = checkLog(entries)
  const seconds = Math.round((Date.now() - started) / 100) / 10
  const report = [
    '# MCP proof: the real Claude Code calls `sepia mcp`',
    '',
    'Written by `npm run mcp-proof` (`resume/mcp-proof.ts`; not part of `npm test`). Claude Code',
    `${claudeCodeDriver.package.version} (\`${claudeCodeDriver.package.pkg}\`) ran \`claude -p --mcp-config … --strict-mcp-config --allowedTools ${TOOL}\``,
    'in a sandbox home against the scripted mock (`resume/scenarios/mcp-proof.json`: the first reply is a',
    `\`tool_use\` of \`${TOOL}\`), with the MCP server \`node bin/sepia.mjs mcp --home fixtures/real/claude-code/home\`.`,
    '',
    `- run: ${new Date(started).toISOString()}, ${seconds} s, claude exit code ${String(r.code)}${r.timedOut ? ' (stopped after 240 s)' : ''}`,
    `- result: **${verdict.ok ? 'PASS' : 'FAIL'}** — the mock's request log ${verdict.ok ? 'holds' : 'does not hold'} the tool round trip`,
    ...verdict.lines.map((l) => `- ${l}`),
    '',
    'Claude Code lists MCP tools as deferred tools (names only, schemas through its `ToolSearch` tool);',
    'the scripted model calls `mcp__sepia__search_sessions` directly and Claude Code runs it.',
    '',
    `Claude Code's answer: ${answerOf(r.output)}`,
    '',
  ].join('\n')
  const keep = process.argv.includes('--keep') || !verdict.ok
  process.stdout.write(verdict.lines.map((l) => `  ${l}\n`).join('') + `mcp-proof: ${verdict.ok ? 'PASS' : 'FAIL'}${keep ? ` (sandbox kept: ${sandbox.home})` : ''}\n`)
  if (!keep) rmSync(sandbox.home, { recursive: true, force: true })
  if (write) {
    mkdirSync(join(ROOT, 'resume'), { recursive: true })
    writeFileSync(join(ROOT, 'resume', 'MCP-PROOF.md'), report)
  }
  return verdict.ok ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`mcp-proof: ${(e as Error).stack ?? String(e)}\n`)
    process.exit(2)
  },
)
