/**
 * Markdown to HTML for message text (markdown-it, `html: false` so raw HTML in a transcript is
 * shown as text, `linkify` for bare URLs). Links are rendered but never followed: the click
 * handler in `MarkdownText.vue` intercepts them. Remote images are not loaded (the CSP forbids
 * them anyway); they become a text mention of the image. Credentials are masked first.
 */
import MarkdownIt from 'markdown-it'
import { maskSecrets } from './secrets'
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

/** HTML for a markdown text, credentials masked. Safe for `v-html`: raw HTML is escaped. */
export function renderMarkdown(text: string): string {
  return md.render(maskSecrets(text))
}
