/**
 * Notes written in place of content a target cannot hold, shared by `convert/content.ts` and the
 * writers (`agents/codex/write-rollout.ts`), in a module both import (issue 14: no writer imports
 * `convert/` for them).
 */
import type { ContentBlock } from '../../shared/ir'

/** Note written in place of an image the target cannot hold. */
export function imageNote(b: Extract<ContentBlock, { type: 'image' }>): string {
  return `[Image${b.mediaType ? ` (${b.mediaType})` : ''}${b.uri ? `: ${b.uri}` : ''}, not carried over]`
}

/** Note written in place of a file the target cannot hold. */
export function fileNote(b: Extract<ContentBlock, { type: 'file' }>): string {
  return `[Attached file${b.path ? ` ${b.path}` : ''}${b.mediaType ? ` (${b.mediaType})` : ''}, not carried over]`
}
