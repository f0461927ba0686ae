/**
 * Deterministic benchmark corpus (`npm run bench`): a fake home folder holding about 1 GB of agent
 * history, written under `os.tmpdir()` and never committed.
 *
 * - Claude Code: one large session (default 300 MB) plus many ordinary ones, some with sub-agent
 *   transcripts. Records follow the shapes of `fixtures/real/claude-code` (Claude Code 2.1.332):
 *   one `assistant` record per content block sharing `message.id` and `requestId` (same usage on
 *   each, as the CLI writes it), `tool_result` blocks in `user` records with `toolUseResult`.
 * - Cline SDK, Cline legacy and Codex: the real fixture sessions cloned under new ids, SDK and
 *   legacy transcripts padded with extra turns so the sizes are realistic.
 * - Cursor: only when `src/main/agents/cursor` is registered (see `bench/run.ts`).
 *
 * Prose carries about 2% CJK words (Japanese and Chinese) and one planted CJK word, so search is
 * measured on text that has no spaces between its words.
 *
 * Everything derives from one seed (mulberry32), so two runs write byte-identical files.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'

/** Sizes of the corpus parts. */
export interface CorpusOptions {
  /** Folder to write the home into (emptied first). */
  root: string
  seed?: number
  /** Bytes of the one large Claude Code session. */
  largeSessionBytes?: number
  /** Number and average size of the other Claude Code sessions. */
  claudeSessions?: number
  claudeSessionBytes?: number
  clineSdkSessions?: number
  clineLegacyTasks?: number
  codexSessions?: number
  /** Extra bytes of padding turns per Cline transcript (average). */
  clinePadBytes?: number
  /** The repository root (holds `fixtures/real`). */
  repoRoot: string
}

/** What was written. */
export interface CorpusInfo {
  home: string
  /** Bytes per part. */
  bytes: Record<'claudeCode' | 'clineSdk' | 'clineLegacy' | 'codex', number>
  sessions: Record<'claudeCode' | 'clineSdk' | 'clineLegacy' | 'codex', number>
  /** Path of the large Claude Code session and its id. */
  large: { path: string; id: string; bytes: number }
  /** Words planted for search (each appears in a known number of messages). */
  planted: { word: string; count: number }[]
}

/** mulberry32: a small, fast, seeded PRNG returning [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = (
  'const let function return import export from async await if else for while class interface type ' +
  'session library catalog index search usage token cost model agent project message node tool result ' +
  'error value string number boolean array object promise resolve reject stream buffer file path folder ' +
  'read write parse render update delete create list filter map reduce sort merge split join trim ' +
  'the a to of and in is it that this with for on as be by at or an not are was'
).split(' ')
/** CJK words (Japanese and Chinese), so search is measured on text without spaces between words too. */
const CJK = ['検索', '関数', '東京', '設定ファイル', '型定義', '数据库', '用户界面', '错误处理', '测试用例', '会话', 'エラーを修正しました', '读取文件内容', '日本語のテキスト']
const IDENTS = ['getSessionPage', 'user_id', 'parseLine', 'readLines', 'LibraryService', 'catalog_version', 'toolKind', 'finishSession', 'maxTokens', 'createdAt', 'workingDirectory', 'snake_case_name']
const DIRS = ['src/main', 'src/renderer', 'src/cli', 'tests', 'lib', 'pkg/api', 'internal/store', 'app/models']
const EXTS = ['.ts', '.js', '.py', '.go', '.rs', '.vue', '.json', '.md']
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-haiku-4-5-20251001', 'claude-sonnet-4-20250514']
const PROJECTS = Array.from({ length: 40 }, (_, i) => `/home/ana/src/project-${String(i).padStart(2, '0')}`)

class Text {
  constructor(readonly r: () => number) {}
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.r() * list.length)]!
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.r() * (max - min + 1))
  }
  path(): string {
    return `${this.pick(DIRS)}/${this.pick(WORDS)}_${this.pick(WORDS)}${this.pick(EXTS)}`
  }
  sentence(words: number): string {
    const out: string[] = []
    for (let i = 0; i < words; i++) {
      const x = this.r()
      out.push(x < 0.05 ? this.pick(IDENTS) : x < 0.08 ? this.path() : x < 0.1 ? this.pick(CJK) : this.pick(WORDS))
    }
    return out.join(' ')
  }
  /** About `bytes` characters of code-like lines. */
  code(bytes: number): string {
    const lines: string[] = []
    let n = 0
    while (n < bytes) {
      const indent = '  '.repeat(this.int(0, 3))
      const line = `${indent}${this.pick(['const', 'let', 'return', 'if (', 'await', 'export function'])} ${this.pick(IDENTS)}${this.int(0, 99)} = ${this.sentence(this.int(3, 10))}`
      lines.push(line)
      n += line.length + 1
    }
    return lines.join('\n')
  }
  uuid(): string {
    const h = (n: number) => Array.from({ length: n }, () => Math.floor(this.r() * 16).toString(16)).join('')
    return `${h(8)}-${h(4)}-4${h(3)}-a${h(3)}-${h(12)}`
  }
  hex(n: number): string {
    return Array.from({ length: n }, () => Math.floor(this.r() * 16).toString(16)).join('')
  }
}

/** Buffered append-only file writer. */
class Out {
  private fd: number
  private parts: string[] = []
  private pending = 0
  bytes = 0
  constructor(path: string) {
    this.fd = openSync(path, 'w')
  }
  line(s: string): void {
    this.parts.push(s, '\n')
    this.pending += s.length + 1
    this.bytes += Buffer.byteLength(s) + 1
    if (this.pending > 1 << 20) this.flush()
  }
  flush(): void {
    if (this.parts.length) writeSync(this.fd, this.parts.join(''))
    this.parts = []
    this.pending = 0
  }
  close(): void {
    this.flush()
    closeSync(this.fd)
  }
}

const DAY = 86_400_000
/** Corpus epoch: 2026-01-01T00:00:00Z; sessions spread over 120 days. */
const EPOCH = Date.UTC(2026, 0, 1)

interface ClaudeSessionSpec {
  path: string
  id: string
  cwd: string
  start: number
  bytes: number
  /** Sub-agent: the parent's id (records carry it as sessionId). */
  parentId?: string
  agentId?: string
  plant?: string[]
}

/** Write one Claude Code transcript of about `spec.bytes`. Returns bytes written. */
function writeClaudeSession(t: Text, spec: ClaudeSessionSpec): number {
  const out = new Out(spec.path)
  let at = spec.start
  let parent: string | null = null
  const recordSession = spec.parentId ?? spec.id
  const base = (uuid: string) => ({
    parentUuid: parent,
    isSidechain: spec.parentId !== undefined,
    ...(spec.agentId ? { agentId: spec.agentId } : {}),
    userType: 'external',
    cwd: spec.cwd,
    sessionId: recordSession,
    version: '2.1.332',
    gitBranch: 'main',
    uuid,
    timestamp: new Date(at).toISOString(),
  })
  const model = t.pick(MODELS)
  const plant = [...(spec.plant ?? [])]
  let turn = 0
  while (out.bytes < spec.bytes) {
    at += t.int(2_000, 90_000)
    const u = t.uuid()
    const extra = plant.length > 0 ? ` ${plant.shift()}` : ''
    const prompt = `${turn === 0 ? 'Please' : 'Now'} ${t.sentence(t.int(8, 40))} in ${t.path()}${extra}`
    out.line(JSON.stringify({ ...base(u), type: 'user', message: { role: 'user', content: prompt } }))
    parent = u
    turn++
    const steps = t.int(1, 6)
    for (let s = 0; s < steps && out.bytes < spec.bytes; s++) {
      at += t.int(1_000, 30_000)
      const msgId = `msg_${t.hex(24)}`
      const requestId = `req_${t.hex(24)}`
      const usage = {
        input_tokens: t.int(3, 4000),
        cache_creation_input_tokens: t.int(0, 20_000),
        cache_read_input_tokens: t.int(0, 150_000),
        output_tokens: t.int(20, 4000),
        service_tier: 'standard',
      }
      const toolId = `toolu_${t.hex(24)}`
      const file = t.path()
      const blocks: unknown[] = [
        { type: 'thinking', thinking: t.sentence(t.int(10, 80)), signature: t.hex(64) },
        { type: 'text', text: t.sentence(t.int(10, 120)) },
        t.r() < 0.5
          ? { type: 'tool_use', id: toolId, name: 'Bash', input: { command: `grep -rn ${t.pick(IDENTS)} ${file}`, description: t.sentence(5) } }
          : { type: 'tool_use', id: toolId, name: t.pick(['Read', 'Edit', 'Grep']), input: { file_path: `${spec.cwd}/${file}`, pattern: t.pick(IDENTS) } },
      ]
      for (const b of blocks) {
        const au = t.uuid()
        const rec = { ...base(au), type: 'assistant', requestId, message: { id: msgId, type: 'message', role: 'assistant', model, content: [b], stop_reason: 'tool_use', stop_sequence: null, usage } }
        out.line(JSON.stringify(rec))
        parent = au
      }
      at += t.int(100, 20_000)
      const ru = t.uuid()
      // Tool outputs dominate real transcripts: mostly a few KB, sometimes hundreds of KB.
      const size = t.r() < 0.02 ? t.int(50_000, 400_000) : t.int(200, 6_000)
      const output = t.code(size)
      out.line(
        JSON.stringify({
          ...base(ru),
          type: 'user',
          message: { role: 'user', content: [{ tool_use_id: toolId, type: 'tool_result', content: output, is_error: false }] },
          toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false },
        }),
      )
      parent = ru
    }
    if (turn % 7 === 0) {
      out.line(JSON.stringify({ type: 'file-history-snapshot', messageId: u, snapshot: { messageId: u, trackedFileBackups: {}, timestamp: new Date(at).toISOString() }, isSnapshotUpdate: false }))
    }
  }
  out.line(JSON.stringify({ type: 'last-prompt', lastPrompt: 'done', sessionId: recordSession }))
  out.close()
  const when = new Date(at)
  utimesSync(spec.path, when, when)
  return out.bytes
}

/** Replace every occurrence of each key by its value. */
function replaceAll(text: string, map: Record<string, string>): string {
  let out = text
  for (const [k, v] of Object.entries(map)) out = out.split(k).join(v)
  return out
}

function cloneId(t: Text, kind: 'cline' | 'uuid'): string {
  return kind === 'cline' ? `${1_780_000_000_000 + t.int(0, 99_999_999)}_${t.hex(5)}` : `01a22b43-${t.hex(4)}-7${t.hex(3)}-8${t.hex(3)}-${t.hex(12)}`
}

/** Extra user/assistant turns for a Cline SDK transcript (SDK message shape). */
function sdkPadding(t: Text, bytes: number, ts: number): unknown[] {
  const out: unknown[] = []
  let n = 0
  while (n < bytes) {
    const text = t.code(t.int(500, 8000))
    out.push({ id: t.uuid(), role: 'user', content: [{ type: 'text', text: `Follow-up: ${t.sentence(20)}` }], ts })
    out.push({ id: `msg_${t.hex(8)}`, role: 'assistant', content: [{ type: 'text', text }], ts: ts + 1000, modelInfo: { id: 'mock-model', provider: 'openai-compatible' }, metrics: { inputTokens: t.int(100, 5000), outputTokens: t.int(10, 900), cacheReadTokens: 0, cacheWriteTokens: 0 } })
    n += text.length + 200
    ts += 2000
  }
  return out
}

/** Write the corpus. Deterministic for a given seed and options. */
export function writeCorpus(o: CorpusOptions): CorpusInfo {
  const r = prng(o.seed ?? 42)
  const t = new Text(r)
  rmSync(o.root, { recursive: true, force: true })
  const home = join(o.root, 'home')
  const bytes = { claudeCode: 0, clineSdk: 0, clineLegacy: 0, codex: 0 }
  const sessions = { claudeCode: 0, clineSdk: 0, clineLegacy: 0, codex: 0 }
  const planted = [
    { word: 'zanzibarquokka', count: 0 },
    { word: 'frobnicate_widget', count: 0 },
    // CJK, planted inside a sentence with no spaces around it (as Japanese and Chinese are written).
    { word: '量子計算機', count: 0 },
  ]

  // Claude Code.
  const projectsDir = join(home, '.claude', 'projects')
  const largeId = t.uuid()
  const largeCwd = PROJECTS[0]!
  const largeDir = join(projectsDir, largeCwd.replace(/[^a-zA-Z0-9]/g, '-'))
  mkdirSync(largeDir, { recursive: true })
  const largePath = join(largeDir, `${largeId}.jsonl`)
  const largeBytes = writeClaudeSession(t, { path: largePath, id: largeId, cwd: largeCwd, start: EPOCH + 5 * DAY, bytes: o.largeSessionBytes ?? 300e6, plant: ['zanzibarquokka'] })
  planted[0]!.count++
  bytes.claudeCode += largeBytes
  sessions.claudeCode++
  const n = o.claudeSessions ?? 2000
  for (let i = 0; i < n; i++) {
    const cwd = t.pick(PROJECTS)
    const dir = join(projectsDir, cwd.replace(/[^a-zA-Z0-9]/g, '-'))
    mkdirSync(dir, { recursive: true })
    const id = t.uuid()
    const size = Math.max(4000, Math.round((o.claudeSessionBytes ?? 150_000) * (0.2 + 1.6 * r())))
    const plant = i % 100 === 7 ? ['frobnicate_widget'] : i % 100 === 11 ? ['これは量子計算機の話です'] : []
    if (i % 100 === 7) planted[1]!.count++
    if (i % 100 === 11) planted[2]!.count++
    bytes.claudeCode += writeClaudeSession(t, { path: join(dir, `${id}.jsonl`), id, cwd, start: EPOCH + Math.floor(r() * 120 * DAY), bytes: size, plant })
    sessions.claudeCode++
    if (i % 10 === 3) {
      const subDir = join(dir, id, 'subagents')
      mkdirSync(subDir, { recursive: true })
      const agentId = `a${t.hex(16)}`
      bytes.claudeCode += writeClaudeSession(t, { path: join(subDir, `agent-${agentId}.jsonl`), id: agentId, cwd, start: EPOCH + Math.floor(r() * 120 * DAY), bytes: size / 3, parentId: id, agentId })
      sessions.claudeCode++
    }
  }

  // Cline SDK: clone the real fixture sessions.
  const sdkSrc = join(o.repoRoot, 'fixtures/real/cline/home/.cline/data/sessions')
  const sdkTemplates = readdirSync(sdkSrc).filter((d) => !d.includes('yw3k7')).sort()
  const sdkDst = join(home, '.cline', 'data', 'sessions')
  for (let i = 0; i < (o.clineSdkSessions ?? 3000); i++) {
    const tid = sdkTemplates[i % sdkTemplates.length]!
    const id = cloneId(t, 'cline')
    const dir = join(sdkDst, id)
    mkdirSync(dir, { recursive: true })
    const map = { [tid]: id }
    const manifest = replaceAll(readFileSync(join(sdkSrc, tid, `${tid}.json`), 'utf8'), map).replace('/home/ana/.cline/data/sessions', sdkDst)
    const messages = JSON.parse(replaceAll(readFileSync(join(sdkSrc, tid, `${tid}.messages.json`), 'utf8'), map)) as { messages: unknown[] }
    const ts = 1_780_000_000_000 + i * 600_000
    messages.messages.push(...sdkPadding(t, Math.round((o.clinePadBytes ?? 40_000) * 2 * r()), ts))
    const body = JSON.stringify(messages)
    writeFileSync(join(dir, `${id}.json`), manifest)
    writeFileSync(join(dir, `${id}.messages.json`), body)
    bytes.clineSdk += manifest.length + body.length
    sessions.clineSdk++
  }

  // Cline legacy tasks.
  const legacySrc = join(o.repoRoot, 'fixtures/real/cline-legacy/home/.cline/data/tasks')
  const legacyTemplates = readdirSync(legacySrc).sort()
  const tasksDst = join(home, '.cline', 'data', 'tasks')
  for (let i = 0; i < (o.clineLegacyTasks ?? 2000); i++) {
    const tid = legacyTemplates[i % legacyTemplates.length]!
    const id = String(1_780_000_000_000 + i * 60_000 + t.int(0, 59_999))
    const dir = join(tasksDst, id)
    mkdirSync(dir, { recursive: true })
    for (const name of readdirSync(join(legacySrc, tid))) {
      let text = replaceAll(readFileSync(join(legacySrc, tid, name), 'utf8'), { [tid]: id })
      if (name === 'api_conversation_history.json') {
        const msgs = JSON.parse(text) as unknown[]
        let pad = Math.round((o.clinePadBytes ?? 40_000) * 2 * r())
        while (pad > 0) {
          const code = t.code(t.int(500, 8000))
          msgs.push({ role: 'user', content: [{ type: 'text', text: `[read_file] Result:\n${code}` }] }, { role: 'assistant', content: [{ type: 'text', text: t.sentence(40) }] })
          pad -= code.length
        }
        text = JSON.stringify(msgs)
      }
      writeFileSync(join(dir, name), text)
      bytes.clineLegacy += text.length
    }
    sessions.clineLegacy++
  }

  // Codex rollouts.
  const codexSrc = join(o.repoRoot, 'fixtures/real/codex/home/.codex/sessions/2026/11/30')
  const codexTemplates = readdirSync(codexSrc).sort()
  for (let i = 0; i < (o.codexSessions ?? 3000); i++) {
    const name = codexTemplates[i % codexTemplates.length]!
    const tid = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(name)![1]!
    const id = cloneId(t, 'uuid')
    const day = new Date(EPOCH + Math.floor((i / (o.codexSessions ?? 3000)) * 120) * DAY)
    const y = String(day.getUTCFullYear())
    const m = String(day.getUTCMonth() + 1).padStart(2, '0')
    const d = String(day.getUTCDate()).padStart(2, '0')
    const dir = join(home, '.codex', 'sessions', y, m, d)
    mkdirSync(dir, { recursive: true })
    const text = replaceAll(readFileSync(join(codexSrc, name), 'utf8'), { [tid]: id })
    writeFileSync(join(dir, name.replace(tid, id).replace('2026-11-30', `${y}-${m}-${d}`)), text)
    bytes.codex += text.length
    sessions.codex++
  }
  return { home, bytes, sessions, large: { path: largePath, id: largeId, bytes: largeBytes }, planted }
}

/** The one large session of {@link writeHugeSession}. */
export interface HugeSession {
  home: string
  path: string
  id: string
  bytes: number
}

/**
 * A home under `root` (emptied first) holding one Claude Code session of about `bytes`, written
 * like the corpus's sessions (seeded, same record shapes; `bench/run.ts --huge-gb`). Independent of
 * {@link writeCorpus}: the corpus's files and numbers do not change.
 */
export function writeHugeSession(root: string, bytes: number, seed = 1234): HugeSession {
  const t = new Text(prng(seed))
  rmSync(root, { recursive: true, force: true })
  const home = join(root, 'home')
  const cwd = '/home/ana/src/huge'
  const dir = join(home, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'))
  mkdirSync(dir, { recursive: true })
  const id = t.uuid()
  const path = join(dir, `${id}.jsonl`)
  const written = writeClaudeSession(t, { path, id, cwd, start: EPOCH, bytes, plant: ['zanzibarquokka'] })
  return { home, path, id, bytes: written }
}
