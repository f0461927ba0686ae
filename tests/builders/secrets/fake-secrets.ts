/**
 * Known fake secrets, one per detector, for tests: every value has the real format (prefix,
 * alphabet, length) and is not a working credential. Tests seed them into fixture homes and assert
 * none of them leaves main unmasked. A test builder (it was `src/main/secrets/fake-secrets.ts`): only
 * tests import it, the app never does (`tests/layering.test.ts`).
 */

/** A fake secret, the text it is written in, and the label its mask must carry. */
export interface FakeSecret {
  kind: string
  /** The secret itself: this exact string must never appear in a masked output. */
  secret: string
  /** How it appears in a transcript. */
  inText: string
  /** The label in its mask. */
  label: string
}

const b = (s: string, n: number) => s.repeat(Math.ceil(n / s.length)).slice(0, n)

/** One fake secret per supported format. */
export const FAKE_SECRETS: FakeSecret[] = [
  { kind: 'anthropic', secret: `sk-ant-api03-${b('Fak3K3yN0tR3alAbcXyz', 93)}AA`, inText: 'export ANTHROPIC_API_KEY=%s', label: 'Anthropic API key' },
  { kind: 'openai', secret: `sk-proj-${b('F4keOpenA1keyT3BlbkFJ0n1y', 120)}`, inText: 'client = OpenAI(api_key="%s")', label: 'OpenAI API key' },
  { kind: 'google', secret: `AIza${b('SyF4keG00gleKey_0nlyForTests', 35)}`, inText: 'GEMINI key %s in config', label: 'Google API key' },
  { kind: 'github', secret: `ghp_${b('F4keGitHubT0kenAbc123', 36)}`, inText: 'git clone https://github.com/acme/app with token %s', label: 'GitHub token' },
  { kind: 'github-pat', secret: `github_pat_11${b('FAKEPAT0123456789_abcXYZ', 80)}`, inText: 'GH_TOKEN=%s', label: 'GitHub token' },
  { kind: 'slack', secret: `xoxb-1234567890-0987654321-${b('F4keSlackT0ken', 24)}`, inText: 'slack bot token: %s', label: 'Slack token' },
  { kind: 'aws-access-key', secret: 'AKIAFAKE0NLY4TESTS12', inText: 'aws configure set aws_access_key_id %s', label: 'AWS access key id' },
  { kind: 'aws-secret', secret: `Fak3Secr3t/Key+${b('0nlyForTestsAbcXyz9', 25)}`, inText: 'aws_secret_access_key = %s', label: 'AWS secret key' },
  { kind: 'stripe', secret: `sk_live_${b('51F4keStr1peKeyXyz', 40)}`, inText: 'stripe.api_key = "%s"', label: 'Stripe secret key' },
  { kind: 'bearer', secret: `f4ke-0paque.${b('Bearer70kenValue', 40)}`, inText: 'curl -H "Authorization: Bearer %s" https://api.example.test', label: 'bearer token' },
  {
    kind: 'private-key',
    secret: `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${b('F4kePrivateKeyMaterial0123', 120)}`,
    inText: '-----BEGIN PRIVATE KEY-----\n%s\n-----END PRIVATE KEY-----',
    label: 'private key',
  },
  {
    kind: 'jwt',
    secret: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlLXVzZXIifQ.${b('F4keS1gnatureAbc', 43)}`,
    inText: 'session cookie %s',
    label: 'JSON web token',
  },
  { kind: 'assignment', secret: 'hunter2-F4ke-Passw0rd!', inText: 'DB_PASSWORD="%s"', label: 'secret' },
]

/** `inText` with the secret in place. */
export function secretText(s: FakeSecret): string {
  return s.inText.replace('%s', s.secret)
}

/** All fake secrets in one text, one per line. */
export function allSecretsText(): string {
  return FAKE_SECRETS.map(secretText).join('\n')
}
