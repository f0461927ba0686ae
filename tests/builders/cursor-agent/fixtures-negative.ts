/**
 * Fixture generator: the Cursor agent CLI negative cases of shared/formats/cursor-devin-atif-acp.md
 * §B5 step 5 and §F21–§F24 (tests only; see src/main/agents/cursor/FIXTURES.md):
 * - `PARTIAL`: a stale branch blob (not reachable, must not show), a subtree and a leaf that are
 *   missing, a tree that refers to itself (cycle), a role `"weird"` leaf, a binary leaf, a tool
 *   result with no matching call, a notebook blob, a leaf with a BOM;
 * - `NONHEX_FALLBACK`: `meta['0']` not hex, with a transcript of the same id (read instead);
 * - `NONHEX`: `meta['0']` not hex and no transcript (no messages, an error diagnostic);
 * - `PLAINJSON`: `meta['0']` stored as plain JSON (read, with a note);
 * - `NOTSQLITE`: a `store.db` that is not a database;
 * - `NOCONV`: `meta.json` with `hasConversation:false` and no store (not a session).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BlobStore, chatFolder, hexJson, projectFolder, writeJson, writeJsonl, writeStoreDb } from './fixtures'

/** Session ids of the negative home. */
export const AGENT_NEG = {
  PARTIAL: 'a0000000-0000-4000-8000-000000000001',
  NONHEX_FALLBACK: 'a0000000-0000-4000-8000-000000000002',
  NONHEX: 'a0000000-0000-4000-8000-000000000003',
  PLAINJSON: 'a0000000-0000-4000-8000-000000000004',
  NOTSQLITE: 'a0000000-0000-4000-8000-000000000005',
  NOCONV: 'a0000000-0000-4000-8000-000000000006',
} as const

const CWD = '/home/ana/src/messy'

function partial(home: string): void {
  const s = new BlobStore()
  const user = s.message({ role: 'user', content: [{ type: 'text', text: '<user_query>\nclean the repo\n</user_query>' }] })
  const weird = s.message({ role: 'weird', content: 'a role nobody knows' })
  const binary = s.add(Buffer.from([0x00, 0x01, 0x02, 0xff]))
  const orphan = s.message({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_gone', toolName: 'Shell', result: 'ok' }] })
  const notebook = s.message({ cells: [], nbformat: 4 })
  const bom = s.add(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ role: 'assistant', content: [{ type: 'text', text: 'Cleaned.' }] }), 'utf8')]))
  const stale = s.tree([{ leaf: user }, { leaf: s.message({ role: 'assistant', content: 'STALE: must not show' }) }])
  const missingTree = 'ab'.repeat(32)
  const missingLeaf = 'cd'.repeat(32)
  const cycleId = 'ef'.repeat(32)
  s.add(s.treeBytes([{ leaf: user }, { tree: cycleId }]), cycleId)
  const root = s.tree([{ leaf: user }, { tree: missingTree }, { leaf: weird }, { leaf: missingLeaf }, { leaf: binary }, { tree: cycleId }, { leaf: orphan }, { leaf: notebook }, { leaf: bom }])
  void stale
  const dir = chatFolder(home, CWD, AGENT_NEG.PARTIAL)
  writeStoreDb(join(dir, 'store.db'), s, hexJson({ agentId: AGENT_NEG.PARTIAL, latestRootBlobId: root, name: 'Partial store', mode: 'auto-run', createdAt: 1783000000000 }))
  writeJson(join(dir, 'meta.json'), { schemaVersion: 1, createdAtMs: 1783000000000, hasConversation: true, updatedAtMs: 1783000100000, cwd: CWD })
}

function metaCases(home: string): void {
  const s = new BlobStore()
  const root = s.tree([{ leaf: s.message({ role: 'user', content: 'hello' }) }, { leaf: s.message({ role: 'assistant', content: 'hi' }) }])
  writeStoreDb(join(chatFolder(home, CWD, AGENT_NEG.NONHEX_FALLBACK), 'store.db'), s, 'zz-not-hex-zz')
  const proj = projectFolder(home, 'home-ana-src-messy', CWD)
  writeJsonl(join(proj, 'agent-transcripts', `${AGENT_NEG.NONHEX_FALLBACK}.jsonl`), [
    { role: 'user', message: { content: [{ type: 'text', text: '<user_query>\nhello from the transcript\n</user_query>' }] } },
    { role: 'assistant', message: { content: [{ type: 'text', text: 'hi' }] } },
  ], 1783100000000)
  writeStoreDb(join(chatFolder(home, CWD, AGENT_NEG.NONHEX), 'store.db'), s, '{not hex, not json')
  writeStoreDb(join(chatFolder(home, CWD, AGENT_NEG.PLAINJSON), 'store.db'), s, JSON.stringify({ agentId: AGENT_NEG.PLAINJSON, latestRootBlobId: root, name: 'Plain JSON meta' }))
  const bad = join(chatFolder(home, CWD, AGENT_NEG.NOTSQLITE), 'store.db')
  mkdirSync(join(bad, '..'), { recursive: true })
  writeFileSync(bad, 'this is not a sqlite database')
  writeJson(join(chatFolder(home, CWD, AGENT_NEG.NOCONV), 'meta.json'), { schemaVersion: 1, createdAtMs: 1783200000000, hasConversation: false, updatedAtMs: 1783200000000 })
}

/** Write the negative agent home into `home`. */
export function writeAgentNegativeHome(home: string): void {
  partial(home)
  metaCases(home)
}
