/**
 * Plain-text words for event markers ({@link MessageNode.event}), shared by the exports (Markdown,
 * HTML, PDF) and the renderer so that every view says the same thing (issue 14, point 1).
 */
import type { EventKind, MessageNode } from './ir'

/** The label of each event kind, as shown before its text. */
export const EVENT_LABELS: Record<EventKind, string> = {
  compaction: 'Context compacted',
  'model-change': 'Model changed',
  'unknown-event': 'Unrecognized event',
  interrupted: 'Interrupted',
  command: 'Command',
  notification: 'Background task finished',
  hook: 'Blocked by hook',
  'api-error': 'API error',
  notice: 'Note',
}

/**
 * The one-line text of an event node: its label and the first line of its content, e.g.
 * `Blocked by hook: Another session is active`, `API error: Request timed out`. A command is its
 * content alone (`/ide → Connected to Visual Studio Code.`); a notification with a
 * `metadata.status` says it (`Background task completed: ...`). `max` cuts the text (characters).
 */
export function eventText(node: MessageNode, max = 200): string {
  const kind = node.event
  const first = (node.content.split('\n').find((l) => l.trim() !== '') ?? '').trim()
  let label = kind ? EVENT_LABELS[kind] : 'Event'
  if (kind === 'notification' && typeof node.metadata?.status === 'string') label = `Background task ${node.metadata.status}`
  const text = kind === 'command' && first ? first : first ? `${label}: ${first}` : label
  return text.length > max ? text.slice(0, max - 1) + '…' : text
}
