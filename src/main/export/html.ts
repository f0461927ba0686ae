/**
 * A session as one self-contained HTML file (issue "Exports"): inline CSS (light and dark), no
 * script, no remote asset (a strict Content-Security-Policy meta tag forbids every fetch except
 * inline `data:` images), so it opens offline anywhere. Tool calls and thinking are `<details>`
 * elements, folded by default (open for print/PDF with `openDetails`).
 *
 * Message text is Markdown rendered by markdown-it with raw HTML off (HTML in a transcript is
 * shown as text); remote images become a text mention, as in the app (`src/renderer/src/markdown.ts`).
 */
import { createHash } from 'node:crypto'
import { lazyRequire } from '../util/lazy-require'
import MarkdownIt from 'markdown-it'
import type { ContentBlock, MessageNode, Session, ToolCall, Usage } from '../../shared/ir'
import { eventText } from '../../shared/events'
import { EXPORT_CSS } from './html-style'
import { argumentsText, clip, exportRows, roleLabel, sessionFacts, type RowOptions } from './rows'
import { cutOutsideSecrets } from '../secrets/mask'

const diff = lazyRequire<typeof import('diff')>('diff')

/** Options for {@link sessionToHtml}. */
export interface HtmlOptions extends RowOptions {
  /** Render every `<details>` open (print/PDF). Default false. */
  openDetails?: boolean
  /** Cut each tool output after this many characters. Default 200,000. */
  maxToolOutput?: number
  /** "Exported by" line: app name and version, e.g. `Sepia 0.1.0`. */
  generator?: string
  /** Export time, ms since epoch (shown in the footer). */
  exportedAt?: number
}

const STYLE_HASH = createHash('sha256').update(EXPORT_CSS).digest('base64')

/**
 * The page's Content-Security-Policy: nothing may load (no script, no font, no remote image, no
 * connection); only the page's own style sheet (by hash) and inline `data:` images.
 */
export const EXPORT_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src data:; base-uri 'none'; form-action 'none'`

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false })
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  tokens[idx]!.attrSet('rel', 'noreferrer noopener')
  return self.renderToken(tokens, idx, options)
}
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!
  const src = String(token.attrGet('src') ?? '')
  const alt = self.renderInlineAsText(token.children ?? [], options, env)
  if (/^data:image\/(png|jpe?g|gif|webp);/i.test(src)) return `<img src="${esc(src)}" alt="${esc(alt)}">`
  return `<span class="note">[image${alt ? `: ${esc(alt)}` : ''} — ${esc(src)}]</span>`
}

/** Render a session as a complete HTML document. Pure (given `exportedAt`). */
export function sessionToHtml(session: Session, options: HtmlOptions = {}): string {
  const maxOut = options.maxToolOutput ?? 200_000
  const toolOutput = options.includeToolOutput !== false
  const open = options.openDetails ? ' open' : ''
  const title = (session.title ?? session.id).replace(/\s+/g, ' ').trim()
  const body: string[] = []
  for (const row of exportRows(session, options)) {
    const n = row.node
    if (row.kind === 'event') {
      body.push(`<p class="event">${esc(eventText(n))}</p>`)
      continue
    }
    const parts: string[] = [`<h2>${esc(roleLabel(n))}${timeTag(n.createdAt)}</h2>`]
    if (row.kind === 'orphan-result') {
      parts.push(`<pre${n.isError ? ' class="error"' : ''}>${esc(clip(n.content, maxOut))}</pre>`)
    } else {
      if (options.includeThinking !== false && n.thinking?.trim()) {
        parts.push(`<details class="thinking"${open}><summary>Thinking</summary><div class="text">${esc(n.thinking)}</div></details>`)
      }
      if (n.content.trim()) parts.push(`<div class="md">${md.render(n.content)}</div>`)
      for (const b of n.blocks ?? []) parts.push(blockHtml(b))
      for (const { call, result } of row.calls) parts.push(toolHtml(call, result, { open, maxOut, toolOutput }))
      if (n.usage) parts.push(usageLine(n.usage))
    }
    body.push(`<article class="msg ${n.role}">${parts.filter(Boolean).join('')}</article>`)
  }
  const facts = sessionFacts(session)
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`)
    .join('')
  const footer = [
    `Exported${options.generator ? ` by ${esc(options.generator)}` : ''}${options.exportedAt !== undefined ? ` on ${esc(new Date(options.exportedAt).toISOString())}` : ''}.`,
    `Source: ${esc(session.source.format)}.`,
    options.includeThinking === false ? 'Thinking left out.' : '',
    toolOutput ? '' : 'Tool arguments and output left out.',
    session.usage ? usageLine(session.usage, 'Session totals') : '',
  ].filter(Boolean)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="${esc(options.generator ?? 'Sepia')}">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
<style>${EXPORT_CSS}</style>
</head>
<body>
<header><h1>${esc(title)}</h1><dl class="facts">${facts}</dl></header>
<main>
${body.join('\n')}
</main>
<footer>${footer.join(' ')}</footer>
</body>
</html>
`
}

function toolHtml(call: ToolCall, result: MessageNode | undefined, o: { open: string; maxOut: number; toolOutput: boolean }): string {
  const status = call.status ? `<span class="status-${esc(call.status)}"> ${esc(call.status)}</span>` : ''
  const summary = `<summary><span class="tool-name">${esc(call.name)}</span><span class="kind">${esc(call.kind)}</span>${status}${o.toolOutput ? ` <code>${esc(oneLine(callSummary(call), 120))}</code>` : ''}</summary>`
  if (!o.toolOutput) return `<details class="tool">${summary}<p class="note">Arguments and output left out.</p></details>`
  const parts = [summary, `<p class="label">Arguments</p><pre>${esc(clip(argumentsText(call), o.maxOut))}</pre>`]
  for (const d of call.diffs ?? []) parts.push(`<p class="label">Change to ${esc(d.path)}</p>${diffHtml(d.path, d.oldText, d.newText)}`)
  if (result) {
    parts.push(`<p class="label${result.isError ? ' error' : ''}">${result.isError ? 'Result (error)' : 'Result'}</p>`)
    parts.push(`<pre${result.isError ? ' class="error"' : ''}>${esc(clip(result.content, o.maxOut))}</pre>`)
  } else parts.push('<p class="note">No result was recorded.</p>')
  return `<details class="tool"${o.open}>${parts.join('')}</details>`
}

function diffHtml(path: string, oldText: string | undefined, newText: string | undefined): string {
  const patch = diff().createTwoFilesPatch(path, path, oldText ?? '', newText ?? '', '', '', { context: 3 })
  const lines = patch.split('\n').slice(2) // drop the two file-name header lines
  const html = lines
    .map((l) => (l.startsWith('+') ? `<span class="add">${esc(l)}</span>` : l.startsWith('-') ? `<span class="del">${esc(l)}</span>` : esc(l) + '\n'))
    .join('')
  return `<pre class="diff">${html}</pre>`
}

function blockHtml(b: ContentBlock): string {
  switch (b.type) {
    case 'text':
      return '' // already in `content`
    case 'image':
      if (b.data && /^image\/(png|jpe?g|gif|webp)$/i.test(b.mediaType ?? '')) return `<p><img src="data:${esc(b.mediaType!)};base64,${esc(b.data)}" alt="image"></p>`
      return `<p class="note">[image${b.mediaType ? ` ${esc(b.mediaType)}` : ''}${b.uri ? `: ${esc(b.uri)}` : ''}]</p>`
    case 'file':
      return `<p class="note">[file${b.path ? `: ${esc(b.path)}` : ''}]</p>`
    case 'unknown':
      return b.text ? `<p class="note">[${esc(b.originalType)}] ${esc(b.text)}</p>` : ''
  }
}

/** A one-line description of a call: its command, path, pattern or URL, else its arguments. */
export function callSummary(call: ToolCall): string {
  const a = call.arguments
  if (a && typeof a === 'object' && !Array.isArray(a)) {
    const r = a as Record<string, unknown>
    for (const k of ['command', 'cmd', 'file_path', 'path', 'filePath', 'pattern', 'query', 'url', 'description']) {
      const v = r[k]
      if (typeof v === 'string' && v.trim()) return v
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(' ')
    }
  }
  return argumentsText(call)
}

function usageLine(u: Usage, label = 'Tokens'): string {
  const parts: string[] = []
  if (u.inputTokens !== undefined) parts.push(`${u.inputTokens} in`)
  if (u.outputTokens !== undefined) parts.push(`${u.outputTokens} out`)
  if (u.cacheReadTokens) parts.push(`${u.cacheReadTokens} cache read`)
  if (u.cacheWriteTokens) parts.push(`${u.cacheWriteTokens} cache write`)
  if (u.cost !== undefined) parts.push(`$${u.cost.toFixed(4)}`)
  return parts.length ? `<p class="label">${esc(label)}: ${esc(parts.join(' · '))}</p>` : ''
}

function timeTag(ms: number | undefined): string {
  if (ms === undefined) return ''
  const iso = new Date(ms).toISOString()
  return `<time datetime="${iso}">${iso.replace('T', ' ').slice(0, 19)} UTC</time>`
}

function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim()
  return cutOutsideSecrets(t, max)
}

/** Escape text for HTML element content and attribute values. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}
