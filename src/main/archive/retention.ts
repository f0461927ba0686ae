/**
 * Warnings before loss (issue 19): the agents' own retention settings, and which sessions they
 * will delete soon.
 *
 * - Claude Code: `cleanupPeriodDays` in `<claude config dir>/settings.json` — "Number of days to
 *   retain chat transcripts before automatic cleanup (default: 30). Minimum 1." (the settings schema
 *   inside `@anthropic-ai/claude-code@2.1.332` `bin/claude.exe`; code.claude.com/docs settings). The
 *   cleanup runs when Claude Code starts and judges a transcript by its file's mtime, so a session
 *   is due at `mtime + days`.
 * - Gemini CLI: `general.sessionRetention` in `~/.gemini/settings.json` — only when `enabled`;
 *   `maxAge` (`<n>h|d|w|m`, m = 30 days) against the session's `lastUpdated`, and `maxCount` (the
 *   newest N of a project's chats are kept); runs at startup, per project
 *   (google-gemini/gemini-cli `packages/cli/src/utils/sessionCleanup.ts`, cleanupExpiredSessions,
 *   identifySessionsToDelete, parseRetentionPeriod).
 * - Codex (openai/codex) and Cline delete no sessions on their own: no warning.
 */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { RetentionWarning } from '../../shared/archive'
import type { SessionSummary } from '../../shared/ir'
import type { HomeLayout } from '../platform'
import type { Archive } from './archive'

const DAY = 86_400_000
/** Claude Code's default `cleanupPeriodDays`. */
export const CLAUDE_DEFAULT_CLEANUP_DAYS = 30
/** The window the warnings look at, days. */
export const WARN_WITHIN_DAYS = 7

async function readJson(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    const v = JSON.parse(await readFile(path, 'utf8')) as unknown
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** Gemini's retention period (`30d`, `24h`, `2w`, `1m`) in ms, or undefined when not of that form. */
export function geminiPeriodMs(period: unknown): number | undefined {
  if (typeof period !== 'string') return undefined
  const m = /^(\d+)([dhwm])$/.exec(period)
  if (!m || Number(m[1]) === 0) return undefined
  const unit = { h: 3_600_000, d: DAY, w: 7 * DAY, m: 30 * DAY }[m[2] as 'h' | 'd' | 'w' | 'm']
  return Number(m[1]) * unit
}

/** One session and when the agent will delete it (ms since epoch). */
interface Due {
  session: SessionSummary
  at: number
}

async function warning(base: Omit<RetentionWarning, 'due' | 'archived' | 'sessionIds' | 'firstDueAt' | 'withinDays'>, due: Due[], archived: (s: SessionSummary) => Promise<boolean>, withinDays: number): Promise<RetentionWarning> {
  let n = 0
  for (const d of due) if (await archived(d.session)) n++
  const w: RetentionWarning = { ...base, withinDays, due: due.length, archived: n, sessionIds: due.slice(0, 50).map((d) => d.session.id) }
  if (due.length > 0) w.firstDueAt = Math.min(...due.map((d) => d.at))
  return w
}

/**
 * The retention warnings for one home: one per agent that has a retention rule and sessions due
 * within `withinDays` (default 7). `sessions` are the library's sessions of that home (archived ones
 * are skipped: they are already gone). `archive` tells whether each due session's current files
 * are copied. Never throws: an unreadable settings file means the agent's default.
 */
export async function retentionWarnings(layout: HomeLayout, sessions: readonly SessionSummary[], archive: Archive | undefined, now: number, withinDays = WARN_WITHIN_DAYS): Promise<RetentionWarning[]> {
  const live = sessions.filter((s) => s.home === layout.home && !s.archived && !s.parentSessionId)
  const until = now + withinDays * DAY
  const isArchived = async (s: SessionSummary): Promise<boolean> => {
    if (!archive) return false
    for (const f of s.files) {
      try {
        const st = await stat(f)
        if (!archive.isCurrent(s.home, s.agent, s.id, f, st.size, st.mtimeMs)) return false
      } catch {
        return false
      }
    }
    return s.files.length > 0
  }
  const out: RetentionWarning[] = []

  // Claude Code
  const claude = live.filter((s) => s.agent === 'claude-code')
  if (claude.length > 0) {
    const file = join(layout.claudeConfigDir, 'settings.json')
    const v = (await readJson(file))?.['cleanupPeriodDays']
    const set = typeof v === 'number' && Number.isInteger(v) && v >= 1
    const days = set ? v : CLAUDE_DEFAULT_CLEANUP_DAYS
    const due: Due[] = []
    for (const s of claude) {
      const f = s.files[0]
      if (!f) continue
      try {
        const at = (await stat(f)).mtimeMs + days * DAY
        if (at <= until) due.push({ session: s, at })
      } catch {
        // gone since the last refresh
      }
    }
    if (due.length > 0) out.push(await warning({ agent: 'claude-code', agentName: 'Claude Code', setting: 'cleanupPeriodDays', settingsFile: file, days, defaulted: !set }, due, isArchived, withinDays))
  }

  // Gemini CLI
  const gemini = live.filter((s) => s.agent === 'gemini')
  if (gemini.length > 0) {
    const file = join(layout.home, '.gemini', 'settings.json')
    const general = (await readJson(file))?.['general'] as Record<string, unknown> | undefined
    const r = general?.['sessionRetention'] as Record<string, unknown> | undefined
    if (r && r['enabled'] === true) {
      const maxAge = geminiPeriodMs(r['maxAge'])
      const maxCount = typeof r['maxCount'] === 'number' && r['maxCount'] >= 1 ? r['maxCount'] : undefined
      const due = new Map<string, Due>()
      if (maxAge !== undefined) {
        for (const s of gemini) {
          const last = s.lastActivityAt ?? s.createdAt
          if (last !== undefined && last + maxAge <= until) due.set(s.id, { session: s, at: Math.max(now, last + maxAge) })
        }
      }
      if (maxCount !== undefined) {
        const byProject = new Map<string, SessionSummary[]>()
        for (const s of gemini) byProject.set(s.workingDirectory ?? '', [...(byProject.get(s.workingDirectory ?? '') ?? []), s])
        for (const list of byProject.values()) {
          list.sort((a, b) => (b.lastActivityAt ?? 0) - (a.lastActivityAt ?? 0))
          for (const s of list.slice(maxCount)) if (!due.has(s.id)) due.set(s.id, { session: s, at: now })
        }
      }
      if (due.size > 0) {
        const days = maxAge !== undefined ? maxAge / DAY : 0
        out.push(await warning({ agent: 'gemini', agentName: 'Gemini CLI', setting: 'general.sessionRetention', settingsFile: file, days, defaulted: false }, [...due.values()], isArchived, withinDays))
      }
    }
  }
  return out
}
