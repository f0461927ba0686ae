/**
 * Recently opened homes (issue "Review bundles": "recent folders are remembered"), kept in
 * `<app data>/recent-homes.json`: newest first, at most {@link MAX_RECENT}, one entry per path.
 * Written atomically (temp file + rename): the file is Sepia's own, so replacing it is fine.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { RecentHome } from '../../shared/export'

/** Most entries kept. */
export const MAX_RECENT = 10
/** File name in the app data folder. */
export const RECENT_FILE = 'recent-homes.json'

/** The recent homes, newest first; an absent or broken file is an empty list. */
export async function getRecentHomes(appDataDir: string): Promise<RecentHome[]> {
  try {
    const data = JSON.parse(await readFile(join(appDataDir, RECENT_FILE), 'utf8')) as { homes?: unknown }
    if (!Array.isArray(data.homes)) return []
    return data.homes
      .filter((h): h is RecentHome => !!h && typeof (h as RecentHome).path === 'string' && typeof (h as RecentHome).openedAt === 'number')
      .slice(0, MAX_RECENT)
  } catch {
    return []
  }
}

/** Put `entry` first (replacing an older entry of the same path) and save. Never throws. */
export async function rememberHome(appDataDir: string, entry: RecentHome): Promise<RecentHome[]> {
  const list = [entry, ...(await getRecentHomes(appDataDir)).filter((h) => h.path !== entry.path)].slice(0, MAX_RECENT)
  const file = join(appDataDir, RECENT_FILE)
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await mkdir(appDataDir, { recursive: true })
    await writeFile(temp, JSON.stringify({ version: 1, homes: list }, null, 2) + '\n')
    await rename(temp, file)
  } catch {
    await unlink(temp).catch(() => undefined)
  }
  return list
}
