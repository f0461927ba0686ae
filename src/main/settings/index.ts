/**
 * The agent settings view of one home ({@link AgentSettingsView}): Cline's global folders in the
 * Documents folder, the shared `~/.agents`, each project's local files, the MCP servers, hooks,
 * standing permissions and the credential files.
 *
 * Where things are (seed 000):
 * - "Documents folder": `<Documents>/Cline/{Rules,Workflows,MCP,Hooks,Agents,Plugins}`, Documents
 *   resolved per OS by the platform module (MyDocuments, possibly under OneDrive, on Windows;
 *   `xdg-user-dir DOCUMENTS` on Linux, `~/Cline` on headless Linux; `~/Documents` on macOS).
 * - "Shared ~/.agents": `~/.agents/skills`, `~/.agents/plugins`, `~/.agents/AGENTS.md`.
 * - "Project-local files": `.clinerules` (a file, or a folder with rules and `workflows/`,
 *   `hooks/`, `skills/`), `.cline/{rules,skills,workflows,plugins}`, `.clineignore`, `AGENTS.md`,
 *   and the other agents' files Cline also reads (`.cursorrules`, `.windsurfrules`,
 *   `.cursor/rules`, `.claude/skills`, `.agents/skills`).
 * - MCP settings: `<clineDataDir>/settings/cline_mcp_settings.json` and the VS Code extension's
 *   `<globalStorage>/saoudrizwan.claude-dev/settings/cline_mcp_settings.json`.
 * Reads only. Credential files are flagged by name and never opened (`src/main/secrets`); every
 * text shown is masked by the same detectors as every API result.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { AgentId, Diagnostic } from '../../shared/ir'
import type { AgentSettingsView, SettingsDocument, SettingsScope } from '../../shared/settings'
import { mcpSettingsFiles, readPermissions, type StatePaths } from '../agents/cline/timeline/state-rows'
import type { HomeLayout } from '../platform'
import { hookView } from './hooks'
import { mcpServers } from './mcp'
import { findCredentialFiles, maskText } from '../secrets'

/** The agents whose settings this view shows (Cline and the forks sharing its layout). */
const CLINE_FAMILY = new Set<AgentId>(['cline', 'roo-code', 'kilo-code', 'pearai'])

/** Text files larger than this are shown cut (bytes). */
export const MAX_TEXT_BYTES = 256 * 1024

/** Options of {@link buildAgentSettings}. */
export interface AgentSettingsOptions {
  /** Project folders to look in (those that do not exist are skipped). */
  projects?: string[]
}

/** Build the view for one home. Never throws: unreadable files become diagnostics. */
export async function buildAgentSettings(layout: HomeLayout, options: AgentSettingsOptions = {}): Promise<AgentSettingsView> {
  const diagnostics: Diagnostic[] = []
  const credentials = (await findCredentialFiles(layout)).filter((c) => CLINE_FAMILY.has(c.agent))
  const reader = new TextReader(diagnostics)
  const docs = layout.documents
  const cline = docs.clineDir
  const home = layout.home
  const view: AgentSettingsView = {
    home,
    os: layout.os,
    documents: { dir: docs.dir, source: docs.source, clineDir: cline, exists: await isDir(cline), isHome: docs.isHome },
    projects: [],
    rules: [],
    workflows: [],
    skills: [],
    agents: [],
    plugins: [],
    ignoreFiles: [],
    mcpServers: [],
    hooks: [],
    permissions: [],
    credentialFiles: credentials,
    diagnostics,
  }
  const docOrigin = docs.isHome ? '~/Cline' : 'Documents/Cline'

  // Global: Documents/Cline.
  view.rules.push(...(await reader.files(join(cline, 'Rules'), 'global', `${docOrigin}/Rules`, { skipDirs: ['Hooks'] })))
  view.workflows.push(...(await reader.files(join(cline, 'Workflows'), 'global', `${docOrigin}/Workflows`)))
  view.agents.push(...(await reader.files(join(cline, 'Agents'), 'global', `${docOrigin}/Agents`)))
  view.plugins.push(...(await reader.folders(join(cline, 'Plugins'), 'global', `${docOrigin}/Plugins`, ['plugin.json', 'package.json', 'README.md'])))
  // The executable bit means nothing in a Windows layout (hooks there are .ps1 scripts).
  const hookFile = (f: RawFile): RawFile => (layout.os === 'win32' ? { ...f, executable: undefined } : f)
  for (const dir of [join(cline, 'Hooks'), join(cline, 'Rules', 'Hooks')]) {
    for (const f of await reader.raw(dir)) view.hooks.push(hookView(hookFile(f), 'global'))
  }

  // Shared ~/.agents.
  const agentsDir = join(home, '.agents')
  const agentsMd = await reader.file(join(agentsDir, 'AGENTS.md'), 'shared', '~/.agents/AGENTS.md')
  if (agentsMd) view.rules.push(agentsMd)
  view.skills.push(...(await reader.folders(join(agentsDir, 'skills'), 'shared', '~/.agents/skills', ['SKILL.md'])))
  view.plugins.push(...(await reader.folders(join(agentsDir, 'plugins'), 'shared', '~/.agents/plugins', ['plugin.json', 'package.json', 'README.md'])))

  // Projects.
  for (const project of [...new Set(options.projects ?? [])].sort()) {
    if (!(await isDir(project))) continue
    view.projects.push(project)
    const at = (...p: string[]) => join(project, ...p)
    const clinerules = at('.clinerules')
    if (await isDir(clinerules)) {
      view.rules.push(...(await reader.files(clinerules, 'project', '.clinerules', { project, skipDirs: ['workflows', 'hooks', 'skills'] })))
      view.workflows.push(...(await reader.files(at('.clinerules', 'workflows'), 'project', '.clinerules/workflows', { project })))
      view.skills.push(...(await reader.folders(at('.clinerules', 'skills'), 'project', '.clinerules/skills', ['SKILL.md'], project)))
      for (const f of await reader.raw(at('.clinerules', 'hooks'))) view.hooks.push(hookView(hookFile(f), 'project', project))
    } else {
      const one = await reader.file(clinerules, 'project', '.clinerules', project)
      if (one) view.rules.push(one)
    }
    view.rules.push(...(await reader.files(at('.cline', 'rules'), 'project', '.cline/rules', { project })))
    view.workflows.push(...(await reader.files(at('.cline', 'workflows'), 'project', '.cline/workflows', { project })))
    view.skills.push(...(await reader.folders(at('.cline', 'skills'), 'project', '.cline/skills', ['SKILL.md'], project)))
    view.plugins.push(...(await reader.folders(at('.cline', 'plugins'), 'project', '.cline/plugins', ['plugin.json', 'package.json', 'README.md'], project)))
    for (const name of ['AGENTS.md', '.cursorrules', '.windsurfrules']) {
      const f = await reader.file(at(name), 'project', name, project)
      if (f) view.rules.push(f)
    }
    view.rules.push(...(await reader.files(at('.cursor', 'rules'), 'project', '.cursor/rules', { project })))
    for (const dir of ['.claude/skills', '.agents/skills']) view.skills.push(...(await reader.folders(at(...dir.split('/')), 'project', dir, ['SKILL.md'], project)))
    const ignore = await reader.file(at('.clineignore'), 'project', '.clineignore', project)
    if (ignore) view.ignoreFiles.push(ignore)
  }

  // MCP servers and permissions.
  const extensionRoots = layout.globalStorageDirs.map((gs) => ({ root: join(gs, 'saoudrizwan.claude-dev'), extensionId: 'saoudrizwan.claude-dev' }))
  const paths: StatePaths = { home, dataDir: layout.clineDataDir, extensionRoots }
  for (const file of mcpSettingsFiles(paths)) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch {
      continue
    }
    try {
      view.mcpServers.push(...mcpServers(file, JSON.parse(text), 'global'))
    } catch (err) {
      diagnostics.push({ severity: 'warning', path: file, message: `The MCP settings file is not valid JSON (${(err as Error).message}); its servers are not listed.` })
    }
  }
  const permissions = await readPermissions(paths)
  view.permissions = permissions.entries.map((e) => ({ key: e.key, value: maskText(typeof e.value === 'string' ? e.value : JSON.stringify(e.value)).text, file: e.file }))
  for (const file of permissions.notObjects) diagnostics.push({ severity: 'warning', path: file, message: 'This settings file is not a JSON object; its settings are not shown.' })
  return view
}

interface RawFile {
  path: string
  name: string
  size: number
  text: string
  truncated: boolean
  executable?: boolean
}

/** Reads text files for the view: size-capped, masked, problems as diagnostics. */
class TextReader {
  constructor(private readonly diagnostics: Diagnostic[]) {}

  /** One file as raw text (undefined when absent or not a file). */
  async one(path: string): Promise<RawFile | undefined> {
    let st
    try {
      st = await stat(path)
    } catch {
      return undefined
    }
    if (!st.isFile()) return undefined
    try {
      const buf = await readFile(path)
      const truncated = buf.length > MAX_TEXT_BYTES
      const text = buf.subarray(0, MAX_TEXT_BYTES).toString('utf8')
      return { path, name: basename(path), size: st.size, text, truncated, executable: (st.mode & 0o111) !== 0 }
    } catch (err) {
      this.diagnostics.push({ severity: 'warning', path, message: `Could not read the file: ${(err as Error).message}` })
      return undefined
    }
  }

  /** Every file directly in `dir` (sorted), raw. */
  async raw(dir: string): Promise<RawFile[]> {
    const out: RawFile[] = []
    for (const n of await sortedNames(dir)) {
      if (n.startsWith('.')) continue
      const f = await this.one(join(dir, n))
      if (f) out.push(f)
    }
    return out
  }

  /** One file as a {@link SettingsDocument}. */
  async file(path: string, scope: SettingsScope, origin: string, project?: string): Promise<SettingsDocument | undefined> {
    const f = await this.one(path)
    return f ? this.doc(f, scope, origin, project) : undefined
  }

  /** The files under `dir`, recursively (sub-folders in `skipDirs` left out), as documents. */
  async files(dir: string, scope: SettingsScope, origin: string, opts: { project?: string; skipDirs?: string[] } = {}): Promise<SettingsDocument[]> {
    const out: SettingsDocument[] = []
    for (const n of await sortedNames(dir)) {
      if (n.startsWith('.')) continue
      const p = join(dir, n)
      if (await isDir(p)) {
        if (!opts.skipDirs?.includes(n)) out.push(...(await this.files(p, scope, `${origin}/${n}`, { ...(opts.project ? { project: opts.project } : {}) })))
        continue
      }
      const d = await this.file(p, scope, origin, opts.project)
      if (d) out.push(d)
    }
    return out
  }

  /** Each sub-folder of `dir` as a document holding its first manifest file found (or nothing). */
  async folders(dir: string, scope: SettingsScope, origin: string, manifests: string[], project?: string): Promise<SettingsDocument[]> {
    const out: SettingsDocument[] = []
    for (const n of await sortedNames(dir)) {
      const p = join(dir, n)
      if (!(await isDir(p))) continue
      let f: RawFile | undefined
      for (const m of manifests) if (!f) f = await this.one(join(p, m))
      const d: SettingsDocument = f
        ? { ...this.doc(f, scope, origin, project), name: n }
        : { path: p, name: n, scope, origin, content: '', size: 0, truncated: false }
      if (project && !f) d.project = project
      out.push(d)
    }
    return out
  }

  private doc(f: RawFile, scope: SettingsScope, origin: string, project?: string): SettingsDocument {
    const d: SettingsDocument = { path: f.path, name: f.name, scope, origin, content: maskText(f.text).text, size: f.size, truncated: f.truncated }
    if (project) d.project = project
    return d
  }
}

async function sortedNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort()
  } catch {
    return []
  }
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}
