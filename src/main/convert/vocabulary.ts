/**
 * Target vocabularies: how each writable agent names its tools, and which content its store holds.
 * One file per target in `vocab/`, listed in `vocab/index.ts` (adding a writer = adding its
 * vocabulary there; see README.md). `encoders` is an exhaustive table over intent types.
 */
import type { AgentId } from '../../shared/ir'
import type { Intent, IntentType } from './intents'

/** What encoding may use: the converted session's working directory. */
export interface EncodeContext {
  cwd?: string
}

/** A tool call in the target's words. */
export interface EncodedCall {
  name: string
  input: Record<string, unknown>
}

/** Per intent type: the target's call, or undefined when the target has no such tool. */
export type Encoders = { [K in IntentType]: (i: Extract<Intent, { type: K }>, ctx: EncodeContext) => EncodedCall | undefined }

/** One target agent's tool vocabulary and content capabilities. */
export interface TargetVocabulary {
  agent: AgentId
  /**
   * The store format the writer produces (`Session.source.format` of what it writes). A session
   * already in that format is not offered as "Continue in..." its own agent; one in another format
   * of the same agent is (a legacy Cline task into Cline's SDK store, a Claude Code sub-agent
   * transcript as a session of its own).
   */
  format: string
  encoders: Encoders
  /**
   * Content blocks the target's store and API hold natively (else they become a note): images and
   * text files in messages, and images inside tool results.
   */
  blocks: { image: boolean; file: boolean; toolResultImages: boolean }
  /** True when the target's model API accepts this tool call id (else it is rewritten). */
  validToolId(id: string): boolean
}

/** Encode one intent for `vocab` (undefined: no counterpart). */
export function encodeIntent(vocab: TargetVocabulary, intent: Intent, ctx: EncodeContext): EncodedCall | undefined {
  const fn = vocab.encoders[intent.type] as (i: Intent, c: EncodeContext) => EncodedCall | undefined
  return fn(intent, ctx)
}

/** Quote for a POSIX shell when needed. */
export function shq(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/** `cd <cwd> && <command>` when the call ran elsewhere than the session's folder. */
export function commandIn(command: string, cwd: string | undefined, sessionCwd: string | undefined): string {
  return cwd && cwd !== sessionCwd ? `cd ${shq(cwd)} && ${command}` : command
}
