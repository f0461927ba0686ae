/**
 * Seeded Cursor IDE store for the benchmark (`npm run bench -- --cursor-gb N`): a Linux home with
 * `.config/Cursor/User/globalStorage/state.vscdb` of about N GB (default 2), written under
 * `os.tmpdir()` and never committed.
 *
 * Shape (shared/formats/cursor-devin-atif-acp.md §A2–§A5, §F17 "real global stores reach
 * 1–2.3 GB"): `ItemTable` + `cursorDiskKV` (`key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB`) in
 * WAL mode like Cursor's; per composer a `composerData:<id>` row (`_v` 10, name, times,
 * `workspaceIdentifier`, `fullConversationHeadersOnly`) and its `bubbleId:<id>:<bubble>` rows (`_v`
 * 3; user bubbles with Lexical `richText` and attached context, assistant bubbles with thinking +
 * signature, `toolFormerData` calls with JSON-string args and results, text with `tokenCount`),
 * each carrying the many empty fields real bubbles have; plus `checkpointId:` and
 * `codeBlockDiff:` rows (other keys a listing must skip) and `ItemTable['composer.composerHeaders']`.
 * Bubbles of a few composers are interleaved in insertion order, as concurrent chats leave them.
 * Composer sizes are skewed; the first composer is the largest (~2.5% of the bubbles).
 *
 * Everything derives from one seed (mulberry32, `prng` of bench/corpus.ts), so a size and seed
 * always give the same rows. Written in large transactions with `synchronous = OFF`, then
 * checkpointed (the file stays in WAL mode).
 */
import Database from 'better-sqlite3'
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { prng } from './corpus'

/** What {@link writeCursorStore} wrote. */
export interface CursorStoreInfo {
  home: string
  db: string
  /** Bytes of the database file after the checkpoint. */
  bytes: number
  composers: number
  bubbles: number
  /** Bytes of bubble JSON (values only). */
  bubbleBytes: number
  /** Bytes of every value written (bubbles, composers, checkpoints, diffs). */
  valueBytes: number
  largest: { id: string; bubbles: number; bytes: number }
  writeMs: number
}

const T0 = Date.UTC(2025, 5, 1)
const WORDS = 'const let function return import export async await if else for while class interface type row parse file path read write error value list map filter test build model agent tool result query index table json sqlite cursor composer bubble project handler config'.split(' ')
const PROJECTS = Array.from({ length: 24 }, (_, i) => `/home/ana/src/project-${String(i).padStart(2, '0')}`)
const TOOLS = ['read_file', 'run_terminal_cmd', 'search_replace', 'grep_search', 'list_dir', 'edit_file', 'glob_file_search', 'codebase_search']

/** The empty fields every real bubble carries (a real `_v:3` bubble has ~100 keys). */
const BOILER: Record<string, unknown> = Object.fromEntries([
  ...['codebaseContextChunks', 'commits', 'pullRequests', 'attachedCodeChunks', 'assistantSuggestedDiffs', 'gitDiffs', 'interpreterResults', 'images', 'attachedFolders', 'attachedFoldersNew',
    'userResponsesToSuggestedCodeBlocks', 'suggestedCodeBlocks', 'diffsForCompressingFiles', 'relevantFiles', 'toolResults', 'notepads', 'capabilities', 'multiFileLinterErrors', 'diffHistories',
    'recentLocationsHistory', 'recentlyViewedFiles', 'fileDiffTrajectories', 'docsReferences', 'webReferences', 'attachedFoldersListDirResults', 'humanChanges', 'summarizedComposers', 'cursorRules',
    'contextPieces', 'editTrailContexts', 'allThinkingBlocks', 'diffsSinceLastApply', 'deletedFiles', 'supportedTools', 'consoleLogs', 'uiElementPicks', 'knowledgeItems', 'documentationSelections',
    'externalLinks', 'projectLayouts', 'aiWebSearchResults', 'todos'].map((k) => [k, []]),
  ['capabilitiesRan', Object.fromEntries(['mutate-request', 'start-submit-chat', 'before-submit-chat', 'after-submit-chat', 'after-apply', 'composer-settled', 'composer-done', 'process-stream', 'should-loop', 'on-bubble-update'].map((k) => [k, []]))],
  ['capabilityStatuses', Object.fromEntries(['mutate-request', 'before-submit-chat', 'after-submit-chat', 'process-stream', 'composer-done'].map((k) => [k, []]))],
  ...['isAgentic', 'existedSubsequentTerminalCommand', 'existedPreviousTerminalCommand', 'attachedHumanChanges', 'isRefunded', 'isQuickSearchQuery', 'useWeb', 'isNudge', 'skipRendering', 'editToolSupportsSearchAndReplace', 'isPlanExecution'].map((k) => [k, false]),
  ['unifiedMode', 2],
])

class Gen {
  readonly r: () => number
  private readonly pool: string
  constructor(seed: number) {
    this.r = prng(seed)
    const parts: string[] = []
    let n = 0
    while (n < 4_000_000) {
      const w = this.pick(WORDS)
      parts.push(w, this.r() < 0.08 ? '\n' : ' ')
      n += w.length + 1
    }
    this.pool = parts.join('')
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.r() * list.length)]!
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.r() * (max - min + 1))
  }
  /** `n` characters of seeded prose/code. */
  text(n: number): string {
    const start = this.int(0, this.pool.length - n - 1)
    return this.pool.slice(start, start + n)
  }
  uuid(): string {
    const h = () => Math.floor(this.r() * 0x100000000).toString(16).padStart(8, '0')
    const a = h() + h() + h() + h()
    return `${a.slice(0, 8)}-${a.slice(8, 12)}-4${a.slice(13, 16)}-8${a.slice(17, 20)}-${a.slice(20, 32)}`
  }
  /** A skewed size: mostly small, a long tail up to `max`. */
  skew(max: number): number {
    return Math.floor(this.r() ** 3 * max)
  }
}

function lexical(text: string): string {
  return JSON.stringify({ root: { children: [{ children: [{ type: 'text', text }], type: 'paragraph' }], type: 'root' } })
}

/** The bubbles of one composer: turns of a user bubble and 1–8 assistant bubbles. */
function bubblesFor(g: Gen, count: number, start: number, cwd: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  let t = start
  while (out.length < count) {
    const prompt = g.text(g.int(40, 1500))
    const chunk = g.r() < 0.4 ? [{ relativeWorkspacePath: `src/${g.pick(WORDS)}.ts`, text: g.text(g.skew(36_000)) }] : []
    out.push({ ...BOILER, _v: 3, type: 1, bubbleId: g.uuid(), text: prompt, richText: lexical(prompt), createdAt: new Date((t += 20_000)).toISOString(), attachedCodeChunks: chunk, context: { fileSelections: chunk.map((c) => ({ uri: { fsPath: `${cwd}/${c.relativeWorkspacePath}` } })), selections: [] } })
    const steps = g.int(1, 8)
    for (let k = 0; k < steps && out.length < count; k++) {
      const b: Record<string, unknown> = { ...BOILER, _v: 3, type: 2, bubbleId: g.uuid(), text: '', createdAt: new Date((t += g.int(1000, 30_000))).toISOString(), modelInfo: { modelName: 'claude-4.5-sonnet' } }
      const kind = k === steps - 1 ? 'text' : g.r() < 0.25 ? 'thinking' : 'tool'
      if (kind === 'thinking') b.thinking = { text: g.text(g.int(200, 3000)), signature: Buffer.from(g.text(300)).toString('base64') }
      else if (kind === 'tool') {
        const name = g.pick(TOOLS)
        const args = { target_file: `${cwd}/src/${g.pick(WORDS)}.ts`, command: g.text(40), explanation: g.text(80) }
        b.capabilityType = 15
        b.toolFormerData = { tool: 15, name, toolCallId: `toolu_${g.uuid().replace(/-/g, '').slice(0, 24)}`, status: g.r() < 0.05 ? 'error' : 'completed', userDecision: 'accepted', rawArgs: JSON.stringify(args), params: JSON.stringify({ ...args, requireUserApproval: false }), result: JSON.stringify({ contents: g.text(g.skew(90_000)) }) }
      } else {
        b.text = g.text(g.int(100, 4000))
        b.tokenCount = { inputTokens: g.int(2000, 150_000), outputTokens: g.int(50, 4000) }
        if (g.r() < 0.3) b.codeBlocks = [{ content: g.text(g.skew(8000)), languageId: 'typescript', codeBlockIdx: 0 }]
      }
      out.push(b)
    }
  }
  return out
}

/** Write the store under `root` (emptied first) until the bubbles reach about `targetBytes`. */
export function writeCursorStore(root: string, targetBytes: number, seed = 7): CursorStoreInfo {
  const started = performance.now()
  rmSync(root, { recursive: true, force: true })
  const home = join(root, 'home')
  const userDir = join(home, '.config', 'Cursor', 'User')
  const wsIds = PROJECTS.map((_, i) => `${String(i).padStart(2, '0')}${'0'.repeat(30)}`.slice(0, 32))
  PROJECTS.forEach((p, i) => {
    mkdirSync(join(userDir, 'workspaceStorage', wsIds[i]!), { recursive: true })
    writeFileSync(join(userDir, 'workspaceStorage', wsIds[i]!, 'workspace.json'), JSON.stringify({ folder: `file://${p}` }))
  })
  const dbPath = join(userDir, 'globalStorage', 'state.vscdb')
  mkdirSync(join(userDir, 'globalStorage'), { recursive: true })
  const db = new Database(dbPath)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  db.pragma('cache_size = -262144')
  db.exec('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)')
  const put = db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)')
  const g = new Gen(seed)
  const info: CursorStoreInfo = { home, db: dbPath, bytes: 0, composers: 0, bubbles: 0, bubbleBytes: 0, valueBytes: 0, largest: { id: '', bubbles: 0, bytes: 0 }, writeMs: 0 }
  const heads: Record<string, unknown>[] = []
  const avgBubble = 15_000
  const totalBubbles = Math.max(200, Math.round(targetBytes / avgBubble))
  let t = T0
  // Values are ~92% of the file; the key index and page slack make up the rest.
  while (info.valueBytes < targetBytes * 0.92) {
    // A group of composers written at the same time: their bubbles interleave in row order.
    const group = Array.from({ length: 8 }, () => {
      const id = g.uuid()
      const w = g.int(0, PROJECTS.length - 1)
      const count = info.composers === 0 ? Math.round(totalBubbles * 0.025) : 4 + g.skew(400)
      info.composers++
      t += g.int(60_000, 6 * 3_600_000)
      return { id, w, start: t, bubbles: bubblesFor(g, count, t, PROJECTS[w]!), bytes: 0 }
    })
    db.transaction(() => {
      for (let k = 0; group.some((c) => k < c.bubbles.length); k++) {
        for (const c of group) {
          const b = c.bubbles[k]
          if (!b) continue
          const json = JSON.stringify(b)
          put.run(`bubbleId:${c.id}:${b.bubbleId as string}`, json)
          c.bytes += json.length
          info.valueBytes += json.length
        }
      }
      for (const c of group) {
        const last = c.bubbles.at(-1)!.createdAt as string
        const name = g.text(g.int(12, 48)).replace(/\n/g, ' ')
        const ws = { id: wsIds[c.w], uri: { $mid: 1, fsPath: PROJECTS[c.w], external: `file://${PROJECTS[c.w]}`, path: PROJECTS[c.w], scheme: 'file' } }
        const doc = JSON.stringify({ _v: 10, composerId: c.id, name, createdAt: c.start, lastUpdatedAt: Date.parse(last), status: 'completed', unifiedMode: 'agent', isAgentic: true, text: '', richText: '', hasLoaded: true, modelConfig: { modelName: 'default', maxMode: false }, workspaceIdentifier: ws, conversationMap: {}, fullConversationHeadersOnly: c.bubbles.map((b) => ({ bubbleId: b.bubbleId, type: b.type })) })
        const extra: [string, string][] = [[`composerData:${c.id}`, doc]]
        for (let i = 0; i < 3; i++) extra.push([`checkpointId:${c.id}:${g.uuid()}`, JSON.stringify({ files: [{ uri: `${PROJECTS[c.w]}/src/a.ts`, originalModelDiffWrtV0: g.text(g.skew(6000)) }], nonExistentFiles: [] })])
        extra.push([`codeBlockDiff:${c.id}:${g.uuid()}`, JSON.stringify({ newModelDiffWrtV0: [g.text(g.skew(4000))], originalModelDiffWrtV0: [] })])
        for (const [k, v] of extra) {
          put.run(k, v)
          info.valueBytes += v.length
        }
        heads.push({ type: 'head', composerId: c.id, name, createdAt: c.start, lastUpdatedAt: Date.parse(last), unifiedMode: 'agent', workspaceIdentifier: ws })
        info.bubbles += c.bubbles.length
        info.bubbleBytes += c.bytes
        if (c.bubbles.length > info.largest.bubbles) info.largest = { id: c.id, bubbles: c.bubbles.length, bytes: c.bytes }
      }
    })()
  }
  db.prepare("INSERT INTO ItemTable (key, value) VALUES ('composer.composerHeaders', ?)").run(JSON.stringify({ allComposers: heads }))
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  info.bytes = statSync(dbPath).size
  info.writeMs = performance.now() - started
  return info
}
