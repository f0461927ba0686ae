/**
 * Cline's team store `teams.db`: `team_events(id, team_name, ts, event_type, payload_json,
 * causation_id, correlation_id)` (seed 000 "sessions.db and teams.db", cline/cline
 * sdk/packages/core/src/services/storage/sqlite-team-store.ts:210-330, appendTeamEvent). The seed
 * names `teams/teams.db`; the real CLI 3.0.65 wrote `db/teams.db` (fixtures/real/cline): both are
 * read. Event types seen in the SDK's tests: agent_event, run_progress {message}, task_end
 * {agentId, result, messages}, team_message.
 *
 * Each event is one system row `team event: <event_type> team=<team_name> …` at its ts, with the
 * team's session (the lead session whose manifest or sessions.db row names that team) as its
 * session, so the events are shown with their team session.
 */
import type { AgentId } from '../../../../shared/ir'
import { isRecord, tryParseJson } from '../../../util/json'
import { openSqliteReadOnly } from '../../../util/sqlite'
import { str } from '../common'
import { isoToMs } from '../sdk-store'
import { makeSecondaryRow, pairs, type SecondaryRow } from '../timeline/rows'

/** The source name team rows carry (`recovered.source`). */
export const TEAMS_SOURCE = 'teams.db'

/** A team's session: id and project. */
export interface TeamSession {
  sessionId: string
  projectPath: string
}

/**
 * Rows of every `team_events` row. `teamSession(team)` names the session of a team. Throws when
 * the file is not a SQLite database; a database without `team_events` gives no rows.
 */
export function teamEventRows(path: string, agent: AgentId, teamSession: (team: string) => TeamSession | undefined): SecondaryRow[] {
  const handle = openSqliteReadOnly(path)
  try {
    const has = handle.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'team_events'").get()
    if (!has) return []
    const rows = handle.db.prepare('SELECT id, team_name, ts, event_type, payload_json, correlation_id FROM team_events ORDER BY id').all() as Record<string, unknown>[]
    return rows.map((r) => {
      const team = String(r.team_name ?? '')
      const payload = typeof r.payload_json === 'string' ? tryParseJson(r.payload_json) : undefined
      const p = isRecord(payload) ? payload : {}
      const result = isRecord(p.result) ? p.result : undefined
      const said = str(p.message) ?? str(p.text) ?? str(p.summary) ?? str(result?.text)
      const session = teamSession(team)
      const text = [
        `team event: ${String(r.event_type ?? '')}`,
        pairs([['team', team], ['agent', p.agentId], ['task', p.taskId], ['correlation', r.correlation_id]]),
        said ?? '',
      ].filter(Boolean).join(' ')
      return makeSecondaryRow({
        agent,
        sessionId: session?.sessionId ?? '',
        projectPath: session?.projectPath ?? '',
        turnType: 'system',
        timestampUtc: isoToMs(r.ts),
        text,
        sourceFile: path,
        sourceLine: Number(r.id),
        recovered: { source: TEAMS_SOURCE },
      })
    })
  } finally {
    handle.close()
  }
}
