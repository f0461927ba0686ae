/**
 * Find Letta Code conversations under one home.
 *
 * Letta Code (npm `@letta-ai/letta-code`, github letta-ai/letta-code) keeps its agents on a Letta
 * server by default (Letta Cloud or a self-hosted server): then nothing of the conversation is on
 * local disk but `~/.letta/settings.json` (agent ids per server). Its local backend
 * (`letta --backend local`, `letta backend set local`) keeps everything on disk, in
 * `~/.letta/lc-local-backend/` (`getLocalBackendStorageDir`, src/utils/local-backend-paths.ts; the
 * `LETTA_LOCAL_BACKEND_DIR` override is not followed). That store, from src/backend/local/local-store.ts
 * @1f4d3e3e (`persistConversationState`, `conversationKey`, `encodePathSegment`):
 *
 * - `conversations/<base64url(key)>/` per conversation, `key` = `conversation:<id>` (ids
 *   `local-conv-<n>`) or `default:<agentId>` for an agent's default conversation;
 * - in it `messages.jsonl` (the transcript), `conversation.json` (the Letta `Conversation`:
 *   `id, agent_id, created_at, updated_at, last_message_at, summary, in_context_message_ids`),
 *   `manifest.json` (`schema_version`, `message_format`), `system-prompt.json`;
 * - `agents/<base64url(agentId)>.json` (the agent record: `name`, `model`, `system`), and
 *   `memfs/<agentId>/memory/` (the agent's memory, a git repository; not a session).
 *
 * One ref per conversation folder whose `messages.jsonl` is not empty (a default conversation
 * never used has none). `files`: `messages.jsonl`, then `conversation.json` and `manifest.json` when
 * present. The session id is the conversation id, or `default:<agentId>` for a default
 * conversation (its `id` is `default` in every agent).
 */
import { readdir } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { storeEntries } from '../link-loop'
import { statRegular, statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'

/** Store generation of the local backend's `conversations/<key>/messages.jsonl`. */
export const FORMAT_LETTA_LOCAL = 'letta-code-local-backend'

/** The local backend's storage folder under `layout` (`~/.letta/lc-local-backend`). */
export function lettaStorageDir(layout: HomeLayout): string {
  return pathApiFor(layout.home).join(layout.home, '.letta', 'lc-local-backend')
}

/**
 * The conversation key a folder name encodes (`Buffer.from(key).toString("base64url")`,
 * local-store.ts `encodePathSegment`), or undefined when the name is not such an encoding.
 */
export function conversationKeyOfFolder(name: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return undefined
  const key = Buffer.from(name, 'base64url').toString('utf8')
  return /^(conversation|default):\S+$/.test(key) && Buffer.from(key).toString('base64url') === name ? key : undefined
}

/** Session id of a conversation key: `conversation:<id>` → `<id>`; `default:<agentId>` as is. */
export function sessionIdOfKey(key: string): string {
  return key.startsWith('conversation:') ? key.slice('conversation:'.length) : key
}

/** List Letta Code local-backend conversations under `layout`. Never throws: problems are diagnostics. */
export async function discoverLettaCode(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  const root = p.join(lettaStorageDir(layout), 'conversations')
  let names: string[]
  try {
    // Conversation folders, links to folders followed; a link that loops or leads above is named, not followed (agents/link-loop.ts).
    names = (await storeEntries(root, await readdir(root, { withFileTypes: true }), 'letta-code', diagnostics)).folders
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: root, message: `cannot list folder: ${(e as Error).message}`, agent: 'letta-code' })
    return { refs, diagnostics }
  }
  for (const name of names) {
    const dir = p.join(root, name)
    const key = conversationKeyOfFolder(name)
    const messages = p.join(dir, 'messages.jsonl')
    const s = await statSessionFile(messages, 'letta-code', diagnostics)
    if (!s || s.size === 0) continue
    if (!key) diagnostics.push({ severity: 'info', path: dir, message: 'folder name is not a base64url conversation key; the folder name is used as the session id', agent: 'letta-code' })
    const files = [messages]
    let size = s.size
    let mtimeMs = s.mtimeMs
    for (const side of ['conversation.json', 'manifest.json']) {
      const path = p.join(dir, side)
      const ss = await statRegular(path)
      if (!ss) continue
      files.push(path)
      size += ss.size
      mtimeMs = Math.max(mtimeMs, ss.mtimeMs)
    }
    refs.push({ agent: 'letta-code', sessionId: key ? sessionIdOfKey(key) : name, format: FORMAT_LETTA_LOCAL, files, size, mtimeMs, home: layout.home, ...(key ? { hints: { conversationKey: key } } : {}) })
  }
  return { refs, diagnostics }
}
