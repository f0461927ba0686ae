/**
 * Message content for a target: text stays text; images and files stay blocks where the target's
 * store holds them (Claude Code `image`/`document`, Cline `image`/`file`; `TargetVocabulary.blocks`),
 * else they become a short note in the text (so does an image whose data does not decode as base64:
 * `image-undecodable`); unknown blocks keep their text or are dropped.
 */
import type { ContentBlock, MessageNode } from '../../shared/ir'
import { fileNote, imageNote } from '../convert-shared/notes'
import type { TargetVocabulary } from './vocabulary'
import type { WarningSink } from './warnings'

/**
 * Content as written: the text projection and, when a non-text block is kept (or the node keeps
 * its parts' order, `partOrder`: then one block per source block, a dropped one as empty text),
 * the ordered blocks.
 */
export interface AdaptedContent {
  content: string
  blocks?: ContentBlock[]
}

/**
 * True when `data` decodes as base64 (strict: the base64 alphabet only, length a multiple of 4).
 * Published copies of real sessions have runs of an image's payload replaced by `REDACTED`.
 */
export function isBase64(data: string): boolean {
  return data.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(data)
}

/** Adapt `node`'s content for `vocab` (see the module comment); counts notes and drops in `sink`. */
export function adaptContent(node: MessageNode, vocab: TargetVocabulary, sink: WarningSink): AdaptedContent {
  if (!node.blocks || node.blocks.length === 0) return { content: node.content }
  const texts: string[] = []
  const out: ContentBlock[] = []
  // A node that keeps its parts' order (`partOrder`) names blocks by index: every block keeps its place.
  const ordered = node.partOrder !== undefined
  let kept = ordered
  const text = (t: string): void => {
    if (t !== '') texts.push(t)
    if (t !== '' || ordered) out.push({ type: 'text', text: t })
  }
  for (const b of node.blocks) {
    switch (b.type) {
      case 'text':
        text(b.text)
        break
      case 'image':
        if (vocab.blocks.image && b.data && (node.role !== 'tool' || vocab.blocks.toolResultImages)) {
          if (isBase64(b.data)) {
            out.push(b)
            kept = true
          } else {
            // OpenCode stops before any model request on such a data: URL (RESUME-MATRIX.md, 019ddeed → opencode).
            text(imageNote(b))
            sink.add({ kind: 'image-undecodable', count: 1 })
          }
        } else {
          text(imageNote(b))
          sink.add({ kind: 'image-as-note', count: 1 })
        }
        break
      case 'file':
        if (vocab.blocks.file && b.text !== undefined && node.role !== 'tool') {
          out.push(b)
          kept = true
        } else {
          text(fileNote(b))
          sink.add({ kind: 'file-as-note', count: 1 })
        }
        break
      case 'unknown':
        if (b.text) text(b.text)
        else {
          sink.add({ kind: 'block-dropped', count: 1, blockType: b.originalType })
          if (ordered) text('')
        }
        break
      default: {
        const never: never = b
        void never
      }
    }
  }
  const content = texts.join('\n\n')
  return kept ? { content, blocks: out } : { content }
}
