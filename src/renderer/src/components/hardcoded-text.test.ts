/**
 * No component template holds user-visible words of its own (issue 17 "Languages"): every text
 * node, and every aria-label / title / placeholder / alt / label, comes from `strings` (the locale
 * files), so a translation reaches all of it. Symbols (·, —, ↑, ×, "(", ":") are allowed anywhere;
 * words only from the short {@link ALLOWED} list. String literals inside `{{ }}` and bound
 * attributes count as words when they read like text (two words, or a capitalised or non-Latin
 * word); single lowercase words there are taken for ids (`step === 'preview'`).
 */
import { describe, expect, it } from 'vitest'
import { parse } from 'vue/compiler-sfc'

/** Every component's source, by path under src/renderer/src (`components/AppToolbar.vue`). */
const SOURCES: Record<string, string> = Object.fromEntries(
  Object.entries(import.meta.glob<string>('/src/renderer/src/**/*.vue', { query: '?raw', import: 'default', eager: true })).map(([p, src]) => [
    p.replace(/^\/src\/renderer\/src\//, ''),
    src,
  ]),
)
/** Attributes a person reads or hears. */
const TEXT_ATTRS = new Set(['aria-label', 'title', 'placeholder', 'alt', 'label', 'aria-description', 'aria-placeholder', 'aria-roledescription', 'aria-valuetext'])
/** Words allowed as they are: `file: text`. */
const ALLOWED = new Set([
  'components/AppToolbar.vue: S', // the logo's letter
  'components/AboutDialog.vue: S', // the logo's letter
])

/** Whether a static text holds a word (a letter of any script). */
const hasWord = (s: string): boolean => /\p{L}/u.test(s)
/** Whether a string literal in an expression reads like text (see the module comment). */
function readsLikeText(literal: string): boolean {
  const s = literal.replace(/\$\{[^}]*\}/g, '').trim()
  if (!/\p{L}{2,}/u.test(s)) return false
  return /\s/.test(s) || /^\p{Lu}/u.test(s) || /[^\p{Script=Latin}\P{L}]/u.test(s)
}
/** The string literals of a JavaScript expression (quotes and backticks). */
function literals(exp: string): string[] {
  return [...exp.matchAll(/(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g)].map((m) => m[2] ?? '')
}

interface Node {
  type: number
  content?: unknown
  loc: { start: { line: number }; source: string }
  props?: { type: number; name: string; value?: { content: string }; arg?: { content: string }; exp?: { content: string }; loc: { start: { line: number } } }[]
  children?: Node[]
  branches?: Node[]
}

/** The hard-coded words of one component (`rel`: its path under src/renderer/src): `file:line: text`. */
function findings(rel: string, source: string): string[] {
  const { descriptor } = parse(source, { filename: rel })
  const ast = descriptor.template?.ast as unknown as Node | undefined
  if (!ast) return []
  const out: string[] = []
  const report = (line: number, text: string): void => {
    if (!ALLOWED.has(`${rel}: ${text}`)) out.push(`${rel}:${line}: ${text}`)
  }
  const walk = (n: Node): void => {
    // 2: text, 5: {{ interpolation }}, 1: element (6: static attribute, 7: directive)
    if (n.type === 2 && typeof n.content === 'string' && hasWord(n.content)) report(n.loc.start.line, n.content.trim())
    if (n.type === 5) {
      const exp = (n.content as { content?: string } | undefined)?.content ?? ''
      for (const l of literals(exp)) if (readsLikeText(l)) report(n.loc.start.line, l)
    }
    if (n.type === 1)
      for (const p of n.props ?? []) {
        if (p.type === 6 && TEXT_ATTRS.has(p.name) && p.value && hasWord(p.value.content)) report(p.loc.start.line, `${p.name}="${p.value.content}"`)
        if (p.type === 7 && p.name === 'bind' && p.arg && TEXT_ATTRS.has(p.arg.content) && p.exp)
          for (const l of literals(p.exp.content)) if (readsLikeText(l)) report(p.loc.start.line, `:${p.arg.content} "${l}"`)
      }
    for (const c of n.children ?? []) walk(c)
    for (const b of n.branches ?? []) walk(b)
  }
  walk(ast)
  return out
}

describe('component templates', () => {
  it('finds the components', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(40)
    expect(SOURCES['App.vue']).toContain('<template>')
  })

  it('hold no user-visible words of their own (they come from strings / locales/*.json)', () => {
    expect(Object.entries(SOURCES).flatMap(([rel, src]) => findings(rel, src))).toEqual([])
  })

  it('would catch a hard-coded word (the check itself works)', () => {
    const src = `<template><div><p>Hello there</p><button aria-label="Close">×</button><span :title="ok ? 'Open it' : ''">· {{ step === 'preview' ? a : b }}</span></div></template>`
    expect(findings('components/Probe.vue', src)).toEqual(['components/Probe.vue:1: Hello there', 'components/Probe.vue:1: aria-label="Close"', `components/Probe.vue:1: :title "Open it"`])
    expect(findings('components/AppToolbar.vue', '<template><span>S</span></template>')).toEqual([])
    expect(readsLikeText('閉じる')).toBe(true)
  })
})
