/**
 * Copying text: the async Clipboard API first; when it is missing or refused (an insecure origin,
 * no permission), the text in `fallback` (an input or any element) is selected and
 * `document.execCommand('copy')` tried, and failing that left selected for the user to copy.
 */

/** How a copy went: on the clipboard, or only selected (the user presses Ctrl+C). */
export type CopyOutcome = 'copied' | 'selected'

/** Select the text of an element (an input's value, or an element's text). */
export function selectText(el: HTMLElement): void {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    el.focus()
    el.select()
    return
  }
  const range = document.createRange()
  range.selectNodeContents(el)
  const sel = window.getSelection()
  sel?.removeAllRanges()
  sel?.addRange(range)
}

/** Copy `text`; see the module comment for the fallback. */
export async function copyText(text: string, fallback?: HTMLElement | null): Promise<CopyOutcome> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text)
      return 'copied'
    }
  } catch {
    // fall back to selecting the text
  }
  if (fallback) {
    selectText(fallback)
    try {
      if (document.execCommand('copy')) return 'copied'
    } catch {
      // the user copies the selection
    }
  }
  return 'selected'
}
