/**
 * The provider family of a model name, shared by `convert/thinking.ts` (which family sealed a
 * thinking block) and the writers that name a provider (`agents/cline/write-messages.ts`,
 * `agents/opencode/write-rows.ts`), in a module both import.
 */
import type { ProviderFamily } from '../../shared/convert'

/** The provider family of a model name (`claude-…` → anthropic, `gpt-…`/`o3` → openai, `gemini-…` → google). */
export function familyOfModel(model: string | undefined): ProviderFamily | undefined {
  if (!model) return undefined
  const m = model.toLowerCase()
  if (/claude|anthropic|opus|sonnet|haiku/.test(m)) return 'anthropic'
  if (/gemini|google/.test(m)) return 'google'
  if (/(^|[/:])(gpt|o\d|codex|openai|chatgpt)/.test(m)) return 'openai'
  return undefined
}
