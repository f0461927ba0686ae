/**
 * The watcher's folder cap (issue 15): at 10,000 sessions (one folder per Cline session) the old
 * fixed cap of 4,000 made the watcher fall back to a full refresh every 30 s while idle.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { defaultMaxWatchers, LiveWatcher } from './watch'

describe('defaultMaxWatchers', () => {
  it('takes a quarter of the Linux inotify limit, between 4,000 and 100,000', () => {
    expect(defaultMaxWatchers('linux', '192530\n')).toBe(48132)
    expect(defaultMaxWatchers('linux', '8192')).toBe(4000)
    expect(defaultMaxWatchers('linux', '1048576')).toBe(100_000)
  })
  it('keeps 4,000 elsewhere and when the limit is unreadable', () => {
    expect(defaultMaxWatchers('darwin', '192530')).toBe(4000)
    expect(defaultMaxWatchers('win32')).toBe(4000)
    expect(defaultMaxWatchers('linux', 'garbage')).toBe(4000)
  })
})

describe('LiveWatcher cap', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })
  it('watches every folder under the cap and polls only above it', () => {
    dir = mkdtempSync(join(tmpdir(), 'sepia-watch-'))
    const dirs = Array.from({ length: 5 }, (_, i) => join(dir!, `s${i}`))
    for (const d of dirs) mkdirSync(d)
    let polls = 0
    const under = new LiveWatcher(() => polls++, { maxWatchers: 5, pollMs: 60_000 })
    under.watch(dirs)
    expect(under.watched).toEqual(dirs)
    expect((under as unknown as { poll?: unknown }).poll).toBeUndefined()
    under.close()
    const over = new LiveWatcher(() => polls++, { maxWatchers: 4, pollMs: 60_000 })
    over.watch(dirs)
    expect(over.watched.length).toBe(4)
    expect((over as unknown as { poll?: unknown }).poll).toBeDefined()
    over.close()
    expect(polls).toBe(0)
  })
})
