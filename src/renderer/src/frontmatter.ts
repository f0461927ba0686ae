/**
 * YAML front matter of a rule, skill or agent file (`---\nname: pdf\n---\nbody`): its simple
 * `key: value` lines shown apart, so the markdown body does not render them as a heading. Only
 * one-line scalar values are read; anything else stays in the body. Pure.
 */

/** A document split into its front matter and body. */
export interface FrontMatter {
  /** `key: value` pairs in file order ([] when there is no front matter). */
  meta: [string, string][]
  body: string
}

/** Split `text` (any line ends). Text without a closed front matter block is all body. */
export function splitFrontMatter(text: string): FrontMatter {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)
  if (!m) return { meta: [], body: text }
  const lines = (m[1] ?? '').split(/\r?\n/)
  const meta: [string, string][] = []
  for (const line of lines) {
    const kv = /^([A-Za-z0-9_.-]+):\s*(.*)$/.exec(line)
    if (!kv) return { meta: [], body: text }
    meta.push([kv[1]!, (kv[2] ?? '').replace(/^(['"])(.*)\1$/, '$2')])
  }
  return { meta, body: text.slice(m[0].length) }
}
