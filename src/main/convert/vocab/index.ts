/** The vocabularies of the agents Sepia can write, by agent id (one line per writer). */
import type { AgentId } from '../../../shared/ir'
import type { TargetVocabulary } from '../vocabulary'
import { claudeCodeVocabulary } from './claude-code'
import { clineVocabulary } from './cline'
import { codexVocabulary } from './codex'
import { copilotCliVocabulary } from './copilot-cli'
import { continueVocabulary } from './continue'
import { devinVocabulary } from './devin'
import { droidVocabulary } from './droid'
import { geminiVocabulary } from './gemini'
import { kiloCodeVocabulary, opencodeVocabulary } from './opencode'
import { piVocabulary } from './pi'
import { qwenCodeVocabulary } from './qwen-code'

/** Vocabularies of the agents Sepia can write. */
export const VOCABULARIES: Partial<Record<AgentId, TargetVocabulary>> = {
  'claude-code': claudeCodeVocabulary,
  cline: clineVocabulary,
  codex: codexVocabulary,
  devin: devinVocabulary,
  gemini: geminiVocabulary,
  opencode: opencodeVocabulary,
  'kilo-code': kiloCodeVocabulary,
  'qwen-code': qwenCodeVocabulary,
  pi: piVocabulary,
  'copilot-cli': copilotCliVocabulary,
  droid: droidVocabulary,
  continue: continueVocabulary,
}
