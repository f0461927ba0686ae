/**
 * Write a prepared session (src/main/convert/prepare.ts) as a new Codex CLI thread that
 * `codex resume <id>` (and `codex exec resume <id> "<prompt>"`) continues.
 *
 * Where and what (realstores/README.md "Codex CLI 0.171.0"; fixtures/real/codex; codex-rs
 * `core/src/rollout/recorder.rs`):
 * - the rollout `<codex home>/sessions/YYYY/MM/DD/rollout-<local time YYYY-MM-DDTHH-MM-SS>-<thread
 *   id>.jsonl` (`<codex home>` = `$CODEX_HOME`, else `~/.codex`: the layout's `codexHome`); Codex
 *   finds it by id anywhere under `sessions/`, but only under a `rollout-*.jsonl` name;
 * - the thread id is a UUIDv7 (`01a22b43-64f5-7001-a0f5-...`): the 48-bit ms time of the
 *   thread's start, version 7, then the random bits of `options.newId()` ({@link codexThreadId});
 * - the lines are described in `write-rollout.ts`; the thread is an interactive one (`source:
 *   "cli"`, `originator: "codex_cli_rs"`): Codex 0.171's picker leaves out other sources (`exec`)
 *   unless run with `--include-non-interactive` (its index `idx_threads_interactive_*`: source in
 *   `cli`, `vscode`, ...); `session_meta.model_provider` is written only when the home's
 *   `config.toml` names one: Codex refuses to resume a thread under another provider ("Cannot
 *   change this thread's model provider from `openai` to `mock` on resume", the resume matrix with
 *   the provider given as `-c` overrides), and without the field it resumes under the current one
 *   (realstores probe "without model_provider: resumed"). The `threads` row needs a provider: the
 *   configured one, else `openai` (Codex's default; it rewrites the row on resume).
 *
 * The thread index (`<codex home>/state_5.sqlite`, table `threads`), checked with the real CLI
 * 0.171.0 (hand-written rollouts resumed in the terminal UI and its picker):
 * - when the database is missing Codex builds it on its next start and indexes every rollout under
 *   `sessions/` ("backfill"): a home without it listed all its sessions. Sepia then writes no
 *   database: one made by Sepia would lack Codex's migration records (`_sqlx_migrations`, 64
 *   migrations) and the backfill state, and Codex would not index the other rollouts;
 * - when it exists (Codex has run and finished its backfill) a new rollout without a `threads` row
 *   is resumed by id but is NOT listed by `codex resume`; with a row it is. So a row is added the
 *   way the backfill writes one (`source`, `preview`/`first_user_message` = the first prompt,
 *   `history_mode: "legacy"`, the default `sandbox_policy`/`approval_mode`, `model` that of the
 *   rollout's first `turn_context`), after a backup copy of the database (`addRowWithBackup`).
 *
 * Codex has no field for where a thread was imported from; the origin is not recorded. Times are
 * the source's: the thread's start (id, file name, `session_meta.timestamp`, the row's
 * `created_at`) is the source session's start, the row's `updated_at` its last activity (the
 * conversion's time only when the source has none), so the thread lists when the work was done, as
 * a Gemini conversion does; its model is the source's (`turn_context`, `write-rollout.ts`). Usage is written only for a Codex source: input counts another
 * agent measured with its own prompt would size Codex's context (auto-compaction) wrongly, and
 * Codex keeps no per-message cost.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SepiaError } from '../../../shared/api'
import { type ConvertWarning, quoteArg } from '../../../shared/convert'
import type { Session } from '../../../shared/ir'
import { FileTransaction } from '../../util/file-transaction'
import { addRowWithBackup } from '../../util/sqlite-row'
import type { WriteOptions, WriteResult } from '../types'
import { codexHomeOf } from './discover'
import { type RolloutHead, type RolloutStats, rolloutLines } from './write-rollout'

/** The Codex version whose store shapes this writer follows (the realstores kit's pin). */
export const CODEX_CLI_VERSION = '0.171.0'

/** Codex 0.171's default sandbox policy and approval mode, as its backfill records them for a rollout without turn context. */
const DEFAULT_SANDBOX_POLICY = '{"type":"managed","file_system":{"type":"restricted","entries":[{"path":{"type":"special","value":{"kind":"root"}},"access":"read"}]},"network":"restricted"}'

/** A UUIDv7 thread id: `ms` as 48 bits, version 7, the variant and random bits of the v4 `uuid`. */
export function codexThreadId(ms: number, uuid: string): string {
  const r = uuid.replace(/-/g, '').toLowerCase()
  if (!/^[0-9a-f]{32}$/.test(r)) throw new Error(`not a UUID: ${uuid}`)
  const t = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12)
  const variant = ((parseInt(r[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${r.slice(13, 16)}-${variant}${r.slice(17, 20)}-${r.slice(20, 32)}`
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0')

/** `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDTHH-MM-SS-<id>.jsonl` in local time (codex-rs `recorder.rs`). */
export function rolloutRelativePath(ms: number, id: string): string {
  const d = new Date(ms)
  const [y, mo, da] = [pad(d.getFullYear(), 4), pad(d.getMonth() + 1), pad(d.getDate())]
  const time = `${y}-${mo}-${da}T${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`
  return join('sessions', y, mo, da, `rollout-${time}-${id}.jsonl`)
}

/** The home's `model_provider` (a top-level key of `<codex home>/config.toml`), or undefined. */
export function configuredModelProvider(codexHome: string): string | undefined {
  try {
    for (const raw of readFileSync(join(codexHome, 'config.toml'), 'utf8').split(/\r?\n/)) {
      const line = raw.trim()
      if (line.startsWith('[')) break
      const m = /^model_provider\s*=\s*["']([^"']+)["']/.exec(line)
      if (m) return m[1]!
    }
  } catch {
    // no config
  }
  return undefined
}

/** Warnings about what a Codex rollout cannot hold (see the module comment). */
function warningsFor(session: Session, keepUsage: boolean, stats: RolloutStats | undefined): ConvertWarning[] {
  const nodes = session.nodes
  const hasInput = (n: Session['nodes'][number]) => n.usage?.inputTokens !== undefined || n.usage?.cacheReadTokens !== undefined || n.usage?.cacheWriteTokens !== undefined
  const otherUsage = (n: Session['nodes'][number]) => n.usage?.cost !== undefined || (!keepUsage && (n.usage?.outputTokens !== undefined || n.usage?.thinkingTokens !== undefined))
  const out: ConvertWarning[] = [
    { kind: 'input-usage-dropped', count: keepUsage ? 0 : nodes.filter(hasInput).length },
    { kind: 'usage-not-representable', count: nodes.filter(otherUsage).length },
  ]
  const images = stats?.droppedAssistantImages ?? nodes.filter((n) => n.role === 'assistant').reduce((k, n) => k + (n.blocks?.filter((b) => b.type === 'image').length ?? 0), 0)
  if (images > 0) out.push({ kind: 'block-dropped', count: images, blockType: 'image' })
  return out
}

/** What {@link codexThreadRow} needs. */
export interface ThreadRowInput {
  id: string
  /** Absolute path of the rollout. */
  rolloutPath: string
  /** ms since epoch: the thread's start (the row's created time). */
  createdAt: number
  /** ms since epoch: the thread's last activity (updated and recency times); `createdAt` when absent. */
  updatedAt?: number
  /** The thread's model (its first `turn_context`), or null. */
  model?: string
  modelProvider: string
  cwd: string
  title: string
  /** The first user prompt (`preview`, `first_user_message`). */
  preview: string
  tokensUsed: number
  git?: { sha?: string; branch?: string }
}

/**
 * A `threads` row of `state_5.sqlite` the way Codex 0.171's backfill writes one for a rollout
 * without turn context (see the module comment): `source: "cli"`, `history_mode: "legacy"`, the
 * default sandbox policy and approval mode, `model` from the rollout's `turn_context` (null without one).
 */
export function codexThreadRow(t: ThreadRowInput): Record<string, unknown> {
  const sec = Math.floor(t.createdAt / 1000)
  const updated = Math.max(t.createdAt, t.updatedAt ?? t.createdAt)
  const updatedSec = Math.floor(updated / 1000)
  return {
    id: t.id,
    rollout_path: t.rolloutPath,
    created_at: sec,
    updated_at: updatedSec,
    created_at_ms: t.createdAt,
    updated_at_ms: updated,
    recency_at: updatedSec,
    recency_at_ms: updated,
    source: 'cli',
    model_provider: t.modelProvider,
    model: t.model ?? null,
    cwd: t.cwd,
    title: t.title,
    sandbox_policy: DEFAULT_SANDBOX_POLICY,
    approval_mode: 'on-request',
    tokens_used: t.tokensUsed,
    has_user_event: 0,
    archived: 0,
    git_sha: t.git?.sha ?? null,
    git_branch: t.git?.branch ?? null,
    cli_version: CODEX_CLI_VERSION,
    first_user_message: t.preview,
    preview: t.preview,
    memory_mode: 'enabled',
    history_mode: 'legacy',
    originator: 'codex_cli_rs',
  }
}

/**
 * Write `session` as a new Codex thread under `options.layout` (see the module comment). With
 * `dryRun` nothing is written. Rejects `WRITE_FAILED` when anything fails; the rollout is removed
 * and the thread database is unchanged.
 */
export async function writeCodexSession(session: Session, options: WriteOptions): Promise<WriteResult> {
  const codexHome = codexHomeOf(options.layout)
  const now = options.now()
  // The thread starts when the source session did (see the module comment).
  const started = session.createdAt ?? session.nodes.find((n) => n.createdAt !== undefined)?.createdAt ?? now
  const lastActivity = session.lastActivityAt ?? session.nodes.reduce<number | undefined>((t, n) => (n.createdAt !== undefined ? Math.max(t ?? 0, n.createdAt) : t), undefined) ?? started
  let id = codexThreadId(started, options.newId())
  for (let k = 0; k < 5 && existsSync(join(codexHome, rolloutRelativePath(started, id))); k++) id = codexThreadId(started, options.newId())
  const rollout = join(codexHome, rolloutRelativePath(started, id))
  const dbPath = join(codexHome, 'state_5.sqlite')
  const indexed = existsSync(dbPath)
  const cwd = session.workingDirectory ?? options.layout.home
  const output = { sessionId: id, files: indexed ? [rollout, dbPath] : [rollout], resumeCommand: `codex resume ${quoteArg(id, options.layout.os)}`, cwd, backups: [] as string[] }
  const keepUsage = options.sourceRef.agent === 'codex'
  if (options.dryRun) return { output, warnings: warningsFor(session, keepUsage, undefined) }

  const modelProvider = configuredModelProvider(codexHome)
  const head: RolloutHead = { id, createdAt: started, cwd, originator: 'codex_cli_rs', cliVersion: CODEX_CLI_VERSION, source: 'cli', keepUsage }
  if (modelProvider !== undefined) head.modelProvider = modelProvider
  const stats: RolloutStats = { tokensUsed: 0, droppedAssistantImages: 0 }
  const tx = new FileTransaction(options.fault)
  try {
    await tx.stage(rollout, rolloutLines(session, head, stats))
    await tx.commit()
    if (indexed) {
      const row = codexThreadRow({ id, rolloutPath: rollout, createdAt: started, updatedAt: lastActivity, ...(stats.model !== undefined ? { model: stats.model } : {}), modelProvider: modelProvider ?? 'openai', cwd, title: session.title ?? stats.firstUserText ?? '', preview: stats.firstUserText ?? '', tokensUsed: stats.tokensUsed, ...(session.git ? { git: session.git } : {}) })
      const added = await addRowWithBackup({ dbPath, schema: [], table: 'threads', row, now, ...(options.fault ? { fault: options.fault } : {}) })
      if (added.backup) output.backups.push(added.backup)
    }
  } catch (e) {
    await tx.rollback()
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the Codex session: ${(e as Error).message}. Nothing was left behind.`, path: rollout })
  }
  return { output, warnings: warningsFor(session, keepUsage, stats) }
}
