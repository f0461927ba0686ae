/**
 * The Cline-family timeline: every row seed 000's "Parser plan" yields for one home, read straight
 * from the stores (not from the IR, which merges UI records into turns).
 *
 * Primary rows: legacy task folders (legacy-rows.ts) and SDK sessions (sdk-rows.ts). Cline only:
 * state rows (state-rows.ts), the secondary sources (hook audit log, CLI prompt history, search
 * index) after the duplicate rule (secondary/dedup.ts), and team events with their team session.
 * Files are streamed or read one at a time; rows are built for the filtered sessions only.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Diagnostic } from '../../../../shared/ir'
import type { TimelineFilter, TimelineRow } from '../../../../shared/timeline'
import type { HomeLayout } from '../../../platform'
import { isRecord, tryParseJson } from '../../../util/json'
import type { StoreRef } from '../../types'
import { str } from '../common'
import { discoverPrimary, legacyRoots, readTaskHistory, type ClineFamilyConfig, type LegacyHints } from '../discover'
import { SDK_SUBAGENT_FORMAT } from '../discover-sdk'
import { parseMessagesText, type SdkHints } from '../sdk-store'
import { dropDuplicates } from '../secondary/dedup'
import { secondaryPaths } from '../secondary/discover'
import { hookLogRows } from '../secondary/hooks-log'
import { inputHistoryRows } from '../secondary/input-history'
import { openSearchIndex, type SearchIndexOptions } from '../secondary/search-index'
import { searchIndexRows } from '../secondary/search-rows'
import { teamEventRows, type TeamSession } from '../secondary/teams'
import { legacyTaskRows, orphanHistoryRow } from './legacy-rows'
import { homeLabel, makeRow, publicRow, type SecondaryRow } from './rows'
import { sdkSessionRows } from './sdk-rows'
import { stateRows } from './state-rows'
import { readRegularFile } from '../../../util/regular-file'

/** Options of {@link clineFamilyTimeline}. */
export interface ClineTimelineOptions {
  /** Test hook for the search index (pretend the SQLite build lacks FTS5). */
  searchIndex?: SearchIndexOptions
}

/** Rows of one home, plus what could not be read. */
export interface HomeTimeline {
  rows: TimelineRow[]
  diagnostics: Diagnostic[]
}

/**
 * Build the rows of one family member under one home, filtered by session and project
 * (`filter.agent` is the caller's business). Never throws: unreadable files give `parser:` rows.
 */
export async function clineFamilyTimeline(
  layout: HomeLayout,
  config: ClineFamilyConfig,
  filter: TimelineFilter = {},
  options: ClineTimelineOptions = {},
): Promise<HomeTimeline> {
  const agent = config.id
  const { refs, diagnostics } = await discoverPrimary(layout, config)
  const wantSession = (id: string) => !filter.sessionId || id === filter.sessionId
  const primary: TimelineRow[] = []
  const transcripts = new Map<string, unknown[]>()
  const projects = new Map<string, string>()
  const teams = new Map<string, TeamSession>()

  for (const ref of refs) {
    if (!wantSession(ref.sessionId)) continue
    const kind = (ref.hints as { kind?: string } | undefined)?.kind
    if (kind === 'legacy') primary.push(...(await legacyTaskRows(agent, ref.sessionId, ref.hints as unknown as LegacyHints)))
    else if (kind === 'sdk') primary.push(...(await sdkRows(ref, transcripts, projects, teams)))
  }

  const rows: TimelineRow[] = [...primary]
  for (const root of await legacyRoots(layout, config)) {
    const file = join(root.root, 'state', 'taskHistory.json')
    const history = await readTaskHistory(agent, file, diagnostics)
    const listed = new Set(refs.map((r) => r.sessionId))
    for (const [id, item] of history ?? []) {
      if (!listed.has(id) && wantSession(id)) rows.push(orphanHistoryRow(agent, item, file))
      if (!projects.has(id) && typeof item.cwdOnTaskInitialization === 'string') projects.set(id, item.cwdOnTaskInitialization)
    }
  }

  if (config.readsSdkStore) {
    const paths = secondaryPaths(layout.clineDataDir)
    const secondary: SecondaryRow[] = []
    const hooks = await tryFile(paths.hooks, async () => {
      for await (const r of hookLogRows(paths.hooks, agent)) if (wantSession(r.sessionId) || (!filter.sessionId && !r.sessionId)) secondary.push(r)
    })
    if (hooks) rows.push(parserRow(agent, paths.hooks, hooks))
    if (!filter.sessionId && !filter.project) {
      const err = await tryFile(paths.inputHistory, async () => void secondary.push(...(await inputHistoryRows(paths.inputHistory, agent))))
      if (err) rows.push(parserRow(agent, paths.inputHistory, err))
    }
    const searchErr = await tryFile(paths.search, async () => {
      const index = openSearchIndex(paths.search, options.searchIndex)
      try {
        const ids = filter.sessionId ? new Set([filter.sessionId]) : undefined
        secondary.push(...searchIndexRows(index, { agent, ...(ids ? { sessionIds: ids } : {}), projectOf: (id) => projects.get(id) }))
      } finally {
        index.close()
      }
    })
    if (searchErr) rows.push(parserRow(agent, paths.search, searchErr))
    rows.push(...dropDuplicates({ primary, secondary, transcripts }))
    for (const teamsDb of paths.teams) {
      const err = await tryFile(teamsDb, async () => void rows.push(...teamEventRows(teamsDb, agent, (t) => teams.get(t))))
      if (err) rows.push(parserRow(agent, teamsDb, err))
    }
    const extensionRoots = (await legacyRoots(layout, config)).filter((r) => r.extensionId).map((r) => ({ root: r.root, extensionId: r.extensionId! }))
    rows.push(...(await stateRows(agent, { home: layout.home, dataDir: layout.clineDataDir, extensionRoots }, projects)))
  }

  const project = filter.project ? normalPath(filter.project) : undefined
  const out = rows
    .filter((r) => (!filter.sessionId || r.sessionId === filter.sessionId) && (!project || normalPath(r.projectPath) === project))
    .map(publicRow)
  // A `parser:` row names its file the way the seed's rows do: relative to the home.
  for (const r of out) if (r.text.startsWith('parser:') && r.sourceFile) r.text = r.text.split(r.sourceFile).join(homeLabel(r.sourceFile, layout.home))
  return { rows: out, diagnostics }
}

/** Rows of one SDK session; records its transcript, project and team for the secondary rows. */
async function sdkRows(ref: StoreRef, transcripts: Map<string, unknown[]>, projects: Map<string, string>, teams: Map<string, TeamSession>): Promise<TimelineRow[]> {
  const hints = ref.hints as unknown as SdkHints
  const rows: TimelineRow[] = []
  let manifest: Record<string, unknown> | undefined
  if (hints.manifest) {
    const text = await readRegularFile(hints.manifest).catch(() => undefined)
    const v = text === undefined ? undefined : tryParseJson(text)
    if (isRecord(v)) manifest = v
    else rows.push(makeRow({ agent: ref.agent, sessionId: ref.sessionId, turnType: 'system', text: `parser: ${hints.manifest} is not a JSON object`, sourceFile: hints.manifest }))
  }
  let messages: unknown[] = []
  if (hints.messages) {
    const text = await readRegularFile(hints.messages).catch(() => undefined)
    if (text === undefined) rows.push(makeRow({ agent: ref.agent, sessionId: ref.sessionId, turnType: 'system', text: `parser: could not read ${hints.messages}`, sourceFile: hints.messages }))
    else {
      const parsed = parseMessagesText(text)
      messages = parsed.messages
      if (parsed.problem) {
        rows.push(makeRow({ agent: ref.agent, sessionId: ref.sessionId, turnType: 'system', text: `parser: ${hints.messages}: ${parsed.problem.message}`, sourceFile: hints.messages, ...(parsed.problem.line ? { sourceLine: parsed.problem.line } : {}) }))
      }
    }
  }
  const row = hints.row
  const projectPath = str(manifest?.cwd) ?? str(manifest?.workspace_root) ?? str(row?.cwd) ?? str(row?.workspace_root) ?? ''
  transcripts.set(ref.sessionId, messages)
  if (projectPath) projects.set(ref.sessionId, projectPath)
  const lead = ref.format !== SDK_SUBAGENT_FORMAT && !hints.subagentFile
  const team = str(manifest?.team_name) ?? str(row?.team_name)
  if (team && lead && !teams.has(team)) teams.set(team, { sessionId: ref.sessionId, projectPath })
  const all = sdkSessionRows({
    agent: ref.agent,
    sessionId: ref.sessionId,
    projectPath,
    messages,
    lead,
    ...(manifest ? { manifest } : {}),
    ...(hints.manifest ? { manifestFile: hints.manifest } : {}),
    ...(row ? { row } : {}),
    ...(hints.db ? { dbFile: hints.db } : {}),
    ...(hints.messages ? { messagesFile: hints.messages } : {}),
  })
  return [...all.slice(0, headCount(all)), ...rows, ...all.slice(headCount(all))]
}

/** Number of leading rows without a source line (the start, model and sync rows). */
function headCount(rows: TimelineRow[]): number {
  let i = 0
  while (i < rows.length && rows[i]!.sourceLine === undefined) i++
  return i
}

/** Run `fn` when `path` exists; the error message when it fails, undefined otherwise. */
async function tryFile(path: string, fn: () => Promise<void>): Promise<string | undefined> {
  try {
    await stat(path)
  } catch {
    return undefined
  }
  try {
    await fn()
    return undefined
  } catch (err) {
    return (err as Error).message
  }
}

function parserRow(agent: TimelineRow['agent'], file: string, message: string): TimelineRow {
  return makeRow({ agent, turnType: 'system', text: `parser: could not read ${file} (${message})`, sourceFile: file })
}

function normalPath(p: string): string {
  return p.replace(/[\\/]+$/, '')
}
