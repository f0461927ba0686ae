/**
 * Composer → project folder, in the order shared/formats/cursor-devin-atif-acp.md §A6 recommends
 * (newest source first):
 *
 * 1. `composerHeaders` table `workspaceId` → that workspace's `workspace.json` folder;
 * 2. `composerData.workspaceIdentifier.uri` (`fsPath`, else `path`, else `external`), else
 *    `workspaceIdentifier.id` → workspace folder, else the legacy `workspaceUri` stamp;
 * 3. the global `ItemTable['composer.composerHeaders']` entry's `workspaceIdentifier`, same rules;
 * 4. membership: the workspace whose `composer.composerData` lists the id;
 * 5. a workspace whose `composerChatViewPane` keys/values embed the id.
 *
 * (Step 6, `messageRequestContext:<id>:*` `projectLayouts[].rootPath`, needs the composer's own
 * rows and is done when the session is read.) No folder found → no project: `workingDirectory`
 * stays absent (no-folder windows `empty-window` / 13-digit ids, multi-root workspaces).
 */
import { obj, str, text } from './common/json'
import { type ProjectPath, uriObjectToPath, uriToPath } from './common/uri'
import type { ComposerInfo, HeaderInfo } from './global'
import type { WorkspaceInfo } from './workspaces'

/** A resolved project: the folder, which source gave it, and the workspace when known. */
export interface ProjectHint extends ProjectPath {
  /** The rule that matched (`composerHeaders.workspaceId`, `workspaceIdentifier.uri`, ...). */
  via: string
  workspaceId?: string
}

/** Inputs of {@link resolveProject}. */
export interface ProjectSources {
  composer?: ComposerInfo
  tableHeader?: HeaderInfo
  itemHeader?: HeaderInfo
  workspaces: Map<string, WorkspaceInfo>
}

function fromWorkspace(ws: WorkspaceInfo | undefined, via: string): ProjectHint | undefined {
  if (!ws?.folder) return undefined
  return { ...ws.folder, via, workspaceId: ws.id }
}

/** Rule 2/3: a `workspaceIdentifier` object (`{id, uri?}`). */
function fromIdentifier(value: unknown, via: string, workspaces: Map<string, WorkspaceInfo>): ProjectHint | undefined {
  const wi = obj(value)
  if (!wi) return undefined
  const id = text(wi.id)
  const fromUri = uriObjectToPath(wi.uri)
  if (fromUri) return id ? { ...fromUri, via: `${via}.uri`, workspaceId: id } : { ...fromUri, via: `${via}.uri` }
  return id ? fromWorkspace(workspaces.get(id), `${via}.id`) : undefined
}

/** The project of one composer, or undefined when no source names a folder. */
export function resolveProject(id: string, src: ProjectSources): ProjectHint | undefined {
  const { workspaces } = src
  const wsId = src.tableHeader?.workspaceId
  const fromTable = wsId ? fromWorkspace(workspaces.get(wsId), 'composerHeaders.workspaceId') : undefined
  if (fromTable) return fromTable
  const fromComposer = fromIdentifier(src.composer?.workspaceIdentifier, 'workspaceIdentifier', workspaces)
  if (fromComposer) return fromComposer
  const stamp = str(src.composer?.workspaceUri)
  if (stamp) {
    const p = stamp.includes('://') ? uriToPath(stamp) : { path: stamp }
    if (p) return { ...p, via: 'workspaceUri' }
  }
  const fromItem = fromIdentifier(src.itemHeader?.workspaceIdentifier ?? src.tableHeader?.workspaceIdentifier, 'composer.composerHeaders.workspaceIdentifier', workspaces)
  if (fromItem) return fromItem
  for (const ws of workspaces.values()) {
    if (ws.members.has(id) && ws.folder) return fromWorkspace(ws, 'workspace membership')
  }
  const lower = id.toLowerCase()
  for (const ws of workspaces.values()) {
    if (ws.paneIds.has(lower) && ws.folder) return fromWorkspace(ws, 'composerChatViewPane')
  }
  return undefined
}
