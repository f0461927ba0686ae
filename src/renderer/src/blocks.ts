/**
 * Content blocks as what the transcript shows. The switch is exhaustive over
 * {@link ContentBlock}: a new block type in the IR does not compile until it is handled here.
 */
import type { ContentBlock } from '../../shared/ir'
import { strings } from './strings'

/** What one block renders as. */
export type BlockView =
  | { kind: 'text'; text: string }
  | { kind: 'image'; src?: string; note: string }
  | { kind: 'file'; path?: string; text?: string }
  | { kind: 'unknown'; label: string; text?: string }

const IMAGE_TYPES = /^image\/(png|jpe?g|gif|webp|bmp|svg\+xml)$/i

/** The view of one block. Images load only from inline base64 data (never a URL). */
export function blockView(block: ContentBlock): BlockView {
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: block.text }
    case 'image': {
      const type = block.mediaType ?? 'image/png'
      if (block.data && IMAGE_TYPES.test(type) && /^[A-Za-z0-9+/=\s]+$/.test(block.data.slice(0, 200))) {
        return { kind: 'image', src: `data:${type};base64,${block.data.replace(/\s+/g, '')}`, note: strings.message.image }
      }
      return { kind: 'image', note: block.uri ? strings.message.imageNotStored(block.uri) : strings.message.image }
    }
    case 'file': {
      const v: BlockView = { kind: 'file' }
      if (block.path !== undefined) v.path = block.path
      if (block.text !== undefined) v.text = block.text
      return v
    }
    case 'unknown': {
      const v: BlockView = { kind: 'unknown', label: strings.message.unknownBlock(block.originalType) }
      if (block.text !== undefined) v.text = block.text
      return v
    }
    default: {
      const never: never = block
      return { kind: 'unknown', label: strings.message.unknownBlock(String((never as { type?: unknown }).type)) }
    }
  }
}
