/**
 * A light per-agent census of record types: re-reads a session's files line by line and counts
 * each record's type, with the agent version that wrote it and the first file and line of each
 * type. How an agent's records are keyed, and which keys its reader models, is data on its
 * definition (`AgentDefinition.census`, `<agent>/census.ts`). Streaming (memory grows with the
 * number of types, not the file size); a line that is not JSON is not counted (the reader already
 * reported it).
 */
import { readFile, stat } from 'node:fs/promises'
import type { AgentDefinition } from '../agents/types'
import { forEachLine } from '../util/lines'

/** Counts of one census key. */
export interface CensusEntry {
  count: number
  /** Counts by agent version ('' when the record names none). */
  versions: Map<string, number>
  first: { path: string; line?: number }
}

/** Census of one agent: key → entry. */
export type Census = Map<string, CensusEntry>

/**
 * Census key of a JSONL line (or part of one) that holds no readable record: cut short, damaged
 * (`RecordCensus.lineRecords`). Counted as a record, and as skipped, never as a record type.
 */
export const UNREADABLE = '\u0000unreadable'

/** Whole-file JSON sessions larger than this are not re-read for the census (bytes). */
const MAX_JSON_BYTES = 256 << 20

const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined

/** True when this agent has a census. */
export function hasCensus(agent: AgentDefinition): boolean {
  return agent.census !== undefined
}

/** True when `key` is a type the agent's reader models (always true for an agent without a census). */
export function isKnownType(agent: AgentDefinition, key: string): boolean {
  return agent.census?.known.has(key) ?? true
}

function add(c: Census, key: string, version: string, path: string, line: number | undefined): void {
  let e = c.get(key)
  if (!e) {
    e = { count: 0, versions: new Map(), first: line === undefined ? { path } : { path, line } }
    c.set(key, e)
  }
  e.count++
  e.versions.set(version, (e.versions.get(version) ?? 0) + 1)
}

/**
 * Count the records of `files` (one session's files) into `census`: `.jsonl` files line by line
 * through `census.keyOf`, other files through `census.keysOfJson` when the agent has it. Files
 * that cannot be read add nothing.
 */
export async function censusOf(agent: AgentDefinition, files: string[], census: Census): Promise<void> {
  const rules = agent.census
  if (!rules) return
  for (const path of files) {
    const state = { version: '' }
    if (!path.endsWith('.jsonl')) {
      if (!rules.keysOfJson) continue
      try {
        if ((await stat(path)).size > MAX_JSON_BYTES) continue
        for (const key of rules.keysOfJson(JSON.parse(await readFile(path, 'utf8')))) add(census, key, '', path, undefined)
      } catch {
        // Unreadable or not JSON: the reader reported it.
      }
      continue
    }
    try {
      await forEachLine(path, (text, lineNo) => {
        if (text.trim() === '') return
        if (rules.lineRecords) {
          const got = rules.lineRecords(text)
          if (got.unreadable) add(census, UNREADABLE, state.version, path, lineNo)
          for (const rec of got.records) {
            const key = rules.keyOf(rec, state)
            if (key !== undefined) add(census, key, state.version, path, lineNo)
          }
          return
        }
        let r: Record<string, unknown> | undefined
        try {
          r = obj(JSON.parse(text))
        } catch {
          return
        }
        if (!r) return
        const key = rules.keyOf(r, state)
        if (key !== undefined) add(census, key, state.version, path, lineNo)
      })
    } catch {
      // Unreadable: the reader reported it.
    }
  }
}
