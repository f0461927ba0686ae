import { describe, expect, it } from 'vitest'
import { renderMarkdown } from './markdown'

describe('renderMarkdown', () => {
  it('escapes raw HTML', () => {
    expect(renderMarkdown('hi <script>alert(1)</script>')).toBe('<p>hi &lt;script&gt;alert(1)&lt;/script&gt;</p>\n')
  })

  it('renders links with the address in the title, bare URLs included', () => {
    const html = renderMarkdown('see https://example.com/x')
    expect(html).toContain('href="https://example.com/x"')
    expect(html).toContain('title="https://example.com/x — links are not opened from Sepia. Click to copy."')
  })

  it('never loads a remote image', () => {
    const html = renderMarkdown('![chart](https://evil.example/p.png)')
    expect(html).not.toContain('<img')
    expect(html).toContain('[Image: chart]')
  })

  it('masks credentials before rendering', () => {
    expect(renderMarkdown('key sk-ant-' + 'b'.repeat(30))).not.toContain('b'.repeat(30))
  })
})

describe('renderMarkdown cache', () => {
  it('gives the same HTML again, and follows the reveal state', async () => {
    const { secretsRevealed } = await import('./secrets')
    const text = 'token sk-ant-' + 'c'.repeat(30) + ' and **bold**'
    const masked = renderMarkdown(text)
    expect(masked).not.toContain('c'.repeat(30))
    expect(renderMarkdown(text)).toBe(masked)
    secretsRevealed.value = true
    try {
      expect(renderMarkdown(text)).toContain('c'.repeat(30))
    } finally {
      secretsRevealed.value = false
    }
    expect(renderMarkdown(text)).toBe(masked)
  })

  it('a computed over it follows the reveal state', async () => {
    const { computed } = await import('vue')
    const { secretsRevealed } = await import('./secrets')
    const text = 'key sk-ant-' + 'd'.repeat(30)
    renderMarkdown(text)
    const html = computed(() => renderMarkdown(text))
    expect(html.value).not.toContain('d'.repeat(30))
    secretsRevealed.value = true
    try {
      expect(html.value).toContain('d'.repeat(30))
    } finally {
      secretsRevealed.value = false
    }
    expect(html.value).not.toContain('d'.repeat(30))
  })
})
