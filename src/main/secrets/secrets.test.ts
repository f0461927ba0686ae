/** Detectors and masking: every documented format is masked, hashes and ids are not. */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Session } from '../../shared/ir'
import { summarize } from '../ir/build'
import { FAKE_SECRETS, secretText } from '../../../tests/builders/secrets/fake-secrets'
import { findSecrets, isSecretName, maskResult, maskSession, maskText, maskValue } from '.'
import { mayHaveAssignment } from './detectors'

describe('maskText', () => {
  for (const s of FAKE_SECRETS) {
    it(`masks a ${s.kind} secret with its label`, () => {
      const { text, count } = maskText(secretText(s))
      expect(text).not.toContain(s.secret)
      expect(text).toContain(`•••• (${s.label})`)
      expect(count).toBeGreaterThanOrEqual(1)
    })
  }

  it('keeps at most 4 characters of a secret (its public prefix)', () => {
    const key = FAKE_SECRETS.find((s) => s.kind === 'anthropic')!.secret
    expect(maskText(`key ${key} end`).text).toBe('key sk-a•••• (Anthropic API key) end')
    expect(maskText('aws_access_key_id AKIAFAKE0NLY4TESTS12').text).toBe('aws_access_key_id AKIA•••• (AWS access key id)')
    expect(maskText('DB_PASSWORD="hunter2-F4ke-Passw0rd!"').text).toBe('DB_PASSWORD="•••• (secret)"')
    expect(maskText('Authorization: Bearer abc123def456ghi789jkl').text).toBe('Authorization: Bearer •••• (bearer token)')
  })

  it('is idempotent: a masked text is left as it is', () => {
    for (const s of FAKE_SECRETS) {
      const once = maskText(secretText(s)).text
      expect(maskText(once)).toEqual({ text: once, count: 0 })
    }
  })

  it('masks a PEM block whole, and a cut one from its header on', () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1\nabcDEF+/==\n-----END RSA PRIVATE KEY-----'
    expect(maskText(`before\n${pem}\nafter`).text).toBe('before\n•••• (private key)\nafter')
    expect(maskText('key: -----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEA\\nAAAA').text).toBe('key: •••• (private key)')
  })

  it('pairs an AWS secret key written after its access key id', () => {
    const text = 'AccessKeyId: AKIAFAKE0NLY4TESTS12\nSecret: Fak3Secr3tKey0nlyForTestsAbcXyz9Abc12345'
    const found = findSecrets(text).map((m) => m.kind)
    expect(found).toEqual(['aws-access-key', 'aws-secret'])
  })

  it('finds several secrets in one text, counted once each', () => {
    const text = FAKE_SECRETS.map(secretText).join('\n')
    const { text: masked, count } = maskText(text)
    expect(count).toBeGreaterThanOrEqual(FAKE_SECRETS.length)
    for (const s of FAKE_SECRETS) expect(masked).not.toContain(s.secret)
  })

  it('leaves hashes, uuids, ids, numbers and code alone (low false positives)', () => {
    const clean = [
      'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
      'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'session c79310a4-1627-4beb-8788-81d2e0fc6af8 toolu_01A09q90qw90lq917835lq9 call_abc123XYZ',
      'msg_01XFDUDYJgAACzvnptvVoYEL req_011CSHoEeqs5C35K2UUqR7Fy',
      'pip install sk-learn-compatible-estimators',
      '{"max_tokens": 4096, "input_tokens": 1200, "tokenizer": "cl100k_base"}',
      'def login(password: str, token = get_token()): pass',
      'const apiKey = process.env.OPENAI_API_KEY',
      'api_key = "${OPENAI_API_KEY}" and password: <your password>',
      'We use Bearer authentication with OAuth tokens.',
      'AKIA is the prefix of AWS keys; ghp_ is GitHub\'s.',
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'thinking signature EqQBCkgIARABGAIiQKz0sd0c8c2Rk2Vy',
      'git remote add origin https://github.com/acme/app.git',
      'postgres://localhost:5432/app',
    ]
    for (const t of clean) expect(maskText(t), t).toEqual({ text: t, count: 0 })
  })

  it('masks passwords in URLs and labelled assignments in code and JSON', () => {
    expect(maskText('DATABASE_URL=postgres://app:s3cr3t-pw@db.internal:5432/app').text).toBe('DATABASE_URL=postgres://app:•••• (password in a URL)@db.internal:5432/app')
    expect(maskText('{"apiKey": "abcd1234efgh"}').text).toBe('{"apiKey": "•••• (secret)"}')
    expect(maskText("OPENAI_API_KEY: 'zz99-local-key'").text).toBe("OPENAI_API_KEY: '•••• (secret)'")
    expect(maskText('export GITHUB_TOKEN=abc123def').text).toBe('export GITHUB_TOKEN=•••• (secret)')
  })

  it('masks assignments inside JSON-escaped and CSV-quoted text', () => {
    const inJson = JSON.stringify({ command: 'DB_PASSWORD="hunter2-F4ke-Passw0rd!" npm start', env: JSON.stringify({ API_TOKEN: 'zz-9-plain-token' }) })
    const masked = maskText(inJson).text
    expect(masked).not.toContain('hunter2')
    expect(masked).not.toContain('zz-9-plain-token')
    expect(JSON.parse(masked)).toEqual({ command: 'DB_PASSWORD="•••• (secret)" npm start', env: JSON.stringify({ API_TOKEN: '•••• (secret)' }) })
    expect(maskText('"row 1","DB_PASSWORD=""hunter2-F4ke-Passw0rd!"" npm start"').text).toBe('"row 1","DB_PASSWORD=""•••• (secret)"" npm start"')
    expect(maskText('{\\"aws_secret_access_key\\": \\"Fak3Secr3t/Key+0nlyForTestsAbcXyz90nlyFo\\"}').text).toBe('{\\"aws_secret_access_key\\": \\"•••• (AWS secret key)\\"}')
  })
})

describe('isSecretName', () => {
  it('recognises secret-holding names in any case style', () => {
    for (const n of ['apiKey', 'OPENAI_API_KEY', 'x-api-key', 'clientSecret', 'webhook_token', 'password', 'Authorization', 'blobEncryptionKey', 'awsSecretKey']) expect(isSecretName(n), n).toBe(true)
    for (const n of ['max_tokens', 'tokenizer', 'inputTokens', 'keyword', 'author', 'password_hash', 'tokenSource', 'secretsCount']) expect(isSecretName(n), n).toBe(false)
  })
})

function session(over: Partial<Session> = {}): Session {
  const aws = FAKE_SECRETS.find((s) => s.kind === 'aws-access-key')!.secret
  const gh = FAKE_SECRETS.find((s) => s.kind === 'github')!.secret
  const anth = FAKE_SECRETS.find((s) => s.kind === 'anthropic')!.secret
  return {
    irVersion: 1,
    id: 's1',
    agent: 'claude-code',
    title: `deploy with ${gh}`,
    checkpoints: [],
    nodes: [
      { nodeId: 'n1', role: 'user', content: `my key is ${anth}`, blocks: [{ type: 'text', text: `my key is ${anth}` }, { type: 'image', mediaType: 'image/png', data: 'AKIAFAKE0NLY4TESTS12AAAA' }] },
      {
        nodeId: 'n2',
        role: 'assistant',
        content: '',
        thinking: `the user pasted ${aws}`,
        thinkingSignature: 'sig-AKIAFAKE0NLY4TESTS12',
        toolCalls: [{ id: 'c1', name: 'Bash', kind: 'execute', arguments: { command: `curl -H "Authorization: Bearer ${gh}"`, env: { API_TOKEN: 'plain-value-1' } }, diffs: [{ path: '/p/.env', newText: `KEY=${anth}` }] }],
      },
      { nodeId: 'n3', role: 'tool', toolCallId: 'c1', content: `echo ${aws}` },
    ],
    promptHistory: [`token ${gh}`],
    source: { format: 'claude-code-jsonl', files: ['/home/ana/.claude/projects/p/s1.jsonl'] },
    diagnostics: [],
    metadata: { settings: { apiKey: 'zz-plain-secret' }, deep: [[[{ note: `x ${aws}` }]]] },
    ...over,
  }
}

describe('maskSession', () => {
  it('masks every string the renderer sees, keeps ids, paths, image data and signatures', () => {
    const raw = session()
    const masked = maskSession(raw)
    const json = JSON.stringify(masked)
    for (const s of FAKE_SECRETS.filter((f) => ['anthropic', 'github'].includes(f.kind))) expect(json).not.toContain(s.secret)
    expect(json).not.toContain('zz-plain-secret')
    expect(json).not.toContain('plain-value-1')
    expect(masked.title).toBe('deploy with ghp_•••• (GitHub token)')
    expect(masked.nodes[1]!.thinking).toBe('the user pasted AKIA•••• (AWS access key id)')
    expect(masked.nodes[2]!.content).toBe('echo AKIA•••• (AWS access key id)')
    expect((masked.nodes[1]!.toolCalls![0]!.arguments as { env: { API_TOKEN: string } }).env.API_TOKEN).toBe('•••• (secret)')
    expect(masked.nodes[1]!.toolCalls![0]!.diffs![0]).toEqual({ path: '/p/.env', newText: 'KEY=sk-a•••• (Anthropic API key)' })
    expect(masked.nodes[0]!.blocks![1]).toEqual({ type: 'image', mediaType: 'image/png', data: 'AKIAFAKE0NLY4TESTS12AAAA' })
    expect(masked.nodes[1]!.thinkingSignature).toBe('sig-AKIAFAKE0NLY4TESTS12')
    expect(masked.source.files).toEqual(['/home/ana/.claude/projects/p/s1.jsonl'])
    expect(masked.maskedSecrets).toBe(11)
    // The session read from disk is untouched.
    expect(raw.nodes[0]!.content).toContain('sk-ant-')
    expect(raw.maskedSecrets).toBeUndefined()
  })

  it('is cached per session and stable when applied twice', () => {
    const raw = session()
    const once = maskSession(raw)
    expect(maskSession(raw)).toBe(once)
    expect(maskSession(once)).toBe(once)
    expect(maskResult(once)).toBe(once)
  })

  it('sets no count on a session without secrets', () => {
    const clean = maskSession(session({ title: 'hello', nodes: [{ nodeId: 'a', role: 'user', content: 'hi' }], promptHistory: [], metadata: {} }))
    expect(clean.maskedSecrets).toBeUndefined()
  })

  it('survives very deep nesting without overflowing the stack', () => {
    let deep: unknown = 'AKIAFAKE0NLY4TESTS12'
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const { value, count } = maskValue({ deep })
    expect(count).toBe(1)
    let v = (value as { deep: unknown }).deep
    while (Array.isArray(v)) v = v[0]
    expect(v).toBe('AKIA•••• (AWS access key id)')
  })
})

describe('summaries', () => {
  it('mask the first prompt before cutting it at 500 characters (no partial key at the cut)', () => {
    const key = FAKE_SECRETS.find((f) => f.kind === 'anthropic')!.secret
    const prompt = `${'x'.repeat(480)} ${key} and more words after it`
    const s = session({ nodes: [{ nodeId: 'a', role: 'user', content: prompt }] })
    const fp = summarize(s, '/home/ana').firstPrompt!
    expect(fp.length).toBeLessThanOrEqual(500)
    expect(fp).not.toContain('sk-ant-api03')
    expect(fp).toBe(`${'x'.repeat(480)} sk-a•••• (Anthropic API key) and more words after it`.slice(0, 500))
  })
})

describe('findCredentialFiles', () => {
  it('lists the credential files of the real fixture homes by name, without opening them', async () => {
    const { findCredentialFiles } = await import('./credentials')
    const { layoutForHome } = await import('../platform')
    const { findAppRoot } = await import('../context')
    const real = (n: string) => `${findAppRoot()}/fixtures/real/${n}/home`
    const list = async (n: string) => (await findCredentialFiles(await layoutForHome({ home: real(n) }))).map((c) => ({ ...c, path: c.path.slice(real(n).length) }))
    expect(await list('cline')).toEqual([
      { path: '/.cline/data/db/connectors.db', agent: 'cline', kind: 'connector' },
      { path: '/.cline/data/settings/providers.json', agent: 'cline', kind: 'provider-settings' },
    ])
    expect(await list('cline-legacy')).toEqual([
      { path: '/.cline/data/secrets.json', agent: 'cline', kind: 'api-keys' },
      { path: '/.cline/data/settings/cline_mcp_settings.json', agent: 'cline', kind: 'mcp-settings' },
    ])
    expect(await list('opencode')).toEqual([{ path: '/.config/opencode/opencode.json', agent: 'opencode', kind: 'provider-settings' }])
    expect(await list('kilo')).toEqual([{ path: '/.config/kilo/kilo.json', agent: 'kilo-code', kind: 'provider-settings' }])
    expect(await list('claude-code')).toEqual([])
  })
})

describe('issue 16: secrets that slipped through', () => {
  it('masks URL passwords with an empty user, an @ inside, or 2 characters', async () => {
    const { maskText } = await import('./mask')
    for (const [text, secret] of [
      ['cache at redis://:s3cretpw@cache.internal:6379/0', 's3cretpw'],
      ['DATABASE_URL=mysql://root:p@ss@db.local/app', 'p@ss'],
      ['postgres://app:x9@10.0.0.2/app', 'x9'],
    ] as const) {
      const out = maskText(text).text
      expect(out, text).not.toContain(secret)
      expect(out).toContain('••••')
    }
    expect(maskText('see https://example.com/a@b and ssh://git@github.com:org/repo').count).toBe(0)
  })

  it('masks a store\'s data under keys named like ids; keeps Sepia\'s own ids', async () => {
    const { maskValue } = await import('./mask')
    const key = 'AKIA' + 'Z7QW3RTY5UIOP2XC'
    const v = { id: 'node-1', toolCalls: [{ id: 'call-1', arguments: { id: `aws ${key}`, path: `/x?k=${key}`, status: `ok ${key}`, nested: { ref: key } } }], metadata: { kind: `t ${key}` } }
    const out = JSON.stringify(maskValue(v).value)
    expect(out).not.toContain(key.slice(4))
    expect(maskValue(v).value).toMatchObject({ id: 'node-1', toolCalls: [{ id: 'call-1' }] })
  })

  it('cuts labels and titles outside a secret, so none of it shows once masked', async () => {
    const { cutOutsideSecrets, maskText } = await import('./mask')
    const key = 'AKIA' + 'Z7QW3RTY5UIOP2XC'
    const text = `Use the deploy key from the vault, it is ${key} for the deploy`
    for (const max of [30, 45, 50, 55, 60]) {
      const shown = maskText(cutOutsideSecrets(text, max)).text
      expect(shown, String(max)).not.toMatch(/Z7QW|QW3R|3RTY|5UIO/)
    }
  })
})

describe('hint gates (issue 15: the assignment pattern ran on every message)', () => {
  /** Every text file of the fixtures (JSON string values one by one, and each line as written). */
  function fixtureTexts(): string[] {
    const out = new Set<string>()
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name)
        if (e.isDirectory()) walk(p)
        else if (e.isFile() && /\.(jsonl?|md|txt|ya?ml|toml|log|csv)$/i.test(e.name) && statSync(p).size <= 4e6) {
          const text = readFileSync(p, 'utf8')
          for (const line of text.split('\n')) {
            if (line.length >= 8) out.add(line)
            try {
              const stack: unknown[] = [JSON.parse(line)]
              while (stack.length > 0) {
                const v = stack.pop()
                if (typeof v === 'string') {
                  if (v.length >= 8) out.add(v)
                } else if (v && typeof v === 'object') stack.push(...Object.values(v))
              }
            } catch {
              // not a JSON line: kept as written
            }
          }
        }
      }
    }
    walk(join(__dirname, '..', '..', '..', 'fixtures'))
    return [...out]
  }

  /** Texts built to sit next to the gate's edges: every separator, quote and space form. */
  function edgeTexts(): string[] {
    const words = ['api_key', 'API-KEY', 'apiKey', 'secret', 'client_secret', 'TOKEN', 'x-auth-token', 'password', 'PASSWD', 'db_pwd', 'passphrase', 'private.key', 'accessKey', 'credentials', 'Credential', 'encryption_key', 'Authorization', 'cookie', 'tokens', 'keyboard']
    const quotes = ['', '"', "'", '\\"', '\\\\\\"', '""', '\\\'']
    const gaps = ['', ' ', '\t', '  \t ']
    const out: string[] = []
    for (const w of words) for (const q of quotes) for (const g of gaps) for (const sep of [':', '=']) out.push(`x ${w}${q}${g}${sep}${g}${q}Zq9-value-8812${q} y`, `${w}${q}${sep}${q}abc123def456`)
    // A seeded fuzz over the characters the patterns care about.
    let seed = 42
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
    const alphabet = ['key', 'token', 'secret', 'pwd', ':', '=', ' ', '\t', '"', "'", '\\', 'a', 'Z', '9', '-', '_', '.', 'sk-', 'ghp_', 'Bearer ', '://', '@', 'AKIA', '•']
    for (let i = 0; i < 3000; i++) {
      let s = ''
      const n = 4 + Math.floor(rnd() * 40)
      for (let j = 0; j < n; j++) s += alphabet[Math.floor(rnd() * alphabet.length)]!
      out.push(s)
    }
    return out
  }

  it('finds exactly what the ungated detectors find, over every fixture text and the edge cases', () => {
    const texts = [...fixtureTexts(), ...edgeTexts(), ...FAKE_SECRETS.map(secretText)]
    expect(texts.length).toBeGreaterThan(10_000)
    let withSecrets = 0
    for (const t of texts) {
      const ungated = findSecrets(t, { ungated: true })
      if (ungated.length > 0) withSecrets++
      expect(findSecrets(t), t.slice(0, 200)).toEqual(ungated)
    }
    // The comparison covers texts that hold secrets, not only clean ones.
    expect(withSecrets).toBeGreaterThan(100)
  })

  it('lets the assignment pattern through for every form it matches', () => {
    for (const t of edgeTexts().slice(0, 1120)) {
      const found = findSecrets(t, { ungated: true }).some((m) => m.kind === 'assignment')
      if (found) expect(mayHaveAssignment(t), t).toBe(true)
    }
    expect(mayHaveAssignment('no separator here at all, token and key')).toBe(false)
    expect(mayHaveAssignment('tokens: 12, keyboard = qwerty')).toBe(false)
    expect(mayHaveAssignment('{\\"apiKey\\":  \\"abcd1234\\"}')).toBe(true)
  })

  it('answers as the check without its last-letter table did, over every fixture text, the edge cases and look-alike letters', () => {
    // The check before the table of last letters (issue 15, session 10): every `:`/`=` tried with the regex.
    const before = (text: string): boolean => {
      for (let i = 0; i < text.length; i++) {
        if (text[i] !== ':' && text[i] !== '=') continue
        let k = i
        while (k > 0 && (text[k - 1] === ' ' || text[k - 1] === '\t')) k--
        while (k > 0 && (text[k - 1] === '\\' || text[k - 1] === '"' || text[k - 1] === "'")) k--
        if (k >= 3 && /(?:key|secret|token|passw(?:or)?d|pwd|passphrase|credentials?|authorization|cookie)$/i.test(text.slice(Math.max(0, k - 13), k))) return true
      }
      return false
    }
    const words = ['KEY', 'Secret', 'TOKEN', 'PassWord', 'PASSWD', 'pwD', 'passPHRASE', 'CREDENTIAL', 'Credentials', 'AUTHORIZATION', 'Cookie', 'ke\u212a', 'secre\u0163', 'credential\u017f', 'cooki\u0130', 'tokeN', 'keys', 'tokens']
    let seed = 7
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
    const alphabet = [...words, ':', '=', ' ', '\t', '"', "'", '\\', 'a', 'Y', 'é', '9', '_', '\u212a']
    const fuzz: string[] = []
    for (let i = 0; i < 5000; i++) {
      let t = ''
      for (let j = 4 + Math.floor(rnd() * 30); j > 0; j--) t += alphabet[Math.floor(rnd() * alphabet.length)]!
      fuzz.push(t)
    }
    let yes = 0
    for (const t of [...fixtureTexts(), ...edgeTexts(), ...fuzz]) {
      const want = before(t)
      if (want) yes++
      expect(mayHaveAssignment(t), t.slice(0, 200)).toBe(want)
    }
    expect(yes).toBeGreaterThan(1000)
  })
})
