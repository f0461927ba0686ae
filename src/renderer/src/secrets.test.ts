import { describe, expect, it } from 'vitest'
import { stripAnsi } from '../../shared/ansi'
import { firstLine } from './format'
import { maskSecrets, resultPreview } from './secrets'

describe('maskSecrets', () => {
  it('masks provider keys, keeping a recognisable prefix', () => {
    const key = 'sk-ant-api03-' + 'A'.repeat(40)
    const out = maskSecrets(`export ANTHROPIC_API_KEY=${key} && run`)
    expect(out).not.toContain(key)
    expect(out).toMatch(/ANTHROPIC_API_KEY=sk-ant-a••••••\[hidden\] && run/)
    expect(maskSecrets('id AKIAABCDEFGHIJKLMNOP here')).toBe('id AKIAA••••••[hidden] here')
    expect(maskSecrets('token ghp_' + 'x'.repeat(36))).not.toContain('x'.repeat(36))
  })

  it('masks bearer tokens and private key blocks', () => {
    expect(maskSecrets('Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345')).toBe('Authorization: Bearer abcdefgh••••••[hidden]')
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----'
    expect(maskSecrets(pem)).toBe('-----BEGIN RSA PRIVATE KEY-----\n••••••[hidden]\n-----END RSA PRIVATE KEY-----')
  })

  it('leaves ordinary text alone', () => {
    const text = 'The task-id is a3f2b5aeb6dc75f4e and sk-short is fine; skip-this-word-please-now too.'
    expect(maskSecrets(text)).toBe(text)
  })
})

describe('resultPreview', () => {
  const slow = (t: string, max: number): string => firstLine(maskSecrets(stripAnsi(t)), max)
  it('is the first line of the masked result, without masking the whole result', () => {
    const key = 'sk-ant-api03-' + 'A'.repeat(40)
    const long = 'x\n'.repeat(5000)
    expect(resultPreview(`  \n ${key} ok\r\n${long}`, 200)).toBe(slow(`  \n ${key} ok\r\n${long}`, 200))
    expect(resultPreview(`  \n ${key} ok\r\n${long}`, 200)).not.toContain(key)
    expect(resultPreview('a'.repeat(10_000), 200)).toBe('a'.repeat(199) + '…')
  })

  it('gives what the whole-text path gives, over random results (tokens, escapes, CR LF, long lines, PEM)', () => {
    let seed = 7
    const r = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    const pieces = [
      'word ',
      ' ',
      '\n',
      '\r\n',
      '\t',
      'sk-ant-api03-' + 'B'.repeat(30),
      'sk-' + 'c'.repeat(300),
      'AKIAABCDEFGHIJKLMNOP',
      'xoxb-1234567890',
      'Bearer ',
      'abcdefghijklmnopqrstuvwxyz0123456789',
      '\x1b[31m',
      '\x1b]0;title\n\x07',
      '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----',
      'y'.repeat(900),
      'ghp_' + 'z'.repeat(40),
    ]
    for (let n = 0; n < 400; n++) {
      let t = ''
      const parts = 2 + Math.floor(r() * 40)
      for (let i = 0; i < parts; i++) t += pieces[Math.floor(r() * pieces.length)]!
      if (r() < 0.7) t += '\nfiller line\n'.repeat(400)
      for (const max of [40, 200]) expect(resultPreview(t, max), JSON.stringify(t.slice(0, 300))).toBe(slow(t, max))
    }
  })
})
