/**
 * The window's keyboard shortcuts, as a pure function of the key and where focus is:
 *
 * - Ctrl/Cmd-K: the command palette (also while typing; again closes it).
 * - `/`: focus the view's search or filter box (not while typing).
 * - Ctrl/Cmd-F: find in the open session (issue 17); with no session open, as `/`.
 * - Ctrl/Cmd-G: open a session by its id.
 * - j / k, and ↓ / ↑ while focus is in a list or nowhere: next / previous item.
 *
 * Esc is left to the dialogs (native `<dialog>` closes on it) and to the filter box (clears it).
 */

/** What a key press asks for. */
export type ShortcutAction = 'palette' | 'search' | 'find' | 'open-id' | 'next' | 'prev'

/** Where focus is when the key is pressed. */
export interface KeyContext {
  /** Focus is in a text field (input, textarea, select, contenteditable). */
  typing: boolean
  /** A modal dialog is open. */
  dialogOpen: boolean
  /** The palette is the open dialog. */
  paletteOpen: boolean
  /** Focus is inside the view's list (the library pane). */
  inList: boolean
  /** Nothing is focused (the body). */
  nothingFocused: boolean
}

/** The keys of a KeyboardEvent the shortcuts look at. */
export type KeyPress = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>

/** The action for a key press, or null when the key is not a shortcut here. */
export function shortcutFor(e: KeyPress, c: KeyContext): ShortcutAction | null {
  const mod = e.ctrlKey || e.metaKey
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key
  if (mod && !e.altKey && !e.shiftKey && key === 'k') return !c.dialogOpen || c.paletteOpen ? 'palette' : null
  if (c.dialogOpen) return null
  if (mod && !e.altKey && !e.shiftKey && key === 'f') return 'find'
  if (mod && !e.altKey && !e.shiftKey && key === 'g') return 'open-id'
  if (mod || e.altKey || c.typing) return null
  if (e.key === '/') return 'search'
  if (e.key === 'j' || (e.key === 'ArrowDown' && (c.inList || c.nothingFocused))) return 'next'
  if (e.key === 'k' || (e.key === 'ArrowUp' && (c.inList || c.nothingFocused))) return 'prev'
  return null
}

/** True when `el` is a text field (keys typed there are text, not shortcuts). */
export function isTyping(el: Element | null): boolean {
  if (!(el instanceof HTMLElement)) return false
  if (el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true
  if (el.tagName !== 'INPUT') return false
  const type = (el as HTMLInputElement).type
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type)
}

/** True on macOS (Cmd is the modifier there). */
export function isMac(): boolean {
  return typeof navigator !== 'undefined' && /^Mac/i.test(navigator.platform)
}

/** The modifier as shown to the user: `⌘` on macOS, else `Ctrl+`. */
export function modLabel(): string {
  return isMac() ? '⌘' : 'Ctrl+'
}
