import { describe, expect, it } from 'vitest'
import { maskSecrets } from './secrets'

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
