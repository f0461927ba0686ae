/**
 * Write a prepared session (src/main/convert/prepare.ts) as a new Continue session that the Continue
 * CLI continues with `cn --fork <id>` (or `cn --resume`, which takes the newest session file).
 *
 * What the CLI needs (@continuedev/cli 1.5.47 `src/session.ts` `loadSessionById`, `loadSession`;
 * continuedev/continue core/util/history.ts `HistoryManager.load/save`, core/util/paths.ts;
 * core/util/messageConversion.ts `convertFromUnifiedHistory`; checked against the real store in
 * fixtures/real/continue):
 * - the file `~/.continue/sessions/<sessionId>.json` (`HistoryManager.load` reads it by id; `--resume`
 *   takes the newest `*.json` there by modification time, which a just-written file is), holding
 *   `{sessionId, title, workspaceDirectory, history, usage}` as `HistoryManager.save` orders it,
 *   pretty-printed with two spaces;
 * - `history`: `ChatHistoryItem {message, contextItems: []}`; a user item also carries
 *   `editorState` (the CLI's copy of the content); an assistant item holds `message.content` (text),
 *   `message.toolCalls [{id, type: "function", function: {name, arguments (JSON text)}}]`, and one
 *   `toolCallStates` entry per call `{toolCallId, toolCall, status: "done" | "errored", parsedArgs,
 *   output: [{content, name: "Tool Result", description: "Tool execution result"}]}`: the CLI keeps
 *   tool results only there and sends one `tool` message per state from its `output` (a state
 *   without output goes out as "Tool cancelled"). An assistant node whose parts are in another
 *   order than text, calls (`partOrder`) becomes consecutive items (`splitAssistantTurns`);
 * - per-message `usage` in the provider's snake_case as the CLI writes it (`completion_tokens`,
 *   `prompt_tokens` when kept, `total_tokens`, `model`), the session `usage` the sums
 *   (`promptTokens`, `completionTokens`, `promptTokensDetails`; `totalCost`, US dollars the CLI
 *   spent, 0: a message's cost has no place, `usage-not-representable`).
 * Thinking has no place the CLI replays (a `thinking` item is sent as an assistant message), and the
 * target takes none (provider family `any`). `sessions.json` (the index the IDE's history and `cn
 * ls` list) is not changed: the CLI adds the entry itself the first time it saves the session
 * (`HistoryManager.save`), and Sepia lists session files without it. The origin is kept as
 * `importedFrom{agent, sessionId, path, importedAt, importer}` on the session (the CLI drops unknown
 * keys when it saves the session again).
 */
import { SepiaError } from '../../../shared/api'
import { type ConvertWarning, quoteArg } from '../../../shared/convert'
import type { ContentBlock, MessageNode, Session } from '../../../shared/ir'
import { FileTransaction } from '../../util/file-transaction'
import { splitAssistantTurns, textOfBlocks } from '../../convert-shared/part-order'
import { pathApiFor } from '../../platform'
import type { WriteOptions, WriteResult } from '../types'
import { continueSessionsDir } from './discover'

type Json = Record<string, unknown>

/** The title the CLI gives a session it has not named (`DEFAULT_SESSION_TITLE`, src/constants/session.ts). */
export const CONTINUE_DEFAULT_TITLE = 'Untitled Session'

/** A user message's content: the text, or parts when an image is kept (`imageUrl` with a data URL). */
function userContent(n: MessageNode): string | Json[] {
  if (!n.blocks?.some((b) => b.type === 'image')) return n.content
  const parts: Json[] = []
  for (const b of n.blocks as ContentBlock[]) {
    if ((b.type === 'text' || b.type === 'unknown') && b.text) parts.push({ type: 'text', text: b.text })
    else if (b.type === 'image' && b.data) parts.push({ type: 'imageUrl', imageUrl: { url: `data:${b.mediaType ?? 'image/png'};base64,${b.data}` } })
    else if (b.type === 'image' && b.uri) parts.push({ type: 'imageUrl', imageUrl: { url: b.uri } })
  }
  return parts
}

/** An assistant node's text (its blocks' text in order when it has blocks). */
const assistantText = (n: MessageNode): string => (n.blocks ? textOfBlocks(n.blocks) : n.content)

/** IR usage → the CLI's per-message `usage` (undefined without any count). */
function usageOf(n: MessageNode, model: string | undefined): Json | undefined {
  const u = n.usage
  if (!u || (u.inputTokens === undefined && u.outputTokens === undefined && u.thinkingTokens === undefined)) return undefined
  const out: Json = {}
  if (u.inputTokens !== undefined) out.prompt_tokens = u.inputTokens
  const completion = (u.outputTokens ?? 0) + (u.thinkingTokens ?? 0)
  out.completion_tokens = completion
  out.total_tokens = (u.inputTokens ?? 0) + completion
  if (model) out.model = model
  return out
}

/** The `history` of `session` (every user, assistant and tool node; results into their call's state). */
export function historyItems(session: Session): Json[] {
  const items: Json[] = []
  const stateOf = new Map<string, Json>()
  for (const n of splitAssistantTurns(session.nodes)) {
    if (n.role === 'user') {
      const content = userContent(n)
      items.push({ message: { role: 'user', content }, contextItems: [], editorState: content })
    } else if (n.role === 'assistant') {
      const calls = n.toolCalls ?? []
      const message: Json = { role: 'assistant', content: assistantText(n) }
      const toolCalls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments ?? {}) } }))
      if (toolCalls.length) message.toolCalls = toolCalls
      const usage = usageOf(n, n.model ?? session.model)
      if (usage) message.usage = usage
      const item: Json = { message, contextItems: [] }
      if (calls.length) {
        item.toolCallStates = calls.map((c, k) => {
          // Until its result comes: a call without one is sent as "Tool cancelled" (never happens after prepare).
          const state: Json = { toolCallId: c.id, toolCall: toolCalls[k], status: 'done', parsedArgs: c.arguments ?? {} }
          stateOf.set(c.id, state)
          return state
        })
      }
      items.push(item)
    } else if (n.role === 'tool' && n.toolCallId !== undefined) {
      const state = stateOf.get(n.toolCallId)
      if (!state) continue
      state.status = n.isError ? 'errored' : 'done'
      state.output = [{ content: n.content, name: 'Tool Result', description: 'Tool execution result' }]
    }
  }
  return items
}

/** Warnings for what a Continue session cannot hold: a message's cost (the CLI keeps only its own spending, as the session total). */
function warningsFor(session: Session): ConvertWarning[] {
  return [{ kind: 'usage-not-representable', count: session.nodes.filter((n) => n.usage?.cost !== undefined).length }]
}

/**
 * Write `session` as a new Continue session under `options.layout` (see the module comment). With
 * `dryRun` nothing is written. Rejects `WRITE_FAILED` (nothing left behind) on any error, and when
 * the file already exists (never overwritten).
 */
export async function writeContinueSession(session: Session, options: WriteOptions): Promise<WriteResult> {
  const p = pathApiFor(options.layout.home)
  const cwd = session.workingDirectory ?? options.layout.home
  const id = options.newId()
  const file = p.join(continueSessionsDir(options.layout), `${id}.json`)
  const output = { sessionId: id, files: [file], resumeCommand: `cn --fork ${quoteArg(id, options.layout.os)}`, cwd, backups: [] as string[] }
  const warnings = warningsFor(session)
  if (options.dryRun) return { output, warnings }

  const history = historyItems(session)
  const sum = (f: (u: Json) => unknown): number => history.reduce((a, it) => a + (Number(f((((it.message as Json).usage as Json | undefined) ?? {}))) || 0), 0)
  const importedFrom: Json = { agent: options.sourceRef.agent, sessionId: options.sourceRef.sessionId }
  if (options.sourceRef.path) importedFrom.path = options.sourceRef.path
  Object.assign(importedFrom, { importedAt: new Date(options.now()).toISOString(), importer: 'sepia' })
  const doc = {
    sessionId: id,
    title: session.title ?? CONTINUE_DEFAULT_TITLE,
    workspaceDirectory: cwd,
    history,
    usage: {
      // What the CLI spent on this session: nothing yet (the source's cost is not Continue's; see warningsFor).
      totalCost: 0,
      promptTokens: sum((u) => u.prompt_tokens),
      completionTokens: sum((u) => u.completion_tokens),
      promptTokensDetails: { cachedTokens: 0, cacheWriteTokens: 0 },
    },
    importedFrom,
  }
  const tx = new FileTransaction(options.fault)
  try {
    await tx.stage(file, JSON.stringify(doc, undefined, 2))
    await tx.commit()
  } catch (e) {
    await tx.rollback()
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the Continue session: ${(e as Error).message}. Nothing was left behind.`, path: file })
  }
  return { output, warnings }
}
