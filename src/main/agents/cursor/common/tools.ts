/**
 * Tool calls of both Cursor stacks → IR {@link ToolCall}s: ACP kind from the shared table
 * (`src/main/ir/toolkind.ts`), file locations and diffs from the argument keys Cursor uses.
 *
 * Argument keys (shared/formats/cursor-devin-atif-acp.md §A5.3.1 "Arg keys", §B4 tool vocabulary):
 * `target_file`, `file_path`, `relativeWorkspacePath`, `targetFile`, `effectiveUri`, `path`;
 * `StrReplace{path,old_string,new_string}`, `search_replace{file_path,old_string,new_string}`,
 * `Write{path,contents}`, `MultiEdit{file_path,edits[{old_string,new_string}]}`. MCP tools are
 * named `mcp-…` / `mcp_…` (kind `other`).
 */
import type { ToolCall, ToolCallDiff, ToolCallLocation, ToolKind } from '../../../../shared/ir'
import { toolKind } from '../../../ir/toolkind'
import { arr, obj, str, text } from './json'
import { uriToPath } from './uri'

const PATH_KEYS = ['target_file', 'targetFile', 'file_path', 'filePath', 'relativeWorkspacePath', 'path'] as const

/** ACP kind of a Cursor tool name (`mcp-…` tools are `other`). */
export function cursorToolKind(name: string): ToolKind {
  return /^mcp[-_]/i.test(name) ? 'other' : toolKind(name)
}

/** The file a call's arguments name, when one of the known keys holds a string. */
function argPath(args: Record<string, unknown>): string | undefined {
  for (const k of PATH_KEYS) {
    const v = text(args[k])
    if (v !== undefined) return v
  }
  const uri = text(args.effectiveUri) ?? text(obj(args.effectiveUri)?.fsPath)
  if (uri === undefined) return undefined
  return uri.includes('://') ? (uriToPath(uri)?.path ?? uri) : uri
}

/** Diffs the arguments carry (old/new strings, whole-file writes, multi-edits). */
function argDiffs(name: string, args: Record<string, unknown>, path: string | undefined): ToolCallDiff[] {
  if (path === undefined) return []
  const out: ToolCallDiff[] = []
  const one = (e: Record<string, unknown>) => {
    const oldText = str(e.old_string) ?? str(e.oldString)
    const newText = str(e.new_string) ?? str(e.newString)
    if (oldText === undefined && newText === undefined) return
    const d: ToolCallDiff = { path }
    if (oldText !== undefined) d.oldText = oldText
    if (newText !== undefined) d.newText = newText
    out.push(d)
  }
  one(args)
  for (const e of arr(args.edits) ?? []) {
    const o = obj(e)
    if (o) one(o)
  }
  const contents = str(args.contents)
  if (out.length === 0 && contents !== undefined && /^write$/i.test(name)) out.push({ path, newText: contents })
  return out
}

/**
 * A tool call with kind, locations and diffs filled from `args` (an object, or a raw string kept
 * as is when the store's JSON did not parse).
 */
export function makeToolCall(id: string, name: string, args: unknown): ToolCall {
  const call: ToolCall = { id, name, kind: cursorToolKind(name), arguments: args }
  const a = obj(args)
  if (!a) return call
  const path = argPath(a)
  if (path !== undefined) {
    const loc: ToolCallLocation = { path }
    call.locations = [loc]
  }
  const diffs = argDiffs(name, a, path)
  if (diffs.length > 0) call.diffs = diffs
  return call
}
