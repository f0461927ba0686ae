/**
 * What a tester found running Sepia on real published sessions (session 11), each checked against
 * an independent reading of the raw file (fixtures/public-real/claude-code, provenance in its
 * SOURCES.md; fixtures/cases/claude-code for the hand-made cases).
 */
import { cpSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readHome } from './builders/claude-code/testing'
import { runCli } from './helpers/cli-run'
import { REPO_ROOT } from './helpers/golden'
import { tempDirs, useEnv } from './helpers/temp'
import { IR_VERSION, type MessageNode, type Session } from '../src/shared/ir'
import { verifyWritten } from '../src/main/convert/verify'

const temp = tempDirs()
useEnv(() => ({ SEPIA_DATA_DIR: temp('h7-data-') }))

type Rec = Record<string, any>
const PUBLIC = join(REPO_ROOT, 'fixtures', 'public-real', 'claude-code')

function records(path: string): Rec[] {
  const out: Rec[] = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    try {
      out.push(JSON.parse(line))
    } catch {
      // not a record
    }
  }
  return out
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.filter((b: Rec) => b?.type === 'text').map((b: Rec) => String(b.text)).join('\n\n')
}

/** A copy of a fixture home (the tests never read from the repository's own folder in place). */
function copyHome(name: string): string {
  const home = join(temp('h7-home-'), 'home')
  cpSync(join(PUBLIC, name, 'home'), home, { recursive: true })
  return home
}

describe('a slash command typed with text after it (graph-21150-sdk-review-queue, Claude Code 2.1.150)', () => {
  const SID = 'cecff86e-7a02-44b4-88ad-71d3dcc09de2'
  const raw = join(PUBLIC, 'graph-21150-sdk-review-queue/home/.claude/projects/-Users-thomi-Projects-entire-sem', `${SID}.jsonl`)
  // Independent reading: the command record and the isMeta record chained to it.
  const recs = records(raw)
  const command = recs.find((r) => r.type === 'user' && /<command-name>/.test(textOf(r.message?.content)))!
  const cmdText = textOf(command.message.content)
  const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(cmdText)![1]!.trim()
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(cmdText)![1]!.trim()
  const expanded = recs.find((r) => r.type === 'user' && r.isMeta === true && r.parentUuid === command.uuid)!
  const expandedText = textOf(expanded.message.content).trim()
  const typedPrompts = recs.filter((r) => r.type === 'user' && r.isMeta !== true && !Array.isArray(r.message?.content) && !/^<command-/.test(textOf(r.message?.content))).length

  it('the raw file holds one command with 1.8 KB of args and its expanded prompt, and no other typed prompt', () => {
    expect(name).toBe('/review')
    expect(args.length).toBeGreaterThan(1500)
    expect(args.startsWith('/security-review\n/simplify\n\nScope: review the commits')).toBe(true)
    expect(expandedText.startsWith('You are an expert code reviewer.')).toBe(true)
    expect(typedPrompts).toBe(0)
  })

  it('reads the command and its args as the user turn (title, first prompt), the expanded prompt as injected text kept for conversion', async () => {
    const read = await readHome(copyHome('graph-21150-sdk-review-queue'))
    const s = read.byId(SID)
    const users = s.nodes.filter((n) => n.role === 'user' && !n.isMeta && !n.event)
    expect(users.map((n) => n.content)).toEqual([`${name} ${args}`])
    expect(s.title!.startsWith('/review /security-review /simplify Scope: review the commits')).toBe(true)
    const meta = s.nodes.filter((n) => n.isMeta)
    expect(meta.map((n) => [n.role, n.content.trim(), n.metadata?.commandPrompt])).toEqual([['user', expandedText, true]])
  })

  it.each(['qwen-code', 'claude-code', 'codex', 'gemini'])('convert to %s writes both as one user message, the expanded prompt first, and the read-back counts it', async (target) => {
    const home = copyHome('graph-21150-sdk-review-queue')
    const out = temp('h7-target-')
    const r = await runCli('convert', SID.slice(0, 8), '--home', home, '--to', target, '--target-home', out, '--project', temp('h7-proj-'), '--json')
    expect(r.code, r.err).toBe(0)
    const res = JSON.parse(r.out) as { files: string[]; verification: { ok: boolean; written: { userMessages: number }; readBack: { userMessages: number } } }
    expect(res.verification).toMatchObject({ ok: true, written: { userMessages: 1 }, readBack: { userMessages: 1 } })
    // Not beginning with "/": no target takes it for a command and leaves it out when it resumes.
    expect(r.out).not.toContain('message-skipped-by-target')
    const written = res.files.map((f) => readFileSync(f, 'utf8')).join('\n')
    // JSON-escaped in the written file: look for a line of each that needs no escaping.
    expect(written).toContain('Scope: review the commits unique to this branch vs origin/HEAD')
    expect(written).toContain('You are an expert code reviewer. Follow these steps:')
  })

  it('search finds the args as user text', async () => {
    const home = copyHome('graph-21150-sdk-review-queue')
    const r = await runCli('search', 'Ignore code outside this scope', '--home', home, '--json')
    expect(r.code, r.err).toBe(0)
    const hits = JSON.parse(r.out) as { hits?: { role: string }[] } | { role: string }[]
    const list = Array.isArray(hits) ? hits : (hits.hits ?? [])
    expect(list.length).toBeGreaterThan(0)
    expect(list.some((h) => h.role === 'user')).toBe(true)
  })
})

describe('verifyWritten compares the user turns written with the source', () => {
  const session = (nodes: MessageNode[]): Session => ({ irVersion: IR_VERSION, id: 's', agent: 'claude-code', nodes, checkpoints: [], source: { format: 'x', files: [] }, diagnostics: [], metadata: {} })
  const user: MessageNode = { nodeId: 'u', role: 'user', content: 'fix the bug' }
  const reply: MessageNode = { nodeId: 'a', role: 'assistant', content: 'done', parentNodeId: 'u' }
  it('a written session without the source\'s user turn is not "the same", though it reads back the same', () => {
    const written = session([{ ...reply, parentNodeId: undefined } as MessageNode])
    const v = verifyWritten(written, written, 'Qwen Code', undefined, session([user, reply]))
    expect(v.ok).toBe(false)
    expect(v.differences).toEqual(['the source session has 1 user message; 1 user message was not written.'])
    expect(verifyWritten(session([user, reply]), session([user, reply]), 'Qwen Code', undefined, session([user, reply])).ok).toBe(true)
  })
})

describe('titles and dates of Claude Code 1.x leftovers', () => {
  it('e4b47c0c (sword-1090-siblings): the summary holding the API error is no title; the first prompt is', async () => {
    const home = copyHome('sword-1090-siblings')
    const file = join(home, '.claude/projects/-home-ubuntu-Documents-livecd-gen/e4b47c0c-0fd6-4b9e-9500-ee355fe2f33a.jsonl')
    const recs = records(file)
    const summary = recs.find((r) => r.type === 'summary')!.summary as string
    const error = recs.find((r) => r.type === 'assistant' && r.isApiErrorMessage === true)!
    expect(textOf(error.message.content)).toBe(summary) // the summary is the API error's text
    const first = recs.find((r) => r.type === 'user' && typeof r.message?.content === 'string')!.message.content as string
    const s = (await readHome(home)).byId('e4b47c0c-0fd6-4b9e-9500-ee355fe2f33a')
    expect(s.title).toBe(first)
    expect(first).toBe('load claude.md')
  })

  it('pai-project-folder: a 0-byte file is an empty session dated by its last change; a summary-only file is dated by its last change', async () => {
    const home = join(temp('h7-pai-'), 'home')
    cpSync(join(PUBLIC, 'pai-project-folder', 'home'), home, { recursive: true })
    const dir = join(home, '.claude/projects/-home-jenkins-Personal-AI-Infrastructure')
    const empty = join(dir, '98098c74-435a-42ec-ad08-ae58c7559232.jsonl')
    const summaryOnly = join(dir, 'd0608523-a955-427f-bdb4-4ea27ddc16b8.jsonl')
    expect(statSync(empty).size).toBe(0)
    expect(records(summaryOnly).map((r) => r.type)).toEqual(['summary'])
    const read = await readHome(home)
    // Listed as an empty session (the library names it empty: tests/issue-16-special-files.test.ts), dated by its last change.
    const e = read.byId('98098c74-435a-42ec-ad08-ae58c7559232')
    expect(e.createdAt).toBe(statSync(empty).mtimeMs)
    const s = read.byId('d0608523-a955-427f-bdb4-4ea27ddc16b8')
    expect({ title: s.title, createdAt: s.createdAt, lastActivityAt: s.lastActivityAt }).toEqual({
      title: records(summaryOnly)[0]!.summary,
      createdAt: statSync(summaryOnly).mtimeMs,
      lastActivityAt: statSync(summaryOnly).mtimeMs,
    })
  })
})

describe('sepia doctor counts the records of a damaged file as its lines hold them (fixtures/cases/claude-code/04-broken-lines)', () => {
  it('records and skipped records agree with a line-by-line reading', async () => {
    const home = join(temp('h7-04-'), 'home')
    cpSync(join(REPO_ROOT, 'fixtures/cases/claude-code/04-broken-lines'), home, { recursive: true })
    const file = join(home, '.claude/projects/-home-ana-src-ledger/00000000-0000-0000-0000-000000000104.jsonl')
    // Independent reading: a line is a record when it parses; a line that does not parse but splits
    // at `}{` into parts that each parse is that many glued records; any other line is skipped.
    let records = 0
    let skipped = 0
    const types: string[] = []
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue
      const parts = (() => {
        try {
          return [JSON.parse(line)]
        } catch {
          try {
            return line.split('}{').map((p, i, all) => JSON.parse((i > 0 ? '{' : '') + p + (i < all.length - 1 ? '}' : '')))
          } catch {
            return undefined
          }
        }
      })()
      if (parts) {
        records += parts.length
        types.push(...parts.map((p) => p.type))
      } else {
        records++
        skipped++
      }
    }
    expect({ records, skipped, types: types.sort() }).toEqual({ records: 7, skipped: 2, types: ['assistant', 'assistant', 'pr-link', 'user', 'user'] })
    const r = await runCli('doctor', '--home', home, '--json')
    const report = JSON.parse(r.out) as { totals: { records: number; recordsSkipped: number; recordsUnreadable: number }; summary: string }
    expect(report.totals).toMatchObject({ records, recordsSkipped: skipped, recordsUnreadable: skipped })
    expect(report.summary).toContain(`We read 71.4% of your ${records} records`)
    expect(report.summary).toContain(`${skipped} records were cut short or damaged and could not be read`)
  })
})

describe('sepia convert of a session whose project folder is from another OS (fixtures/cases/claude-code/05-windows-project)', () => {
  const SID = '00000000-0000-0000-0000-000000000150'
  const home = (): string => {
    const h = join(temp('h7-05-'), 'home')
    cpSync(join(REPO_ROOT, 'fixtures/cases/claude-code/05-windows-project'), h, { recursive: true })
    return h
  }
  it('the raw cwd is a Windows path', () => {
    const file = join(REPO_ROOT, 'fixtures/cases/claude-code/05-windows-project/.claude/projects/C--Users-ana-src-deja-vu', `${SID}.jsonl`)
    expect(records(file).find((r) => r.type === 'user')!.cwd).toBe('C:\\Users\\ana\\src\\deja-vu')
  })

  it('without --project: refuses in plain words, exit non-zero, nothing written', async () => {
    const out = temp('h7-t6-')
    const r = await runCli('convert', SID, '--home', home(), '--to', 'gemini', '--target-home', out)
    expect(r.code).not.toBe(0)
    expect(r.err).toContain('C:\\Users\\ana\\src\\deja-vu is from another OS')
    expect(r.err).toContain('Pass --project <folder on this computer>')
    expect(r.out).not.toContain('gemini --resume')
    expect(readdirSync(out)).toEqual([])
  })

  it('--project naming a folder that does not exist: says so (as install-bundle does)', async () => {
    const out = temp('h7-t6-')
    const missing = join(temp('h7-gone-'), 'nonexistent')
    const r = await runCli('convert', SID, '--home', home(), '--to', 'gemini', '--target-home', out, '--project', missing)
    expect(r.err).toContain(`the folder ${missing} does not exist on this computer yet`)
  })

  it.skipIf(process.platform === 'win32')('--project naming a Windows path on this Linux machine: refused in plain words, nothing written', async () => {
    const out = temp('h7-t6-')
    const r = await runCli('convert', SID, '--home', home(), '--to', 'claude-code', '--target-home', out, '--project', 'D:\\foo')
    expect(r.code).toBe(1)
    expect(r.err).toContain('--project D:\\foo is a Windows path, not a folder on this computer')
    expect(readdirSync(out)).toEqual([])
  })

  it('--project naming a folder here: writes, and the resume command goes there', async () => {
    const out = temp('h7-t6-')
    const project = temp('h7-proj-')
    const r = await runCli('convert', SID, '--home', home(), '--to', 'gemini', '--target-home', out, '--project', project)
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain(`cd ${project} && gemini --resume`)
  })
})

describe('convert names a sub-agent conversation a separate session only when the home holds one', () => {
  const warnings = async (home: string, id: string): Promise<{ kind: string; count: number }[]> => {
    const r = await runCli('convert', id, '--home', home, '--to', 'codex', '--target-home', temp('h7-t4-'), '--project', temp('h7-proj-'), '--dry-run', '--json')
    expect(r.code, r.err).toBe(0)
    return (JSON.parse(r.out) as { warnings: { kind: string; count: number }[] }).warnings
  }
  const files = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))

  it('entire-2141 acdd84ab: one Task call, no sub-agent transcript in the home', async () => {
    const home = copyHome('entire-2141')
    const all = files(join(home, '.claude/projects'))
    expect(all.map((f) => f.split('/').pop())).toEqual(['acdd84ab-e724-42c8-925d-420b2a4f1861.jsonl'])
    const tasks = records(all[0]!).flatMap((r) => (r.type === 'assistant' && Array.isArray(r.message?.content) ? r.message.content : [])).filter((b: Rec) => b?.type === 'tool_use' && b.name === 'Task')
    expect(tasks.length).toBe(1)
    const w = await warnings(home, 'acdd84ab')
    expect(w.filter((x) => x.kind.startsWith('subagent'))).toEqual([{ kind: 'subagent-no-transcript', count: 1 }])
  })

  it('07-subagents: the sub-agent transcript is there, so it stays a separate session', async () => {
    const home = join(temp('h7-07-'), 'home')
    cpSync(join(REPO_ROOT, 'fixtures/cases/claude-code/07-subagents'), home, { recursive: true })
    expect(files(home).some((f) => /subagents\/agent-[^/]+\.jsonl$/.test(f))).toBe(true)
    const w = await warnings(home, '00000000-0000-0000-0000-000000000107')
    expect(w.filter((x) => x.kind.startsWith('subagent'))).toEqual([{ kind: 'subagent-flattened', count: 1 }])
  })
})

describe('the list counts messages; move and install-bundle count entries and say so (fixtures/real/claude-code c79310a4)', () => {
  it('list: 8 messages (2 prompts, 6 assistant replies); move: 12 entries (those and 4 tool results)', async () => {
    const src = join(REPO_ROOT, 'fixtures/real/claude-code/home')
    const file = join(src, '.claude/projects/-home-ana-src-ledger-api/c79310a4-1627-4beb-8788-81d2e0fc6af8.jsonl')
    const prompts = new Set<string>()
    const replies = new Set<string>()
    let results = 0
    for (const r of records(file)) {
      const c = r.message?.content
      if (r.type === 'user') {
        const n = Array.isArray(c) ? c.filter((b: Rec) => b?.type === 'tool_result').length : 0
        if (n > 0) results += n
        else if (r.isMeta !== true) prompts.add(r.uuid)
      } else if (r.type === 'assistant') replies.add(r.message.id)
    }
    const messages = prompts.size + replies.size
    expect({ prompts: prompts.size, replies: replies.size, results }).toEqual({ prompts: 2, replies: 6, results: 4 })
    const home = join(temp('h7-mv-'), 'home')
    cpSync(src, home, { recursive: true })
    const list = await runCli('list', '--home', home, '--json')
    const row = (JSON.parse(list.out) as { sessions: { id: string; messageCount: number }[] }).sessions.find((s) => s.id.startsWith('c79310a4'))!
    expect(row.messageCount).toBe(messages)
    // A move works in the user's own home only (an opened --home is never written): this copy is HOME.
    const savedHome = process.env['HOME']
    process.env['HOME'] = home
    let mv: Awaited<ReturnType<typeof runCli>>
    try {
      mv = await runCli('move', 'c79310a4', '--to-project', temp('h7-np-'))
    } finally {
      process.env['HOME'] = savedHome
    }
    expect(mv.code, mv.err).toBe(0)
    expect(mv.out).toContain(`read back: ${messages + results} entries: messages, tool results and markers (the bundle had ${messages + results})`)
  })
})
