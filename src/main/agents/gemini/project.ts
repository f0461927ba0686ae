/**
 * Project-level files of a Gemini CLI store: where a session's project is, the prompt log and
 * saved chats. Layout (fixtures/real/gemini, Gemini CLI 0.61.0; google-gemini/gemini-cli
 * packages/core/src/core/logger.ts, services/chatRecordingService.ts):
 *
 * - `~/.gemini/projects.json` — `{"projects": {"<project path>": "<slug>"}}`; chats live in
 *   `~/.gemini/tmp/<slug>/chats/`. Older CLIs named the folder by `projectHash` (SHA-256 of the
 *   project path), the value every chats header still records.
 * - `~/.gemini/tmp/<slug>/.project_root` — the project path, as text.
 * - `~/.gemini/tmp/<slug>/logs.json` — prompt log, `[{sessionId, messageId, timestamp, type: "user", message}]`.
 * - `~/.gemini/tmp/<slug>/checkpoint-<tag>.json` — `/chat save <tag>`: `{history: Content[], authType}`
 *   or a bare `Content[]` (older); not a session, listed as metadata.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Diagnostic } from '../../../shared/ir'
import type { Json } from './values'
import { num, obj, partsOf, str } from './values'
import { readRegularFile } from '../../util/regular-file'

/** The folders around a chats file, when it sits in `<gemini dir>/tmp/<slug>/chats[/<parent id>]/`. */
export interface StorePaths {
  /** `~/.gemini/tmp/<slug>`. */
  projectDir: string
  /** `~/.gemini`. */
  geminiDir: string
}

/** The project folder and `.gemini` folder of a chats file, found by walking up to `chats/`. */
export function storePaths(chatFile: string): StorePaths | undefined {
  let d = dirname(chatFile)
  for (let i = 0; i < 2; i++, d = dirname(d)) {
    if (basename(d) !== 'chats') continue
    const projectDir = dirname(d)
    return { projectDir, geminiDir: dirname(dirname(projectDir)) }
  }
  return undefined
}

/** A saved chat (`checkpoint-<tag>.json`) summarised for metadata. */
export interface SavedChat {
  tag: string
  /** Entries of its history (user and model turns). */
  turns: number
  /** Text of its first user turn, when any. */
  firstUserText?: string
}

/**
 * Parse a saved chat: `{history: Content[]}`, a bare `Content[]`, or the
 * `{checkpoint: {conversation: [...]}}` shape some tools write (fixtures/public/gemini
 * luoyuctl__agenttrace__gemini-checkpoint.json). Undefined when the text is none of these.
 */
export function parseSavedChat(tag: string, text: string): SavedChat | undefined {
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    return undefined
  }
  const history = Array.isArray(v) ? v : (obj(v)?.history ?? obj(obj(v)?.checkpoint)?.conversation)
  if (!Array.isArray(history)) return undefined
  const out: SavedChat = { tag, turns: history.length }
  for (const c of history) {
    const turn = obj(c)
    if (turn?.role !== 'user') continue
    const t = partsOf(turn.parts).filter((p) => p.thought !== true).map((p) => str(p.text) ?? '').join('')
    if (t.trim()) {
      out.firstUserText = t
      break
    }
  }
  return out
}

/** What the project files say about one session. */
export interface ProjectFacts {
  workingDirectory?: string
  /** Where `workingDirectory` came from (`header`, `projects.json`, `projectHash`, `.project_root`, `directories`, `session_context`). */
  cwdSource?: string
  /** This session's prompts from `logs.json`, oldest first. */
  promptHistory?: string[]
  savedChats?: SavedChat[]
  diagnostics: Omit<Diagnostic, 'sessionId' | 'agent'>[]
}

async function text(path: string): Promise<string | undefined> {
  try {
    return await readRegularFile(path)
  } catch {
    return undefined
  }
}

/** `path` parsed as JSON; a warning diagnostic (and undefined) when it exists but is not JSON. */
async function json(path: string, facts: ProjectFacts): Promise<unknown> {
  const t = await text(path)
  if (t === undefined) return undefined
  try {
    return JSON.parse(t) as unknown
  } catch (e) {
    facts.diagnostics.push({ severity: 'warning', path, message: `not valid JSON (${(e as Error).message}); ignored` })
    return undefined
  }
}

/** First "Workspace Directories" entry of the CLI's `<session_context>` message. */
export function contextDirectory(contextText: string | undefined): string | undefined {
  const m = contextText ? /Workspace Directories:\*{0,2}\s*\n\s*- (.+)/.exec(contextText) : undefined
  return m?.[1]?.trim() || undefined
}

/** Inputs for {@link readProjectFacts}. */
export interface ProjectQuery {
  chatFile: string
  sessionId: string
  header?: Json
  /** Text of the `<session_context>` message, when the session has one. */
  contextText?: string
  /** Saved-chat files of the project (listed by discovery). */
  checkpointFiles: string[]
}

/** Resolve the project path, prompt history and saved chats of one session. Never throws. */
export async function readProjectFacts(q: ProjectQuery): Promise<ProjectFacts> {
  const facts: ProjectFacts = { diagnostics: [] }
  const set = (path: string | undefined, source: string): void => {
    if (facts.workingDirectory === undefined && path) Object.assign(facts, { workingDirectory: path, cwdSource: source })
  }
  set(str(q.header?.cwd) ?? str(q.header?.projectRoot), 'header')
  const paths = storePaths(q.chatFile)
  if (paths) {
    const projects = obj(obj(await json(join(paths.geminiDir, 'projects.json'), facts))?.projects) ?? {}
    const slug = basename(paths.projectDir)
    set(Object.keys(projects).find((p) => projects[p] === slug), 'projects.json')
    const hash = str(q.header?.projectHash)
    if (hash) set(Object.keys(projects).find((p) => createHash('sha256').update(p).digest('hex') === hash), 'projectHash')
    set((await text(join(paths.projectDir, '.project_root')))?.trim(), '.project_root')
    const logs = await json(join(paths.projectDir, 'logs.json'), facts)
    if (Array.isArray(logs)) {
      const mine = logs.map(obj).filter((e): e is Json => e?.sessionId === q.sessionId && e.type === 'user' && typeof e.message === 'string')
      mine.sort((a, b) => (num(a.messageId) ?? 0) - (num(b.messageId) ?? 0))
      if (mine.length) facts.promptHistory = mine.map((e) => e.message as string)
    }
  }
  const dirs = q.header?.directories
  set(Array.isArray(dirs) ? str(dirs[0]) : undefined, 'directories')
  set(contextDirectory(q.contextText), 'session_context')
  for (const f of q.checkpointFiles) {
    const t = await text(f)
    const name = basename(f).replace(/^checkpoint-/, '').replace(/\.json$/, '')
    let tag = name
    try {
      tag = decodeURIComponent(name)
    } catch {
      // keep the raw name (logger.ts decodeTagName falls back the same way)
    }
    const chat = t === undefined ? undefined : parseSavedChat(tag, t)
    if (chat) (facts.savedChats ??= []).push(chat)
    else if (t !== undefined) facts.diagnostics.push({ severity: 'warning', path: f, message: 'saved chat is not a history the CLI can load; ignored' })
  }
  return facts
}
