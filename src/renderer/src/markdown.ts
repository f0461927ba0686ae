/**
 * Markdown to HTML for message text (markdown-it, `html: false` so raw HTML in a transcript is
 * shown as text, `linkify` for bare URLs). Links are rendered but never followed: the click
 * handler in `MarkdownText.vue` intercepts them. Remote images are not loaded (the CSP forbids
 * them anyway); they become a text mention of the image. Credentials are masked first.
 */
import MarkdownIt from 'markdown-it'
import { uiLocale } from './locale'
import { maskSecrets, secretsRevealed } from './secrets'
import { strings } from './strings'

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false })

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx]!
  const href = String(token.attrGet('href') ?? '')
  token.attrSet('title', strings.message.linkNotOpened(href))
  token.attrSet('rel', 'noreferrer noopener')
  token.attrJoin('class', 'md-link')
  return self.renderToken(tokens, idx, options)
}

md.renderer.rules.image = (tokens, idx, _options, _env, self) => {
  const token = tokens[idx]!
  const src = String(token.attrGet('src') ?? '')
  const alt = self.renderInlineAsText(token.children ?? [], _options, _env)
  if (/^data:image\/(png|jpe?g|gif|webp);/i.test(src)) {
    return `<img src="${md.utils.escapeHtml(src)}" alt="${md.utils.escapeHtml(alt)}">`
  }
  return `<span class="md-image-ref" title="${md.utils.escapeHtml(src)}">[${md.utils.escapeHtml(strings.message.image)}${alt ? `: ${md.utils.escapeHtml(alt)}` : ''}]</span>`
}

/**
 * Rendered HTML by language, reveal state and text. A row of the virtual transcript is mounted
 * again each time it scrolls back into view, and markdown-it plus the masking cost ~0.1-1 ms a
 * message (more for long ones), so each rendering is kept. Bounded: the map starts afresh past
 * {@link CACHE_LIMIT} entries or {@link CACHE_CHARS} characters of text and HTML; a text longer
 * than {@link CACHE_MAX_TEXT} is not kept.
 */
const cache = new Map<string, string>()
const CACHE_LIMIT = 2000
const CACHE_CHARS = 16_000_000
const CACHE_MAX_TEXT = 200_000
let cacheChars = 0

/**
 * HTML for a markdown text, credentials masked. Safe for `v-html`: raw HTML is escaped. Reads the
 * reveal state and the language first, so a `computed` over it follows both.
 */
export function renderMarkdown(text: string): string {
  const id = `${uiLocale.value}\u0000${secretsRevealed.value ? 1 : 0}\u0000${text}`
  let html = cache.get(id)
  if (html === undefined) {
    html = md.render(maskSecrets(text))
    if (text.length <= CACHE_MAX_TEXT) {
      if (cache.size >= CACHE_LIMIT || cacheChars + text.length + html.length > CACHE_CHARS) {
        cache.clear()
        cacheChars = 0
      }
      cache.set(id, html)
      cacheChars += text.length + html.length
    }
  }
  return html
}
