/**
 * A tolerant parser for Python-literal-ish values (`{'a': True, 'b': None}`), which seed 002
 * ("Cursor" B, IDE chat) reports inside Cursor's serialized values. Accepts dicts, lists, tuples
 * (as arrays), single- or double-quoted strings with backslash escapes, numbers, and both the
 * Python (`True`/`False`/`None`) and JSON (`true`/`false`/`null`) constants.
 */

/** Parse `text` as a Python literal; undefined when it is not one (never throws). */
export function parsePythonLiteral(text: string): unknown {
  const p = new Parser(text)
  try {
    const v = p.value()
    p.space()
    return p.done() ? v : undefined
  } catch {
    return undefined
  }
}

const CONSTANTS: Record<string, unknown> = { True: true, False: false, None: null, true: true, false: false, null: null }
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0', '\\': '\\', "'": "'", '"': '"', '/': '/' }

class Parser {
  private i = 0
  constructor(private readonly s: string) {}

  done(): boolean {
    return this.i >= this.s.length
  }

  space(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++
  }

  private fail(): never {
    throw new Error(`unexpected input at ${this.i}`)
  }

  value(): unknown {
    this.space()
    const c = this.s[this.i]
    if (c === '{') return this.dict()
    if (c === '[' || c === '(') return this.list(c === '[' ? ']' : ')')
    if (c === "'" || c === '"') return this.string()
    const word = /^[A-Za-z]+/.exec(this.s.slice(this.i))?.[0]
    if (word !== undefined) {
      if (!(word in CONSTANTS)) this.fail()
      this.i += word.length
      return CONSTANTS[word]
    }
    const number = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(this.s.slice(this.i))?.[0]
    if (number === undefined) this.fail()
    this.i += number.length
    return Number(number)
  }

  private dict(): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    this.i++
    for (;;) {
      this.space()
      if (this.s[this.i] === '}') {
        this.i++
        return out
      }
      const key = this.value()
      this.space()
      if (this.s[this.i] !== ':') this.fail()
      this.i++
      out[String(key)] = this.value()
      this.space()
      if (this.s[this.i] === ',') this.i++
      else if (this.s[this.i] !== '}') this.fail()
    }
  }

  private list(close: string): unknown[] {
    const out: unknown[] = []
    this.i++
    for (;;) {
      this.space()
      if (this.s[this.i] === close) {
        this.i++
        return out
      }
      out.push(this.value())
      this.space()
      if (this.s[this.i] === ',') this.i++
      else if (this.s[this.i] !== close) this.fail()
    }
  }

  private string(): string {
    const quote = this.s[this.i]
    this.i++
    let out = ''
    while (this.i < this.s.length) {
      const c = this.s[this.i]!
      if (c === quote) {
        this.i++
        return out
      }
      if (c === '\\') {
        const e = this.s[this.i + 1]
        if (e === undefined) this.fail()
        if (e === 'x' || e === 'u') {
          const len = e === 'x' ? 2 : 4
          const hex = this.s.slice(this.i + 2, this.i + 2 + len)
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) this.fail()
          out += String.fromCharCode(parseInt(hex, 16))
          this.i += 2 + len
          continue
        }
        out += ESCAPES[e] ?? '\\' + e
        this.i += 2
        continue
      }
      out += c
      this.i++
    }
    return this.fail()
  }
}
