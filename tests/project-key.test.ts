import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectKey } from '../src/shared/project-key'

describe('projectKey', () => {
  it('treats Windows drive-letter case, slashes and a trailing separator as one folder', () => {
    expect(projectKey('c:\\Users\\shahh\\app')).toBe(projectKey('C:\\Users\\shahh\\app\\'))
    expect(projectKey('C:/Users/shahh/app')).toBe(projectKey('c:\\users\\SHAHH\\app'))
    expect(projectKey('/home/ana/App')).not.toBe(projectKey('/home/ana/app'))
    expect(projectKey('/home/ana/app/')).toBe('/home/ana/app')
    expect(projectKey(undefined)).toBe('')
  })

  it('keys the real Windows Codex home by folder, not by spelling', () => {
    // Independent reading: the cwd each rollout's session_meta records, keyed case-insensitively.
    const root = join(__dirname, '../fixtures/public-real/codex/vscode-windows-041/home/.codex/sessions')
    const cwds: string[] = []
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name))
        else if (e.name.endsWith('.jsonl')) {
          const meta = JSON.parse(readFileSync(join(d, e.name), 'utf8').split('\n')[0]!)
          cwds.push(meta.payload.cwd)
        }
      }
    }
    walk(root)
    const spellings = new Set(cwds)
    const folders = new Set(cwds.map((c) => c.toLowerCase()))
    expect(spellings.size).toBeGreaterThan(folders.size) // the home does hold two spellings
    expect(new Set(cwds.map(projectKey)).size).toBe(folders.size)
  })
})
