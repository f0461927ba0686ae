/**
 * A light per-agent census of record types: re-reads a session's files line by line and counts
 * each record's type (the keys of `known-types.ts`), with the agent version that wrote it and the
 * first file and line of each type. Streaming (memory grows with the number of types, not the
 * file size); a line that is not JSON is not counted (the reader already reported it).
 */
import { readFile, stat } from 'node:fs/promises'
import type { AgentId } from '../../shared/ir'
import { forEachLine } from '../util/lines'
import { KNOWN_RECORD_TYPES } from './known-types'

/** Counts of one census key. */
export interface CensusEntry {
  count: number
  /** Counts by agent version ('' when the record names none). */
  versions: Map<string, number>
  first: { path: string; line?: number }
}

/** Census of one agent: key → entry. */
export type Census = Map<string, CensusEntry>

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

/** True when this agent has a census (its record types are listed in known-types.ts). */
export function hasCensus(agent: AgentId): boolean {
  return KNOWN_RECORD_TYPES[agent] !== undefined
}

/** True when `key` is a type the agent's reader models. */
export function isKnownType(agent: AgentId, key: string): boolean {
  return KNOWN_RECORD_TYPES[agent]?.has(key) ?? true
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

/** Census key and version of one JSONL record of `agent` (undefined: not a record). */
function keyOf(agent: AgentId, r: Json, state: { version: string }): string | undefined {
  if (agent === 'claude-code') {
    const v = str(r.version)
    if (v) state.version = v
    return str(r.type) ?? '(no type)'
  }
  if (agent === 'codex') {
    const type = str(r.type)
    const p = obj(r.payload)
    if (type === 'session_meta') state.version = str(p?.cli_version) ?? state.version
    if (type === undefined) return r.record_type === 'state' ? 'state' : typeof r.id === 'string' ? 'session_meta' : '(no type)'
    if (type === 'response_item' || type === 'event_msg') return `${type}/${str(p?.type) ?? '(no type)'}`
    return type
  }
  if (agent === 'gemini') {
    if (typeof r.$rewindTo === 'string') return '$rewindTo'
    if (obj(r.$set)) return '$set'
    if (typeof r.id === 'string') return str(r.type) ?? '(no type)'
    return 'header'
  }
  if (agent === 'copilot-cli') {
    if (r.type === 'session.start') state.version = str(obj(r.data)?.copilotVersion) ?? state.version
    return str(r.type) ?? '(no type)'
  }
  if (agent === 'qwen-code') {
    state.version = str(r.version) ?? state.version
    const type = str(r.type) ?? '(no type)'
    return type === 'system' ? `system/${str(r.subtype) ?? '(no subtype)'}` : type
  }
  if (agent === 'pi') return str(r.type) ?? '(no type)'
  return undefined
}

/**
 * Count the records of `files` (one session's files) into `census`. Claude Code and Codex files
 * are JSONL; a Gemini `.json` chat counts its `messages[]`. Files that cannot be read add nothing.
 */
export async function censusOf(agent: AgentId, files: string[], census: Census): Promise<void> {
  if (!hasCensus(agent)) return
  for (const path of files) {
    const state = { version: '' }
    if (agent === 'gemini' && path.endsWith('.json')) {
      try {
        if ((await stat(path)).size > 256 << 20) continue
        const json = obj(JSON.parse(await readFile(path, 'utf8')))
        const messages = Array.isArray(json?.messages) ? json.messages : []
        for (const m of messages) add(census, str(obj(m)?.type) ?? '(no type)', '', path, undefined)
      } catch {
        // Unreadable or not JSON: the reader reported it.
      }
      continue
    }
    if (!path.endsWith('.jsonl')) continue
    try {
      await forEachLine(path, (text, lineNo) => {
        if (text.trim() === '') return
        let r: Json | undefined
        try {
          r = obj(JSON.parse(text))
        } catch {
          return
        }
        if (!r) return
        const key = keyOf(agent, r, state)
        if (key !== undefined) add(census, key, state.version, path, lineNo)
      })
    } catch {
      // Unreadable: the reader reported it.
    }
  }
}
