/**
 * `npm run resume-putback`: prove Put back (issue 19) with the real agents. For each agent:
 *
 * 1. the real CLI writes a session in a sandbox home (one prompt against the mock model);
 * 2. Sepia, with that sandbox as the user's own home and the archive on, copies it into its archive
 *    (a data folder outside the sandbox);
 * 3. the session file is deleted, as the agent's cleanup would; Sepia's library still lists it,
 *    marked archived;
 * 4. Put back writes it into the store again; the bytes are compared with the file the CLI wrote;
 * 5. the real CLI resumes it (`claude --resume <id>`, `codex exec resume <id>`, `cline --id <id>` in tmux) and the request it
 *    sends after the new prompt must carry the first prompt and the first answer.
 *
 * Writes `resume/PUTBACK.md`. Not part of `npm test` (installs the agents from npm into the cache
 * of `sandbox.ts` on first use).
 *
 *   npm run resume-putback -- [--agents claude-code,codex,cline] [--keep] [--no-write]
 *
 * Exit status 0 when every agent passed.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createApi } from '../src/main/api'
import type { AgentId } from '../src/shared/ir'
import { checkRequests } from './check'
import Database from 'better-sqlite3'
import { claudeCodeDriver, claudeCodeEnv } from './drivers/claude-code'
import { clineDriver } from './drivers/cline'
import { codexDriver, codexOverrides } from './drivers/codex'
import type { Driver, DriverContext } from './drivers/types'
import { needle } from './expect'
import { startMock } from './mock/server'
import { RESUME_PROMPT } from './run-case'
import { baseEnv, ensureInstalled, makeSandbox, run, stopSandboxProcesses } from './sandbox'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const FIRST_PROMPT = '[putback] Remember the word lighthouse-archive for later.'

/** Per agent: the driver, how the real CLI starts a new session, and where its file is. */
interface PutBackAgent {
  driver: Driver
  /** Run the first prompt; resolves the new session's id. */
  start(ctx: DriverContext): Promise<string>
  /** The session's files as the CLI wrote them (found without Sepia). */
  files(home: string, id: string): string[]
  /** The first assistant text in the file the CLI wrote (what the resume must send again). */
  firstReply(file: string): string | undefined
  /** Delete the session the way the agent does (default: its files). */
  remove?(home: string, id: string, files: string[]): void
}

/** The JSON lines of a file (unparseable lines skipped). */
function jsonLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>]
      } catch {
        return []
      }
    })
}

/** The first `text` of a content block list whose block type is one of `types`. */
function firstText(content: unknown, types: string[]): string | undefined {
  if (!Array.isArray(content)) return undefined
  for (const b of content as { type?: string; text?: string }[]) if (b && types.includes(b.type ?? '') && typeof b.text === 'string' && b.text.trim()) return b.text
  return undefined
}

function walk(dir: string, out: string[] = []): string[] {
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return out
  }
  for (const e of entries) {
    const p = join(dir, e.name)
    if (e.isDirectory()) walk(p, out)
    else out.push(p)
  }
  return out
}

const AGENTS: Record<string, PutBackAgent> = {
  'claude-code': {
    driver: claudeCodeDriver,
    async start(ctx) {
      const id = randomUUID()
      // The driver's environment (drivers/claude-code.ts), with `--session-id` for a new session.
      const env = claudeCodeEnv(ctx.sandbox.home, ctx.mock.url)
      const r = await run(ctx.bin, ['-p', '--dangerously-skip-permissions', '--output-format', 'json', '--session-id', id, FIRST_PROMPT], { cwd: ctx.sandbox.cwd, env, timeoutMs: 180_000 })
      if (r.code !== 0) throw new Error(`claude exited ${r.code}: ${r.output.slice(-1500)}`)
      return id
    },
    files: (home, id) => walk(join(home, '.claude', 'projects')).filter((p) => p.endsWith(`${id}.jsonl`)),
    firstReply(file) {
      // Claude Code transcript: `{type: 'assistant', message: {content: [{type: 'text', text}]}}`.
      for (const r of jsonLines(file)) if (r['type'] === 'assistant') {
        const t = firstText((r['message'] as { content?: unknown } | undefined)?.content, ['text'])
        if (t) return t
      }
      return undefined
    },
  },
  codex: {
    driver: codexDriver,
    async start(ctx) {
      const env = baseEnv(ctx.sandbox.home, { MOCK_API_KEY: 'sk-mock' })
      const args = [...codexOverrides(ctx.mock.url), 'exec', '--json', '--dangerously-bypass-approvals-and-sandbox', FIRST_PROMPT]
      const r = await run(ctx.bin, args, { cwd: ctx.sandbox.cwd, env, timeoutMs: 180_000 })
      if (r.code !== 0) throw new Error(`codex exited ${r.code}: ${r.output.slice(-1500)}`)
      const rollout = walk(join(ctx.sandbox.home, '.codex', 'sessions')).find((p) => /rollout-.*\.jsonl$/.test(p))
      const m = rollout && /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(rollout)
      if (!m) throw new Error(`codex wrote no rollout file: ${r.output.slice(-1500)}`)
      return m[1]!
    },
    files: (home, id) => walk(join(home, '.codex', 'sessions')).filter((p) => p.endsWith(`${id}.jsonl`)),
    firstReply(file) {
      // Codex rollout: `{type: 'response_item', payload: {type: 'message', role: 'assistant', content: [{type: 'output_text', text}]}}`.
      for (const r of jsonLines(file)) {
        const p = r['payload'] as { type?: string; role?: string; content?: unknown } | undefined
        if (r['type'] === 'response_item' && p?.type === 'message' && p.role === 'assistant') {
          const t = firstText(p.content, ['output_text', 'text'])
          if (t) return t
        }
      }
      return undefined
    },
  },
  cline: {
    driver: clineDriver,
    async start(ctx) {
      // `cline --json "<prompt>"` (fixtures/real/cline/README.md "How it ran"), the driver's environment.
      const env = baseEnv(ctx.sandbox.home, { CLINE_NO_AUTO_UPDATE: '1', CLINE_SESSION_BACKEND_MODE: 'local' })
      const r = await run(ctx.bin, ['--json', FIRST_PROMPT], { cwd: ctx.sandbox.cwd, env, timeoutMs: 180_000 })
      const sessions = join(ctx.sandbox.home, '.cline', 'data', 'sessions')
      const id = walk(sessions).map((p) => /[\\/]([^\\/]+)[\\/]\1\.messages\.json$/.exec(p)?.[1]).find((x) => x)
      if (!id) throw new Error(`cline wrote no session (exit ${r.code}): ${r.output.slice(-1500)}`)
      return id
    },
    files: (home, id) => {
      const dir = join(home, '.cline', 'data', 'sessions', id)
      return [join(dir, `${id}.json`), join(dir, `${id}.messages.json`)].filter((p) => walk(dir).includes(p))
    },
    firstReply(file) {
      // `<id>.json` is the manifest; the messages file sits beside it.
      const messages = file.replace(/\.json$/, '.messages.json')
      const m = JSON.parse(readFileSync(messages, 'utf8')) as { messages?: { role?: string; content?: unknown }[] }
      for (const x of m.messages ?? []) if (x.role === 'assistant') return firstText(x.content, ['text'])
      return undefined
    },
    // Cline's delete removes the session folder and its sessions.db row.
    remove(home, id, files) {
      for (const f of files) rmSync(f)
      rmSync(join(home, '.cline', 'data', 'sessions', id), { recursive: true, force: true })
      const db = new Database(join(home, '.cline', 'data', 'db', 'sessions.db'))
      try {
        db.prepare('DELETE FROM sessions WHERE session_id = ?').run(id)
      } finally {
        db.close()
      }
    },
  },
}

interface Result {
  agent: string
  cli: string
  sessionId?: string
  steps: string[]
  ok: boolean
  verdict: string
  seconds: number
}

const log = (s: string): void => void process.stderr.write(`[putback ${new Date().toISOString().slice(11, 19)}] ${s}\n`)

async function runAgent(name: string, a: PutBackAgent, keep: boolean): Promise<Result> {
  const started = Date.now()
  const result: Result = { agent: name, cli: `${a.driver.package.pkg}@${a.driver.package.version}`, steps: [], ok: false, verdict: '', seconds: 0 }
  const bin = await ensureInstalled(a.driver.package, log)
  const sandbox = makeSandbox('putback-project')
  const dataDir = mkdtempSync(join(tmpdir(), 'sepia-putback-data-'))
  const mock = await startMock({ scenarioFile: join(ROOT, 'resume', 'scenarios', a.driver.scenario), logFile: join(sandbox.home, 'mock-requests.jsonl'), cwd: sandbox.cwd })
  const ctx: DriverContext = { sandbox, mock, bin, log }
  const api = createApi({ mode: 'browser', version: 'putback', platform: 'linux', homes: [], fixturesDir: join(ROOT, 'fixtures'), env: { HOME: sandbox.home }, ownHome: sandbox.home, appDataDir: dataDir })
  const step = (s: string): void => {
    result.steps.push(s)
    log(`  ${s}`)
  }
  try {
    await a.driver.prepareHome(ctx)
    const id = await a.start(ctx)
    result.sessionId = id
    const files = a.files(sandbox.home, id)
    if (files.length === 0) throw new Error(`the CLI wrote no file for session ${id}`)
    const written = files.map((f) => readFileSync(f))
    const firstReply = a.firstReply(files[0]!)
    if (!firstReply) throw new Error(`no assistant text in ${files[0]}`)
    step(`the real CLI wrote session ${id} (${files.length} file, ${written.reduce((n, b) => n + b.length, 0)} bytes)`)
    await api.getLibrary()
    const st = await api.setArchiveSettings({ enabled: true })
    step(`archive on: ${st.sessions} session(s), ${st.versions} file version(s), ${st.storedBytes} bytes stored in ${st.dir}`)
    if (a.remove) a.remove(sandbox.home, id, files)
    else for (const f of files) rmSync(f)
    const lib = await api.getLibrary({ refresh: true })
    const listed = lib.sessions.find((s) => s.agent === (name as AgentId) && s.id === id)
    if (!listed?.archived) throw new Error('after the delete the session is not listed as archived')
    step(`file deleted; still listed, archived (gone at ${new Date(listed.archived.goneAt).toISOString()})`)
    const put = await api.putBack(name as AgentId, id)
    const same = files.every((f, i) => readFileSync(f).equals(written[i]!))
    if (!put.verified || !same) throw new Error(`put back did not restore the bytes (verified ${put.verified}, identical ${same})`)
    step(`put back ${put.written.length} file(s), byte-identical to what the CLI wrote${put.rows.map((r) => `; ${r.table} row added to ${r.dbPath.replace(sandbox.home, '~')} (backup first)`).join('')}`)
    const resumed = await a.driver.resume(ctx, id, RESUME_PROMPT)
    writeFileSync(join(sandbox.home, 'agent-output.txt'), resumed.output)
    const verdict = checkRequests(
      mock.entries(),
      { items: [{ kind: 'user', text: needle(FIRST_PROMPT), where: 'first prompt' }, { kind: 'assistant', text: needle(firstReply), where: 'first answer' }], toolCalls: 0 },
      RESUME_PROMPT,
      true,
    )
    result.ok = verdict.ok
    result.verdict = verdict.line + (verdict.missing.length ? ` — ${verdict.missing.join('; ')}` : '')
    step(`resumed with the real CLI (exit ${resumed.exitCode ?? 'n/a'}): ${verdict.line}`)
    if (!verdict.ok) log(resumed.output.slice(-2000))
  } catch (e) {
    result.verdict = `FAIL: ${(e as Error).message}`
    log(result.verdict)
  } finally {
    await api.library.close().catch(() => undefined)
    await mock.stop()
    await stopSandboxProcesses(sandbox.home)
    if (keep) log(`kept ${sandbox.home} and ${dataDir}`)
    else {
      rmSync(sandbox.home, { recursive: true, force: true })
      rmSync(dataDir, { recursive: true, force: true })
    }
    result.seconds = Math.round((Date.now() - started) / 100) / 10
  }
  return result
}

function report(results: Result[], command: string): string {
  const lines = [
    '# Put back, proved with the real agents',
    '',
    `Generated by \`${command}\` (resume/putback.ts) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}.`,
    'Each agent: the real CLI writes a session in a sandbox home; Sepia archives it (archive on, the sandbox as',
    'the own home); the session file is deleted; the library lists it as archived; Put back writes it again',
    '(compared byte for byte with what the CLI wrote); the real CLI resumes it and its request must carry the',
    'first prompt and answer.',
    '',
    '| agent | CLI | session | result | seconds |',
    '|---|---|---|---|---|',
    ...results.map((r) => `| ${r.agent} | \`${r.cli}\` | \`${r.sessionId ?? '-'}\` | ${r.verdict.replace(/\|/g, '\\|')} | ${r.seconds} |`),
    '',
  ]
  for (const r of results) lines.push(`## ${r.agent}`, '', ...r.steps.map((s) => `- ${s}`), '')
  return lines.join('\n')
}

async function main(): Promise<number> {
  const args = parseArgs({ options: { agents: { type: 'string' }, keep: { type: 'boolean', default: false }, 'no-write': { type: 'boolean', default: false } } }).values
  const names = (args.agents ?? 'claude-code,codex,cline').split(',').filter(Boolean)
  for (const n of names) if (!AGENTS[n]) return (process.stderr.write(`No put-back driver for "${n}" (have: ${Object.keys(AGENTS).join(', ')})\n`), 2)
  const results: Result[] = []
  for (const n of names) {
    log(n)
    results.push(await runAgent(n, AGENTS[n]!, args.keep === true))
  }
  const md = report(results, `npm run resume-putback${process.argv.length > 2 ? ' -- ' + process.argv.slice(2).join(' ') : ''}`)
  process.stdout.write(md + '\n')
  if (!args['no-write']) writeFileSync(join(ROOT, 'resume', 'PUTBACK.md'), md)
  return results.every((r) => r.ok) ? 0 : 1
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (e) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`)
    process.exitCode = 1
  },
)
