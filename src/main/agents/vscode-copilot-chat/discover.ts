/**
 * Find VS Code Copilot Chat sessions under one home. VS Code's chat (the panel GitHub Copilot Chat
 * drives) keeps each session in the editor's user data folder (microsoft/vscode
 * src/vs/workbench/contrib/chat/common/model/chatSessionStore.ts):
 * - `<User>/workspaceStorage/<hash>/chatSessions/<sessionId>.json` (one `ISerializableChatData`
 *   object) or `<sessionId>.jsonl` (newer VS Code: an `ObjectMutationLog` append log, see read.ts),
 *   for a window with a folder or workspace open; `<User>/workspaceStorage/<hash>/workspace.json`
 *   names it (`{"folder": "file:///..."}` or `{"workspace": "file:///....code-workspace"}`);
 * - `<User>/globalStorage/emptyWindowChatSessions/<sessionId>.json[l]` for windows with no folder.
 * `<User>` is every VS Code-family user folder the platform module finds (`layout.globalStorage`:
 * Code, Insiders, VSCodium, `.vscode-server`, `.vscode-remote`, portable, Flatpak, forks);
 * `workspaceStorage` is the sibling of its `globalStorage`. When a session has both a `.json` and a
 * `.jsonl` file (VS Code migrating), the `.jsonl` is listed and the `.json` noted (info).
 */
import { readdir } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { storeEntries } from '../link-loop'
import { readRegularFile, statRegular, statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'

/** Store generation of `chatSessions/<id>.json` (one whole `ISerializableChatData`). */
export const FORMAT_JSON = 'vscode-chat-json'
/** Store generation of `chatSessions/<id>.jsonl` (`ObjectMutationLog`, kinds 0-3). */
export const FORMAT_JSONL = 'vscode-chat-jsonl'

const AGENT = 'vscode-copilot-chat' as const

/**
 * The sub-folders or the files of `dir`, sorted. A link that loops or leads above, and a folder named
 * like a session file (`.json`, `.jsonl`), are named in a warning and in neither (agents/link-loop.ts).
 */
async function names(dir: string, diagnostics: Diagnostic[], want: 'dir' | 'file'): Promise<string[]> {
  try {
    const e = await storeEntries(dir, await readdir(dir, { withFileTypes: true }), AGENT, diagnostics, (n) => n.endsWith('.json') || n.endsWith('.jsonl'))
    return want === 'dir' ? e.folders : e.files
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: AGENT })
    return []
  }
}

/** A `file://` URI as a path (`file:///c%3A/x` → `c:/x`); other schemes (`vscode-remote://`) kept as the URI. */
function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file://')) return uri
  try {
    const path = decodeURIComponent(new URL(uri).pathname)
    return /^\/[a-zA-Z]:\//.test(path) ? path.slice(1) : path
  } catch {
    return undefined
  }
}

/**
 * What a `workspace.json` names: `{"folder": uri}` (a folder window: the session's working
 * directory) or `{"workspace": uri}` (a `.code-workspace` file, which may list several folders;
 * kept as `workspaceFile`, not a working directory). Empty when the file is not that shape.
 */
export function workspaceOf(json: unknown): { folder?: string; workspaceFile?: string } {
  if (typeof json !== 'object' || json === null) return {}
  const o = json as Record<string, unknown>
  const folder = typeof o.folder === 'string' ? uriToPath(o.folder) : undefined
  const workspaceFile = typeof o.workspace === 'string' ? uriToPath(o.workspace) : undefined
  return { ...(folder !== undefined && { folder }), ...(workspaceFile !== undefined && { workspaceFile }) }
}

/** Refs for the session files of one `chatSessions`-like folder. */
async function sessionsIn(dir: string, layout: HomeLayout, hints: Record<string, unknown>, extra: string[], diagnostics: Diagnostic[]): Promise<StoreRef[]> {
  const p = pathApiFor(layout.home)
  const files = await names(dir, diagnostics, 'file')
  const jsonl = new Set(files.filter((n) => n.endsWith('.jsonl')).map((n) => n.slice(0, -'.jsonl'.length)))
  const refs: StoreRef[] = []
  for (const name of files) {
    const isJsonl = name.endsWith('.jsonl')
    if (!isJsonl && !name.endsWith('.json')) continue
    const id = name.slice(0, isJsonl ? -'.jsonl'.length : -'.json'.length)
    const path = p.join(dir, name)
    if (!isJsonl && jsonl.has(id)) {
      diagnostics.push({ severity: 'info', path, message: `session ${id} also has a .jsonl log beside it; the log is listed`, agent: AGENT })
      continue
    }
    const s = await statSessionFile(path, AGENT, diagnostics)
    if (!s) continue
    let size = s.size
    let mtimeMs = s.mtimeMs
    for (const x of extra) {
      const xs = await statRegular(x)
      if (xs) {
        size += xs.size
        mtimeMs = Math.max(mtimeMs, xs.mtimeMs)
      }
    }
    refs.push({ agent: AGENT, sessionId: id, format: isJsonl ? FORMAT_JSONL : FORMAT_JSON, files: [path, ...extra], size, mtimeMs, home: layout.home, hints })
  }
  return refs
}

/** List VS Code Copilot Chat sessions under `layout`. Never throws: an unreadable folder is a diagnostic. */
export async function discoverVscodeCopilotChat(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  for (const gs of layout.globalStorage) {
    const user = p.dirname(gs.dir)
    const empty = p.join(gs.dir, 'emptyWindowChatSessions')
    refs.push(...(await sessionsIn(empty, layout, { editor: gs.editor, emptyWindow: true }, [], diagnostics)))
    const ws = p.join(user, 'workspaceStorage')
    for (const hash of await names(ws, diagnostics, 'dir')) {
      const chats = p.join(ws, hash, 'chatSessions')
      // Most workspaces have no chats: workspace.json is read only where a session file exists.
      // (A quick look at the names; `sessionsIn` lists the folder and warns about odd entries.)
      if (!(await readdir(chats).catch(() => [] as string[])).some((n) => n.endsWith('.json') || n.endsWith('.jsonl'))) continue
      const wsJson = p.join(ws, hash, 'workspace.json')
      let named: { folder?: string; workspaceFile?: string } = {}
      let hasWsJson = false
      try {
        const text = await readRegularFile(wsJson)
        hasWsJson = true
        try {
          named = workspaceOf(JSON.parse(text))
        } catch {
          diagnostics.push({ severity: 'warning', path: wsJson, message: 'workspace.json is not JSON; the workspace folder is unknown', agent: AGENT })
        }
      } catch {
        // No workspace.json: the folder stays unknown.
      }
      const hints: Record<string, unknown> = { editor: gs.editor, workspaceHash: hash, ...(named.folder !== undefined && { workspaceFolder: named.folder }), ...(named.workspaceFile !== undefined && { workspaceFile: named.workspaceFile }) }
      refs.push(...(await sessionsIn(chats, layout, hints, hasWsJson ? [wsJson] : [], diagnostics)))
    }
  }
  return { refs, diagnostics }
}
