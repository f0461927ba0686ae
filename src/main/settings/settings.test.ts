/**
 * The agent settings view on the seed000 home and project: Documents/Cline, ~/.agents, the
 * project's .clinerules/.cline files, MCP servers, hooks with their trigger and the
 * "sends session data out" flag, permissions, and credential files flagged without their values.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO } from '../../../tests/builders/cline/test-helpers'
import { layoutForHome } from '../platform'
import { buildAgentSettings } from './index'
import { hookTrigger, scanHookScript } from './hooks'

const HOME = join(REPO, 'fixtures/seed000/home')
const PROJ = join(REPO, 'fixtures/seed000/proj')
const made: string[] = []
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** Fake values in the fixture's credential files: none may appear in the view. */
const FAKE_VALUES = [
  'sk-ant-FAKE-seed000-secretsjson-0001',
  'sk-ant-FAKE-seed000-providers-0002',
  'whk-FAKE-seed000-token-0003',
  'FAKEseed000SECRETACCESSKEY0004',
  'AKFAKEseed000ACCESS',
  'ghp_FAKEseed000mcpenv0005',
  'FAKEseed000header0006',
]

describe('agent settings view (seed000)', () => {
  it('lists rules, workflows, agents, plugins and skills with their content, global, shared and per project', async () => {
    const view = await buildAgentSettings(await layoutForHome({ home: HOME }), { projects: [PROJ, '/no/such/project'] })
    expect(view.documents).toEqual({ dir: join(HOME, 'Documents'), source: 'default', clineDir: join(HOME, 'Documents/Cline'), exists: true, isHome: false })
    expect(view.projects).toEqual([PROJ])
    const brief = (list: { origin: string; name: string; scope: string }[]) => list.map((d) => [d.scope, d.origin, d.name])
    expect(brief(view.rules)).toEqual([
      ['global', 'Documents/Cline/Rules', 'python.md'],
      ['shared', '~/.agents/AGENTS.md', 'AGENTS.md'],
      ['project', '.clinerules', 'coding.md'],
      ['project', '.cline/rules', 'testing.md'],
      ['project', 'AGENTS.md', 'AGENTS.md'],
      ['project', '.cursorrules', '.cursorrules'],
    ])
    expect(view.rules[0]!.content).toBe('# Python\n\n- Use type hints.\n- Run `pytest -q` before finishing.\n')
    expect(brief(view.workflows)).toEqual([
      ['global', 'Documents/Cline/Workflows', 'release.md'],
      ['project', '.clinerules/workflows', 'ship.md'],
      ['project', '.cline/workflows', 'deploy.md'],
    ])
    expect(brief(view.agents)).toEqual([['global', 'Documents/Cline/Agents', 'reviewer.md']])
    expect(brief(view.plugins)).toEqual([['global', 'Documents/Cline/Plugins', 'notes'], ['shared', '~/.agents/plugins', 'lint']])
    expect(brief(view.skills)).toEqual([['shared', '~/.agents/skills', 'pdf'], ['project', '.clinerules/skills', 'changelog']])
    expect(view.skills[1]!.content).toContain('Add an entry under Unreleased.')
    expect(view.ignoreFiles.map((f) => [f.name, f.content])).toEqual([['.clineignore', 'node_modules/\n.env\nsecrets/\n']])
    expect(view.rules.filter((r) => r.scope === 'project').every((r) => r.project === PROJ)).toBe(true)
  })

  it('lists MCP servers with their auto-approved tools and env/header names only', async () => {
    const view = await buildAgentSettings(await layoutForHome({ home: HOME }))
    expect(view.mcpServers.map((m) => ({ name: m.name, transport: m.transport, disabled: m.disabled, autoApprove: m.autoApprove, envKeys: m.envKeys, headerKeys: m.headerKeys, holdsSecrets: m.holdsSecrets }))).toEqual([
      { name: 'github', transport: 'stdio', disabled: false, autoApprove: ['list_issues'], envKeys: ['GITHUB_PERSONAL_ACCESS_TOKEN'], headerKeys: [], holdsSecrets: true },
      { name: 'tracker', transport: 'streamableHttp', disabled: true, autoApprove: [], envKeys: [], headerKeys: ['Authorization'], holdsSecrets: true },
      { name: 'filesystem', transport: 'stdio', disabled: false, autoApprove: ['read_file', 'list_directory'], envKeys: [], headerKeys: [], holdsSecrets: false },
    ])
    expect(view.mcpServers[0]).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] })
    expect(view.mcpServers[1]!.url).toBe('https://mcp.tracker.example/mcp')
  })

  it('lists hooks with their trigger and flags the ones that send session data out', async () => {
    const view = await buildAgentSettings(await layoutForHome({ home: HOME }), { projects: [PROJ] })
    expect(view.hooks.map((h) => [h.scope, h.name, h.trigger, h.sendsDataOut, h.remoteHosts])).toEqual([
      ['global', 'PostToolUse', 'PostToolUse', false, []],
      ['global', 'TaskStart', 'TaskStart', true, []],
      ['project', 'PreToolUse', 'PreToolUse', false, []],
      ['project', 'TaskComplete', 'TaskComplete', true, ['dashboard.acme.example']],
    ])
    const webhook = view.hooks[1]!
    expect(webhook.sendsDataOutReasons).toEqual(['calls fetch()', 'reads webhook_config.json (the LG CNS webhook) and posts the task\'s data to its URL'])
    expect(webhook.triggerDescription).toBe('when a new task starts')
    expect(view.hooks[3]!.sendsDataOutReasons).toEqual(['runs curl'])
  })

  it('lists the standing permissions', async () => {
    const view = await buildAgentSettings(await layoutForHome({ home: HOME }))
    expect(view.permissions.map((p) => `${p.key}=${p.value}`)).toEqual([
      'autoApprovalSettings.enabled=true',
      'autoApprovalSettings.maxRequests=20',
      'autoApprovalSettings.actions.readFiles=true',
      'autoApprovalSettings.actions.editFiles=true',
      'autoApprovalSettings.actions.executeSafeCommands=false',
      'autoApprovalSettings.actions.executeAllCommands=true',
      'autoApprovalSettings.actions.useBrowser=true',
      'autoApprovalSettings.actions.useMcp=true',
      'mode=act',
      'toolAutoApprove=false',
      'planActMode=plan',
      'disabledTools=browser_action',
      'tools.web_fetch.enabled=false',
      'mcpServers.github.autoApprove=list_issues',
      'mcpServers.github.disabled=false',
      'mcpServers.tracker.disabled=true',
      'mcpServers.filesystem.autoApprove=read_file',
      'mcpServers.filesystem.autoApprove=list_directory',
      'mcpServers.filesystem.disabled=false',
    ])
  })

  it('flags the credential files and never shows a value they hold', async () => {
    const view = await buildAgentSettings(await layoutForHome({ home: HOME }), { projects: [PROJ] })
    const rel = (p: string) => p.slice(HOME.length + 1)
    expect(view.credentialFiles.map((c) => [rel(c.path), c.agent, c.kind])).toEqual([
      ['.cline/data/secrets.json', 'cline', 'api-keys'],
      ['.cline/data/settings/cline_mcp_settings.json', 'cline', 'mcp-settings'],
      ['.cline/data/settings/providers.json', 'cline', 'provider-settings'],
      ['.config/Code/User/globalStorage/saoudrizwan.claude-dev/cache/remote_config_org_42.json', 'cline', 'remote-config'],
      ['.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json', 'cline', 'mcp-settings'],
      ['Documents/Cline/webhook_config.json', 'cline', 'webhook-token'],
    ])
    const text = JSON.stringify(view)
    for (const v of FAKE_VALUES) expect(text).not.toContain(v)
  })

  it('masks a secret written into a rule or a hook script', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-settings-'))
    made.push(home)
    cpSync(HOME, home, { recursive: true })
    const key = `sk-ant-api03-${'F4keK3yN0tR3al'.repeat(7)}AA`
    writeFileSync(join(home, 'Documents/Cline/Rules/keys.md'), `Use ANTHROPIC_API_KEY=${key} for the tests.\n`)
    writeFileSync(join(home, 'Documents/Cline/Hooks/UserPromptSubmit'), `#!/bin/sh\ncurl -H "Authorization: Bearer ${key}" https://audit.acme.example/p\n`)
    const view = await buildAgentSettings(await layoutForHome({ home }))
    expect(JSON.stringify(view)).not.toContain(key)
    expect(view.rules.find((r) => r.name === 'keys.md')!.content).toMatch(/sk-a•••• \(Anthropic API key\)/)
    expect(view.hooks.find((h) => h.name === 'UserPromptSubmit')).toMatchObject({ trigger: 'UserPromptSubmit', sendsDataOut: true, remoteHosts: ['audit.acme.example'] })
  })

  it('finds Cline\'s folder at ~/Cline on headless Linux (no Documents in user-dirs.dirs)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-headless-'))
    made.push(home)
    mkdirSync(join(home, '.config'), { recursive: true })
    writeFileSync(join(home, '.config/user-dirs.dirs'), 'XDG_DOWNLOAD_DIR="$HOME/Downloads"\n')
    mkdirSync(join(home, 'Cline/Rules'), { recursive: true })
    writeFileSync(join(home, 'Cline/Rules/headless.md'), 'rule\n')
    const view = await buildAgentSettings(await layoutForHome({ home, os: 'linux' }))
    expect(view.documents).toMatchObject({ clineDir: join(home, 'Cline'), isHome: true, exists: true })
    expect(view.rules.map((r) => [r.origin, r.name])).toEqual([['~/Cline/Rules', 'headless.md']])
  })
})

describe('hook scripts', () => {
  it('knows the triggers, with or without a .ps1 extension', () => {
    expect(['TaskStart', 'PostToolUse.ps1', 'pretooluse', 'notes.txt'].map(hookTrigger)).toEqual(['TaskStart', 'PostToolUse', 'PreToolUse', 'unknown'])
  })

  it('does not flag a call to this machine only', () => {
    expect(scanHookScript('curl -X POST http://127.0.0.1:3043/hook -d @-')).toEqual({ sendsDataOut: false, reasons: ['runs curl', 'only to this machine (loopback address)'], hosts: [] })
    expect(scanHookScript('Invoke-RestMethod -Method Post -Uri $config.webhook_url').sendsDataOut).toBe(true)
    expect(scanHookScript('echo "$input" >> log.jsonl').sendsDataOut).toBe(false)
  })
})
