/**
 * Aider chat histories people published (fixtures/public-real/aider, see its SOURCES.md). Every
 * count is taken from an independent reading of the raw `.aider.chat.history.md` here, never from
 * Sepia: `# aider chat started at` lines, runs of `####` lines (prompts; commands start with `/`
 * or `!`), `> Tokens:` lines and their `Cost: $X message` amounts, `^C KeyboardInterrupt` lines.
 * Aider's stamps carry no zone and are read as the local time of the machine reading them: the
 * file runs in UTC (`TZ`) so its goldens hold on any machine, and one test reads in Asia/Tokyo.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { snapshotTree } from '../../../../tests/helpers/snapshot'
import { readHomeOf } from '../../../../tests/builders/testing'
import { useEnv } from '../../../../tests/helpers/temp'
import { aider } from '.'

const ROOT = join(REPO_ROOT, 'fixtures', 'public-real', 'aider')
const CASES = ['zen-mcp-interrupted', 'afi-core-gpt4o', 'monochromatic-qwen-windows']
useEnv(() => ({ TZ: 'UTC' }))

/** `YYYY-MM-DD HH:MM:SS[.ffffff]` as the local time of this process's zone, read here without Sepia. */
function localMs(stamp: string): number {
  const [date, time] = stamp.split(' ')
  const [y, mo, d] = date!.split('-').map(Number)
  const [hms, frac] = time!.split('.')
  const [h, mi, sec] = hms!.split(':').map(Number)
  return new Date(y!, mo! - 1, d, h, mi, sec, frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0).getTime()
}

/** The folder under `dir` holding `.aider.chat.history.md` (depth-first). */
function projectOf(dir: string): string {
  if (readdirSync(dir).includes('.aider.chat.history.md')) return dir
  for (const e of readdirSync(dir)) {
    const p = join(dir, e)
    if (statSync(p).isDirectory()) {
      try {
        return projectOf(p)
      } catch {
        // not here
      }
    }
  }
  throw new Error(`no history under ${dir}`)
}

interface RawSession {
  stamp: string
  prompts: string[]
  commands: number
  tokensLines: number
  cost: number
  interrupts: number
  /** `> litellm.<Kind>Error: ...` lines (a failed model call), without the `> `. */
  apiErrorLines: string[]
  /** The assistant's words: every line that is not a header, a `#### ` prompt or `> ` output. */
  assistant: string
}

/** Split the raw file by its header lines and count what each block holds. */
function rawSessions(md: string): RawSession[] {
  const out: RawSession[] = []
  let cur: RawSession | undefined
  let run: string[] | undefined
  const endRun = (): void => {
    if (cur && run) {
      const text = run.join('\n')
      if (/^[/!]/.test(text.trimStart())) cur.commands++
      else if (text.trim() !== '<blank>') cur.prompts.push(text)
    }
    run = undefined
  }
  for (const line of readFileSync(md, 'utf8').split('\n')) {
    const h = /^# aider chat started at (.*)$/.exec(line)
    if (h) {
      endRun()
      cur = { stamp: h[1]!, prompts: [], commands: 0, tokensLines: 0, cost: 0, interrupts: 0, apiErrorLines: [], assistant: '' }
      out.push(cur)
      continue
    }
    if (!cur) continue
    if (line.startsWith('#### ') || line === '####') {
      const body = line.slice(5).replace(/ {2}$/, '')
      if (run) run.push(body)
      else run = [body]
      continue
    }
    endRun()
    if (!line.startsWith('> ') && line !== '>') cur.assistant += line + '\n'
    if (line.startsWith('> Tokens: ')) cur.tokensLines++
    const c = /Cost: \$([\d.]+) message/.exec(line)
    if (line.startsWith('> ') && c) cur.cost += Number(c[1])
    if (line.startsWith('> ^C KeyboardInterrupt')) cur.interrupts++
    if (/^> litellm\.\w*Error: /.test(line)) cur.apiErrorLines.push(line.slice(2).replace(/ {2}$/, ''))
  }
  endRun()
  return out
}

describe('aider public-real histories', () => {
  for (const c of CASES) {
    it(`${c}: one session per "chat started" header; prompts, assistant text, commands, usage lines and interrupts equal the raw file`, async () => {
      const home = join(ROOT, c, 'home')
      const dir = projectOf(home)
      const md = join(dir, '.aider.chat.history.md')
      const raw = rawSessions(md)
      const before = snapshotTree(home)
      const read = await readHomeOf(aider, home)
      expect(snapshotTree(home)).toEqual(before)
      expect(read.sessions).toHaveLength(raw.length)
      const sessions = [...read.sessions].sort((a, b) => a.source.files[0]!.localeCompare(b.source.files[0]!) || (a.createdAt ?? 0) - (b.createdAt ?? 0))
      raw.forEach((r, i) => {
        const s = sessions[i]!
        expect(s.source.files[0]).toBe(md)
        expect(s.workingDirectory).toBe(dir)
        expect(s.diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
        expect(s.metadata.aiderStartedAt).toBe(r.stamp)
        expect(s.createdAt).toBe(localMs(r.stamp))
        expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(r.prompts)
        expect(s.nodes.filter((n) => n.event === 'command')).toHaveLength(r.commands)
        expect(s.nodes.filter((n) => n.event === 'interrupted')).toHaveLength(r.interrupts)
        // A failed model call (litellm's exception line) is an API error, not a note among others.
        expect(s.nodes.filter((n) => n.event === 'api-error').map((n) => n.content)).toEqual(r.apiErrorLines)
        // The assistant's text, whitespace aside (the reader splits replies into nodes and trims them).
        const words = (t: string) => t.replace(/\s+/g, ' ').trim()
        expect(words(s.nodes.filter((n) => n.role === 'assistant').map((n) => n.content).join('\n'))).toBe(words(r.assistant))
        const usage = s.nodes.filter((n) => n.usage)
        expect(usage).toHaveLength(r.tokensLines)
        for (const n of usage) expect(n.role).toBe('assistant')
        expect(usage.reduce((t, n) => t + (n.usage!.cost ?? 0), 0)).toBeCloseTo(r.cost, 6)
        expectGolden(`aider/${c}/${s.id}`, s)
      })
    })
  }

  it('afi-core-gpt4o: prompts get the time of their .aider.input.history entry; the entries become promptHistory', async () => {
    const home = join(ROOT, 'afi-core-gpt4o', 'home')
    const input = readFileSync(join(projectOf(home), '.aider.input.history'), 'utf8')
    const stamps = [...input.matchAll(/^# (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+)$/gm)].map((m) => localMs(m[1]!))
    const read = await readHomeOf(aider, home)
    const timed = read.sessions.flatMap((s) => s.nodes).filter((n) => (n.role === 'user' || n.event === 'command') && n.createdAt !== undefined)
    expect(timed.length).toBeGreaterThan(0)
    for (const n of timed) expect(stamps).toContain(n.createdAt)
    const histories = read.sessions.flatMap((s) => s.promptHistory ?? [])
    expect(histories).toHaveLength(stamps.length)
  })

  it('every node has a time: its own (a prompt with an input-history entry), else the last before it, the chat’s start first; usage gets a day', async () => {
    for (const c of CASES) {
      const home = join(ROOT, c, 'home')
      const dir = projectOf(home)
      const raw = rawSessions(join(dir, '.aider.chat.history.md'))
      const starts = raw.map((r) => localMs(r.stamp))
      let inputStamps: number[] = []
      try {
        inputStamps = [...readFileSync(join(dir, '.aider.input.history'), 'utf8').matchAll(/^# (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+)$/gm)].map((m) => localMs(m[1]!))
      } catch {
        // no input history in this case
      }
      const read = await readHomeOf(aider, home)
      for (const s of read.sessions) {
        expect(starts, c).toContain(s.createdAt)
        let last = s.createdAt!
        for (const n of s.nodes) {
          expect(n.createdAt, `${c} ${s.id} ${n.nodeId}`).toBeDefined()
          // A time is the chat's start or an input-history stamp, never earlier than the one before.
          expect([s.createdAt, ...inputStamps], `${c} ${n.nodeId}`).toContain(n.createdAt)
          expect(n.createdAt!).toBeGreaterThanOrEqual(last)
          last = n.createdAt!
        }
      }
      // The CLI puts every `> Tokens:` line on a day, none on "unknown".
      const r = await runCli('usage', '--home', home, '--by', 'day', '--tz', 'UTC', '--json')
      expect(r.code).toBe(0)
      const rows = (JSON.parse(r.out) as { rows: { key: string; messages: number }[] }).rows
      expect(rows.map((x) => x.key)).not.toContain('unknown')
      expect(rows.reduce((t, x) => t + x.messages, 0), c).toBe(raw.reduce((t, x) => t + x.tokensLines, 0))
      // Every timeline row has a time (`sepia timeline --csv` left most Aider rows without one).
      const tl = await runCli('timeline', '--home', home, '--jsonl')
      expect(tl.code).toBe(0)
      const lines = tl.out.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { agent: string; timestamp_utc: string | null })
      expect(lines.filter((l) => l.agent === 'aider').length, c).toBeGreaterThan(0)
      expect(lines.filter((l) => l.agent === 'aider' && !l.timestamp_utc), c).toEqual([])
    }
  }, 60_000)

  it('stamps are the local time of the machine reading them: in Asia/Tokyo a session starts 9 hours before the same wall clock in UTC', async () => {
    const home = join(ROOT, 'zen-mcp-interrupted', 'home')
    const raw = rawSessions(join(projectOf(home), '.aider.chat.history.md'))
    const before = process.env.TZ
    process.env.TZ = 'Asia/Tokyo' // +09:00 all year (no daylight saving)
    try {
      const read = await readHomeOf(aider, home)
      const got = read.sessions.map((s) => s.createdAt).sort()
      const want = raw.map((r) => Date.parse(`${r.stamp.replace(' ', 'T')}+09:00`)).sort()
      expect(want.every((t) => Number.isFinite(t))).toBe(true)
      expect(got).toEqual(want)
      expect(read.sessions[0]!.metadata.timeZone).toMatch(/local time of the machine reading it/)
    } finally {
      process.env.TZ = before ?? 'UTC'
    }
  })

  it('monochromatic-qwen-windows: the model of each reply follows the "Main model:" / "Model:" lines', async () => {
    const read = await readHomeOf(aider, join(ROOT, 'monochromatic-qwen-windows', 'home'))
    const models = new Set(read.sessions.flatMap((s) => s.nodes).filter((n) => n.role === 'assistant').map((n) => n.model))
    const md = readFileSync(join(projectOf(join(ROOT, 'monochromatic-qwen-windows', 'home')), '.aider.chat.history.md'), 'utf8')
    const named = new Set([...md.matchAll(/^> (?:Main model|Model): (\S+)/gm)].map((m) => m[1]))
    for (const m of models) expect(named).toContain(m)
  })

  it('sepia list --home <fixture home> --json lists every session', async () => {
    for (const c of CASES) {
      const home = join(ROOT, c, 'home')
      const r = await runCli('list', '--home', home, '--json')
      expect(r.code).toBe(0)
      const listed = (JSON.parse(r.out) as { sessions: { agent: string }[] }).sessions.filter((s) => s.agent === 'aider')
      expect(listed).toHaveLength(rawSessions(join(projectOf(home), '.aider.chat.history.md')).length)
    }
  }, 60_000)

  it('a history cut mid-line and a damaged header give diagnostics naming file and line; the rest loads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-aider-cut-'))
    cpSync(join(ROOT, 'afi-core-gpt4o', 'home'), home, { recursive: true })
    const md = join(projectOf(home), '.aider.chat.history.md')
    const text = readFileSync(md, 'utf8')
    const lines = text.split('\n')
    const header = lines.findIndex((l, i) => i > 10 && l.startsWith('# aider chat started at'))
    lines[header] = '# aider chat started at sometime'
    const body = lines.join('\n').replace(/\s+$/, '')
    writeFileSync(md, body.slice(0, body.length - 7))
    const cutLine = body.slice(0, body.length - 7).split('\n').length
    const read = await readHomeOf(aider, home)
    expect(read.sessions).toHaveLength(rawSessions(join(ROOT, 'afi-core-gpt4o', 'home', 'AFI_Modular_Repos/afi-core/.aider.chat.history.md')).length)
    const diags = read.sessions.flatMap((s) => s.diagnostics).filter((d) => d.severity === 'warning')
    expect(diags).toContainEqual(expect.objectContaining({ path: md, line: cutLine, message: expect.stringContaining('mid-line') }))
    expect(diags).toContainEqual(expect.objectContaining({ path: md, line: header + 1, message: expect.stringContaining('no readable date') }))
  })
  it('a header a changed byte or a lost newline broke is named by discovery (its session is read as part of the one before)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-aider-flip-'))
    cpSync(join(ROOT, 'afi-core-gpt4o', 'home'), home, { recursive: true })
    const md = join(projectOf(home), '.aider.chat.history.md')
    const lines = readFileSync(md, 'utf8').split('\n')
    const headers = lines.flatMap((l, i) => (l.startsWith('# aider chat started at') ? [i] : []))
    expect(headers.length).toBeGreaterThan(3)
    const [a, b] = [headers[1]!, headers[3]!]
    lines[a] = lines[a]!.replace('aider', 'aidar') // one flipped bit
    lines[b - 1] = `${lines[b - 1]!}\v${lines[b]!}` // the newline before the header became another byte
    lines.splice(b, 1)
    writeFileSync(md, lines.join('\n'))
    const found = await aider.discover({ home } as never, {} as never)
    expect(found.refs).toHaveLength(headers.length - 2)
    const named = found.diagnostics.filter((d) => d.path === md && d.message.includes('damaged'))
    expect(named.map((d) => d.line)).toEqual([a + 1, b])
  })
})
