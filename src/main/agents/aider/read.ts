/**
 * Read one Aider session (one `# aider chat started at` block of `.aider.chat.history.md`) into
 * the IR. What each line is, from Aider's writers (github:Aider-AI/aider `aider/io.py`):
 * - `user_input`: `#### <line>` per line of what the user typed, lines joined with `  \n#### `
 *   (markdown line breaks), the run preceded by a blank line; `<blank>` for empty input. A run
 *   starting with `/` (or `!`, Aider's `/run`) is a command (`event: "command"`); other runs are
 *   prompts (`role: "user"`).
 * - `tool_output` / `tool_warning` / `tool_error` / `confirm_ask` / `prompt_ask`: `> <text>  `
 *   lines (blockquote). They become `role: "system"` notice nodes, one per run of lines, except:
 *   `Tokens: 3.2k sent[, N cache write][, N cache hit], 21 received.` and
 *   `Cost: $0.0082 message, $0.0082 session.` (`base_coder.py` `calculate_and_show_tokens_and_cost`,
 *   counts rounded by `utils.format_tokens` to 0.1k / 1k) become the usage of the assistant reply
 *   before them; `^C KeyboardInterrupt` is an `interrupted` event; `litellm.<Kind>Error: ...` (a
 *   failed model call: rate limit, unknown model, credentials) is an `api-error` event; `Main model: X with Y edit
 *   format` / `Model: X with ...` set the model of the replies after it; `Aider vX` is recorded.
 * - `ai_output`: the reply text, not prefixed; everything else (inside fenced code too) is
 *   assistant text.
 * Times: the header stamp is the session start; a prompt gets the time of its matching
 * `.aider.input.history` entry. Nothing else in the file is stamped, so every other node (replies,
 * their usage, notices, a prompt with no input-history entry) takes the last time before it: the
 * time of the prompt it follows, else the chat's start. Times inside a chat are thus its start or
 * its prompts' times, never a reply's own time. Both are local wall-clock stamps with no zone (Aider writes
 * `datetime.now()`), read as the local time of the machine reading them (`./history.ts`
 * `wallClockMs`); `metadata.timeZone` says so.
 * Problems (a file cut mid-line, a header whose stamp does not parse, NUL bytes) are diagnostics
 * naming file and line; the rest loads.
 */
import { readFile, stat } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import type { MessageNode, Session, Usage } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession } from '../../ir/build'
import { pathApiFor } from '../../platform'
import type { ReadContext, StoreRef } from '../types'
import { type ChatHistory, type InputEntry, loadChatHistory, parseInputHistory, projectKey, wallClockMs } from './history'

const TOKENS_RE = /^Tokens: ([\d.]+k?) sent(?:, ([\d.]+k?) cache write)?(?:, ([\d.]+k?) cache hit)?, ([\d.]+k?) received\.(?:\s+(Cost: .*))?$/
const COST_RE = /^Cost: \$([\d.]+) message, \$([\d.]+) session\.$/
const MODEL_RE = /^(?:Main model|Model): (\S+)(?: with (\S+) edit format)?/

/** `3.2k` → 3200, `21` → 21 (Aider's `format_tokens`). */
function tokens(s: string | undefined): number | undefined {
  if (s === undefined) return undefined
  const n = s.endsWith('k') ? Math.round(Number(s.slice(0, -1)) * 1000) : Number(s)
  return Number.isFinite(n) ? n : undefined
}

/** Strip the markdown line break (`  `) Aider adds at the end of `####` and `>` lines. */
const unbreak = (l: string): string => (l.endsWith('  ') ? l.slice(0, -2) : l)

interface Run {
  kind: 'user' | 'cli' | 'assistant'
  line: number
  lines: string[]
}

/** Group a block's lines (after the header) into runs of user, CLI and assistant lines. */
function runsOf(lines: string[], from: number, to: number): Run[] {
  const runs: Run[] = []
  let cur: Run | undefined
  let fence: string | undefined
  const start = (kind: Run['kind'], line: number): Run => {
    cur = { kind, line, lines: [] }
    runs.push(cur)
    return cur
  }
  for (let n = from; n < to; n++) {
    const l = lines[n - 1]!
    if (cur?.kind === 'assistant' && fence !== undefined) {
      cur.lines.push(l)
      if (l.trimStart().startsWith(fence)) fence = undefined
      continue
    }
    if (/^####( |$)/.test(l)) {
      ;(cur?.kind === 'user' ? cur : start('user', n)).lines.push(unbreak(l.replace(/^#### ?/, '')))
    } else if (/^>( |$)/.test(l)) {
      ;(cur?.kind === 'cli' ? cur : start('cli', n)).lines.push(unbreak(l.replace(/^> ?/, '')).trim())
    } else if (l.trim() === '') {
      if (cur?.kind === 'assistant') cur.lines.push(l)
      else cur = undefined
    } else {
      ;(cur?.kind === 'assistant' ? cur : start('assistant', n)).lines.push(l)
      const f = /^\s*(`{3,}|~{3,})/.exec(l)
      if (f) fence = f[1]
    }
  }
  return runs
}

/**
 * Read the session `ref` names. Rejects with `READ_FAILED` only when the chat history cannot be
 * read; everything else becomes a diagnostic.
 */
export async function readAiderSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no .aider.chat.history.md' })
  let history: ChatHistory
  const p = pathApiFor(ref.home)
  const rel = p.relative(ref.home, p.dirname(path))
  // The key discovery derived (./discover.ts); recomputed when the ref carries no hints.
  const key = typeof ref.hints?.projectKey === 'string' ? ref.hints.projectKey : projectKey(rel.startsWith('..') ? p.dirname(path) : rel)
  try {
    const s = await stat(path)
    history = await loadChatHistory(path, s.size, s.mtimeMs, key)
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${(e as Error).message}`, path })
  }
  const session = newSession('aider', ref.sessionId, ref.format, ref.files, ref.home)
  const projectDir = typeof ref.hints?.projectDir === 'string' ? ref.hints.projectDir : p.dirname(path)
  session.workingDirectory = projectDir
  const index = history.blocks.findIndex((b) => b.id === ref.sessionId)
  const block = history.blocks[index]
  if (!block) {
    addDiagnostic(session, { severity: 'warning', path, message: `session ${ref.sessionId} is no longer in the chat history (the file changed since it was listed)` })
    return finishSession(session)
  }
  const next = history.blocks[index + 1]
  const startedAt = block.stamp !== undefined ? wallClockMs(block.stamp) : undefined
  const nextAt = next?.stamp !== undefined ? wallClockMs(next.stamp) : undefined
  if (startedAt !== undefined) session.createdAt = startedAt
  session.metadata.aiderStartedAt = block.stamp
  session.metadata.timeZone = 'unrecorded (Aider writes local wall-clock time; read as the local time of the machine reading it)'
  if (block.stamp === undefined) {
    if (isHeaderLine(history, block.startLine)) addDiagnostic(session, { severity: 'warning', path, line: block.startLine, message: 'the "aider chat started at" header has no readable date' })
    else addDiagnostic(session, { severity: 'info', path, line: 1, message: 'text before the first "aider chat started at" header, read as a session of its own' })
  }
  for (let n = block.startLine; n < block.endLine; n++) {
    const l = history.lines[n - 1]!
    if (l.includes('\u0000')) addDiagnostic(session, { severity: 'warning', path, line: n, message: 'line holds NUL bytes (the file is damaged here); read as text' })
    else if (n !== block.startLine && looksLikeDamagedHeader(l)) addDiagnostic(session, { severity: 'warning', path, line: n, message: 'line looks like a damaged "# aider chat started at" header; the session it started is read as part of this one' })
  }
  if (history.endsMidLine && block.endLine === history.lines.length + 1) {
    addDiagnostic(session, { severity: 'warning', path, line: history.lines.length, message: 'the file ends mid-line (cut short?); the last line is read as it is' })
  }

  // Input history: the entries typed during this session, to time its prompts.
  let entries: InputEntry[] = []
  const inputPath = ref.files[1]
  if (inputPath) {
    try {
      entries = parseInputHistory(await readFile(inputPath, 'utf8')).filter((e) => e.at !== undefined && (startedAt === undefined || e.at >= startedAt) && (nextAt === undefined || e.at < nextAt))
    } catch (e) {
      addDiagnostic(session, { severity: 'warning', path: inputPath, message: `cannot read the input history: ${(e as Error).message}` })
    }
    if (entries.length && startedAt !== undefined) session.promptHistory = entries.map((e) => e.text)
  }
  let nextEntry = 0
  const timeOf = (text: string): { at?: number; line?: number } => {
    const want = text.trimEnd()
    for (let j = nextEntry; j < entries.length; j++) {
      if (entries[j]!.text.trimEnd() === want) {
        nextEntry = j + 1
        return { at: entries[j]!.at, line: entries[j]!.line }
      }
    }
    return {}
  }

  const from = block.stamp === undefined && !isHeaderLine(history, block.startLine) ? block.startLine : block.startLine + 1
  let model: string | undefined
  let lastAssistant: MessageNode | undefined
  let seq = 0
  const push = (n: Omit<MessageNode, 'nodeId'>, line: number): MessageNode => {
    const prev = session.nodes[session.nodes.length - 1]
    seq++
    const node: MessageNode = { nodeId: `L${line}`, ...(prev ? { parentNodeId: prev.nodeId } : {}), ...n }
    if (session.nodes.some((x) => x.nodeId === node.nodeId)) node.nodeId = `L${line}.${seq}`
    session.nodes.push(node)
    return node
  }
  const notice = (lines: string[], line: number): void => {
    while (lines.length && lines[0] === '') lines.shift()
    while (lines.length && lines[lines.length - 1] === '') lines.pop()
    if (lines.length) push({ role: 'system', event: 'notice', content: lines.join('\n') }, line)
  }
  const addUsage = (u: Usage, raw: string, line: number): void => {
    if (lastAssistant) {
      lastAssistant.usage = { ...lastAssistant.usage, ...u }
      lastAssistant.metadata = { ...lastAssistant.metadata, aiderUsage: [...((lastAssistant.metadata?.aiderUsage as string[] | undefined) ?? []), raw] }
    } else notice([raw], line)
  }

  for (const run of runsOf(history.lines, from, block.endLine)) {
    if (run.kind === 'user') {
      const text = run.lines.join('\n')
      if (text.trim() === '<blank>') continue
      const { at, line } = timeOf(text)
      const timed = at !== undefined ? { createdAt: at } : {}
      const meta = line !== undefined ? { metadata: { inputHistoryLine: line } } : {}
      if (/^[/!]/.test(text.trimStart())) push({ role: 'system', event: 'command', content: text.trim(), ...timed, ...meta }, run.line)
      else push({ role: 'user', content: text, ...timed, ...meta }, run.line)
      lastAssistant = undefined
    } else if (run.kind === 'assistant') {
      lastAssistant = push({ role: 'assistant', content: run.lines.join('\n').trim(), ...(model ? { model } : {}) }, run.line)
    } else {
      let buf: string[] = []
      let bufLine = run.line
      run.lines.forEach((l, k) => {
        const line = run.line + k
        const t = TOKENS_RE.exec(l)
        const c = COST_RE.exec(l)
        if (t || c) {
          notice(buf, bufLine)
          buf = []
          bufLine = line + 1
          const u: Usage = {}
          if (t) {
            const sent = tokens(t[1])
            const cw = tokens(t[2])
            const ch = tokens(t[3])
            if (sent !== undefined) u.inputTokens = Math.max(0, sent - (cw ?? 0))
            if (cw !== undefined) u.cacheWriteTokens = cw
            if (ch !== undefined) u.cacheReadTokens = ch
            const out = tokens(t[4])
            if (out !== undefined) u.outputTokens = out
          }
          const cost = c ?? (t?.[5] ? COST_RE.exec(t[5]) : null)
          if (cost) u.cost = Number(cost[1])
          addUsage(u, l, line)
          return
        }
        if (/^litellm\.\w*Error: /.test(l)) {
          // A failed model call (rate limit, bad model id, credentials, ...), as aider prints
          // litellm's exception; the advice and "Retrying in ..." lines after it stay notes.
          notice(buf, bufLine)
          buf = []
          bufLine = line + 1
          push({ role: 'system', event: 'api-error', content: l }, line)
          return
        }
        if (l === '^C KeyboardInterrupt') {
          notice(buf, bufLine)
          buf = []
          bufLine = line + 1
          push({ role: 'system', event: 'interrupted', content: 'Interrupted (^C)' }, line)
          return
        }
        const m = MODEL_RE.exec(l)
        if (m) {
          model = m[1]!
          session.model ??= model
          if (m[2]) session.metadata.editFormat ??= m[2]
        }
        const v = /^Aider v(\S+)/.exec(l)
        if (v) session.metadata.aiderVersion ??= v[1]
        if (buf.length === 0) bufLine = line
        buf.push(l)
      })
      notice(buf, bufLine)
    }
  }
  // Aider stamps only the chat's start and each typed prompt: a node with no time of its own takes
  // the last time before it (the prompt it answers, else the chat's start), so usage has a day.
  let last = startedAt
  for (const n of session.nodes) {
    if (n.createdAt !== undefined) last = n.createdAt
    else if (last !== undefined) n.createdAt = last
  }
  return finishSession(session)
}

/** True when line `n` is a `# aider chat started at` header. */
function isHeaderLine(history: ChatHistory, n: number): boolean {
  return /^# aider chat started at/.test(history.lines[n - 1] ?? '')
}

const HEADER_PREFIX = '# aider chat started at '
/** A line within two changed characters of the header's fixed prefix (a flipped byte, a bad copy). */
function looksLikeDamagedHeader(l: string): boolean {
  if (l.length < HEADER_PREFIX.length || l.startsWith(HEADER_PREFIX.slice(0, -1))) return false
  let diff = 0
  for (let i = 0; i < HEADER_PREFIX.length; i++) if (l[i] !== HEADER_PREFIX[i]) diff++
  return diff <= 2
}
