/**
 * `sepia list`, `search` and `checkpoints` print times in this machine's zone (as `sepia usage`
 * counts days in it) and say which zone; `--json` keeps ISO UTC. TZ is set to Asia/Tokyo (UTC+9,
 * no daylight saving) for the file; the expected clock time is the JSON's UTC time plus 9 hours,
 * worked out here with plain arithmetic.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli-run'
import { tempDirs, useEnv } from './helpers/temp'
import { findAppRoot } from '../src/main/context'

const HOME = join(findAppRoot(), 'fixtures/real/claude-code/home')
const ID = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
const dir = tempDirs()('sepia-local-time-')
useEnv(() => ({ TZ: 'Asia/Tokyo', HOME: join(dir, 'own'), SEPIA_DATA_DIR: join(dir, 'data') }))

/** `YYYY-MM-DD HH:MM` of an ISO UTC time moved 9 hours on. */
const tokyo = (iso: string): string => new Date(Date.parse(iso) + 9 * 3_600_000).toISOString().replace('T', ' ').slice(0, 16)

describe('local times in the human output', () => {
  it('sepia list shows the local time and names the zone; --json stays UTC', async () => {
    const j = await runCli('list', '--home', HOME, '--json')
    const s = (JSON.parse(j.out).sessions as { id: string; createdAt: number }[]).find((x) => x.id === ID)!
    expect(typeof s.createdAt).toBe('number')
    const r = await runCli('list', '--home', HOME)
    expect(r.code).toBe(0)
    expect(r.out.split('\n')[1]).toBe('Times in Asia/Tokyo.')
    const line = r.out.split('\n').find((l) => l.includes(ID))!
    expect(line).toContain(`${ID}  ${tokyo(new Date(s.createdAt).toISOString())}`)
  })

  it('sepia search shows the local time of each hit', async () => {
    const j = JSON.parse((await runCli('search', 'ledger', '--home', HOME, '--json', '--limit', '3')).out) as { hits: { sessionId: string; createdAt?: number }[] }
    const hit = j.hits.find((h) => h.createdAt !== undefined)!
    const r = await runCli('search', 'ledger', '--home', HOME, '--limit', '3')
    expect(r.out.split('\n')[1]).toBe('Times in Asia/Tokyo.')
    expect(r.out).toContain(`${hit.sessionId} `)
    expect(r.out).toContain(` ${tokyo(new Date(hit.createdAt!).toISOString())} `)
  })
})
