/**
 * Test helper: discover, read and link every Claude Code session under a home folder, the way
 * the app does (discover → read each ref → link). Used by this folder's tests only.
 */
import { readHomeOf, type ReadHome } from '../testing'
import { claudeCode } from '../../../src/main/agents/claude-code/index'

export { testContext, type ReadHome } from '../testing'

/** Discover, read and link all sessions of this agent under `home` (a linux-layout home). */
export function readHome(home: string): Promise<ReadHome> {
  return readHomeOf(claudeCode, home)
}
