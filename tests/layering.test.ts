/**
 * The layers of `src/` (README "How it is built", "Layers") as rules on imports: every `.ts` and
 * `.vue` file under `src/` is parsed with the TypeScript compiler (a `.vue` file's `<script>`
 * blocks), and each import it makes is resolved to a path of the repository: `import` and
 * `export ... from` (`import type` too), `import x = require(...)`, `require('...')`, `import('...')`
 * and `typeof import('...')` with a literal specifier. Packages (`vue`, `node:fs`) and specifiers
 * built at run time (`import(name)`, only used for optional packages) are not paths and are not
 * checked. A failure names the file, the line and the import.
 *
 * The rules, each true of the tree as it is (a test file, `*.test.ts`, is above every layer: it may
 * import what it tests and its builders, so the first three rules are about the app's own files):
 * - `src/main/agents/` (readers and writers) never imports `src/main/convert/`, which imports them.
 *   What both use lives below both: `src/main/util/` (the writers' file transaction and SQLite row,
 *   `file-transaction.ts`, `sqlite-row.ts`) and `src/main/convert-shared/` (parts order, notes,
 *   model family); `agents/read-back.ts` reads a written session back. A writer's test may build its
 *   input with `convert/prepare.ts` (what a writer receives is `prepareForTarget`'s output).
 * - `src/main/util/` imports nothing else of `src/main/`; `src/main/convert-shared/` nothing but
 *   `util/`: both only `src/shared/` and packages.
 * - No file of the app (`src/`, tests aside) imports `tests/` or `fixtures/`: test builders live in
 *   `tests/builders/`, and the app finds its fixtures (the demo home) by path, never by import.
 * - `src/shared/` imports nothing of `src/main`, `src/renderer`, `src/preload` or `src/cli`.
 * - `src/renderer/` and `src/preload/` import nothing of `src/main` or `src/cli` (and not each
 *   other), not even `import type`: they know main through `window.sepia`, whose types are
 *   `src/shared/api.ts` (the renderer imports the IR and API types from `src/shared/`; none
 *   imports main today, so no exception is needed).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, posix } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { findAppRoot } from '../src/main/context'

const ROOT = findAppRoot()

/** One import of a file: the specifier as written, the repository path it names (null: a package), how, and where. */
interface Import {
  spec: string
  target: string | null
  kind: 'static' | 'type' | 'dynamic'
  line: number
}

/** A `.vue` file's `<script>` blocks, other lines blanked so line numbers stay the file's. */
function scriptOfVue(text: string): string {
  let out = ''
  let last = 0
  for (const m of text.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/g)) {
    const start = m.index! + m[1]!.length
    out += text.slice(last, start).replace(/[^\n]/g, ' ') + m[2]
    last = start + m[2]!.length
  }
  return out
}

/** The repository path (posix, relative to the root) that `spec` in `file` names, or null for a package. */
function resolveSpec(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null
  const bare = spec.replace(/\?.*$/, '')
  const base = posix.normalize(posix.join(posix.dirname(file), bare))
  const tries = [base, `${base}.ts`, `${base}.vue`, `${base}/index.ts`, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts')]
  for (const t of tries) {
    const abs = join(ROOT, t)
    if (existsSync(abs) && statSync(abs).isFile()) return t
  }
  return base
}

/** Every import of `file` (a repository path) whose text is `text`. */
function importsOf(file: string, text: string): Import[] {
  const source = ts.createSourceFile(file, file.endsWith('.vue') ? scriptOfVue(text) : text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const found: Import[] = []
  const add = (node: ts.Node, lit: ts.Expression | undefined, kind: Import['kind']): void => {
    if (!lit || !ts.isStringLiteralLike(lit)) return
    found.push({ spec: lit.text, target: resolveSpec(file, lit.text), kind, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node, node.moduleSpecifier, node.importClause?.isTypeOnly ? 'type' : 'static')
    else if (ts.isExportDeclaration(node)) add(node, node.moduleSpecifier, node.isTypeOnly ? 'type' : 'static')
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node, node.moduleReference.expression, 'static')
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], 'dynamic')
    else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require') add(node, node.arguments[0], 'static')
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal, 'type')
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** A layering rule: files it applies to, and the imports it forbids them. */
interface Rule {
  name: string
  applies: (file: string) => boolean
  forbids: (target: string) => boolean
}

const isTest = (f: string) => /\.test\.ts$/.test(f)
const under = (...dirs: string[]) => (p: string) => dirs.some((d) => p === d || p.startsWith(`${d}/`))

const RULES: readonly Rule[] = [
  {
    name: 'agents/ (readers, writers) never imports convert/, which imports them',
    applies: (f) => under('src/main/agents')(f) && !isTest(f),
    forbids: under('src/main/convert'),
  },
  {
    name: 'util/ imports nothing else of src/main',
    applies: (f) => under('src/main/util')(f) && !isTest(f),
    forbids: (t) => under('src/main')(t) && !under('src/main/util')(t),
  },
  {
    name: 'convert-shared/ imports nothing of src/main but util/',
    applies: (f) => under('src/main/convert-shared')(f) && !isTest(f),
    forbids: (t) => under('src/main')(t) && !under('src/main/convert-shared', 'src/main/util')(t),
  },
  {
    name: 'the app never imports tests/ or fixtures/',
    applies: (f) => !isTest(f),
    forbids: under('tests', 'fixtures'),
  },
  {
    name: 'src/shared imports nothing of main, renderer, preload or cli',
    applies: under('src/shared'),
    forbids: under('src/main', 'src/renderer', 'src/preload', 'src/cli'),
  },
  {
    name: 'the renderer imports nothing of main, preload or cli (not even types)',
    applies: under('src/renderer'),
    forbids: under('src/main', 'src/preload', 'src/cli'),
  },
  {
    name: 'the preload imports nothing of main, renderer or cli',
    applies: under('src/preload'),
    forbids: under('src/main', 'src/renderer', 'src/cli'),
  },
]

/** The broken rules of `file`'s imports, one line each: `file:line imports 'spec' (target): rule`. */
function violations(file: string, imports: readonly Import[], rules: readonly Rule[] = RULES): string[] {
  const out: string[] = []
  for (const rule of rules) {
    if (!rule.applies(file)) continue
    for (const i of imports) if (i.target !== null && rule.forbids(i.target)) out.push(`${file}:${i.line} imports '${i.spec}' (${i.target}, ${i.kind}): ${rule.name}`)
  }
  return out
}

/** Every `.ts` and `.vue` file under `src/`, as repository paths. */
function sourceFiles(): string[] {
  const files: string[] = []
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const p = `${dir}/${e.name}`
      if (e.isDirectory()) walk(p)
      else if (/\.(ts|vue)$/.test(e.name)) files.push(p)
    }
  }
  walk('src')
  return files.sort()
}

describe('layering', () => {
  const files = sourceFiles()
  const all = new Map(files.map((f) => [f, importsOf(f, readFileSync(join(ROOT, f), 'utf8'))]))

  it('no import breaks a layer', () => {
    const broken = files.flatMap((f) => violations(f, all.get(f)!))
    expect(broken).toEqual([])
  })

  it('the parser sees static, type, dynamic and .vue imports of the real tree', () => {
    expect(files.length).toBeGreaterThan(500)
    const has = (file: string, target: string, kind: Import['kind']) => all.get(file)?.some((i) => i.target === target && i.kind === kind)
    expect(has('src/main/convert/convert.ts', 'src/main/agents/read-back.ts', 'static')).toBe(true)
    expect(has('src/main/convert/convert.ts', 'src/main/agents/types.ts', 'type')).toBe(true)
    expect(has('src/cli/commands.ts', 'src/main/mcp/server.ts', 'dynamic')).toBe(true)
    const vue = files.filter((f) => f.endsWith('.vue'))
    expect(vue.length).toBeGreaterThan(10)
    expect(vue.some((f) => all.get(f)!.some((i) => i.target?.startsWith('src/shared/')))).toBe(true)
  })

  it('a writer importing convert/ statically or dynamically, and main importing a test builder, are named', () => {
    const writer = 'src/main/agents/gemini/write.ts'
    const text = [
      "import { FileTransaction } from '../../util/file-transaction'",
      "import { prepareForTarget } from '../../convert/prepare'",
      "import type { TargetVocabulary } from '../../convert/vocabulary'",
      "const vocab = async () => (await import('../../convert/vocab')).VOCABULARIES",
      "import { FAKE_SECRETS } from '../../../../tests/builders/secrets/fake-secrets'",
    ].join('\n')
    expect(violations(writer, importsOf(writer, text))).toEqual([
      `${writer}:2 imports '../../convert/prepare' (src/main/convert/prepare.ts, static): ${RULES[0]!.name}`,
      `${writer}:3 imports '../../convert/vocabulary' (src/main/convert/vocabulary.ts, type): ${RULES[0]!.name}`,
      `${writer}:4 imports '../../convert/vocab' (src/main/convert/vocab/index.ts, dynamic): ${RULES[0]!.name}`,
      `${writer}:5 imports '../../../../tests/builders/secrets/fake-secrets' (tests/builders/secrets/fake-secrets.ts, static): ${RULES[3]!.name}`,
    ])
    const test = 'src/main/agents/gemini/write.test.ts'
    expect(violations(test, importsOf(test, text))).toEqual([])
  })

  it("a component's type import of main is named", () => {
    const vue = 'src/renderer/src/components/X.vue'
    const text = "<template><p/></template>\n<script setup lang=\"ts\">\nimport type { Library } from '../../../main/library'\n</script>\n"
    expect(violations(vue, importsOf(vue, text))).toEqual([`${vue}:3 imports '../../../main/library' (src/main/library.ts, type): ${RULES[5]!.name}`])
  })
})
