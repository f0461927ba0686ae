/**
 * The pricing table (`pricing/pricing.json`, see pricing/README.md for its format and sources):
 * USD per million tokens per model. Loaded from `<appDataDir>/pricing.json` when present (a user
 * update), else from the app's `pricing/pricing.json`, else from the copy built into the bundle.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import bundled from '../../../pricing/pricing.json'

/** Prices of one model, USD per million tokens. */
export interface ModelPrice {
  input: number
  output: number
  cacheRead?: number
  /** Absent: cache writes are billed as input. */
  cacheWrite?: number
  provider?: string
  /** Prices for a prompt above `threshold` tokens. */
  longContext?: { threshold: number; input: number; output: number; cacheRead?: number; cacheWrite?: number }
}

/** The whole table. */
export interface PricingTable {
  updated: string
  models: Record<string, ModelPrice>
  /** Where it was loaded from (a path, or `built-in`). */
  source: string
}

function valid(value: unknown): value is Omit<PricingTable, 'source'> {
  const v = value as PricingTable
  return !!v && typeof v === 'object' && typeof v.models === 'object' && v.models !== null && Object.values(v.models).every((m) => typeof m?.input === 'number' && typeof m?.output === 'number')
}

/**
 * Load the table: the first valid file among `candidates` (paths), else the built-in copy. A
 * file that is not a valid table is skipped (the next one is used).
 */
export function loadPricing(candidates: readonly string[]): PricingTable {
  for (const path of candidates) {
    if (!existsSync(path)) continue
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown
      if (valid(parsed)) return { updated: String(parsed.updated ?? ''), models: parsed.models, source: path }
    } catch {
      // not JSON: fall through to the next candidate
    }
  }
  return { updated: bundled.updated, models: bundled.models as Record<string, ModelPrice>, source: 'built-in' }
}

/** The usual places: the user's override in the app data folder, then the app's own file. */
export function pricingCandidates(appDataDir: string | undefined, appRoot: string): string[] {
  const out: string[] = []
  if (appDataDir) out.push(join(appDataDir, 'pricing.json'))
  out.push(join(appRoot, 'pricing', 'pricing.json'))
  return out
}

/** Finds the price of a model id (cached per id). */
export class PriceBook {
  private cache = new Map<string, ModelPrice | undefined>()
  private keys: string[]
  constructor(readonly table: PricingTable) {
    this.keys = Object.keys(table.models).sort((a, b) => b.length - a.length)
  }

  /** The price of `model`, or undefined when the table does not know it. */
  price(model: string | undefined | null): ModelPrice | undefined {
    if (!model) return undefined
    if (this.cache.has(model)) return this.cache.get(model)
    const found = this.lookup(model)
    this.cache.set(model, found)
    return found
  }

  private lookup(model: string): ModelPrice | undefined {
    const m = this.table.models
    let id = model.trim().toLowerCase()
    if (m[id]) return m[id]
    id = id.replace(/^[a-z0-9-]+\//, '') // provider prefix: anthropic/, openai/, google/...
    id = id.replace(/^(us|eu|apac|global)\.anthropic\./, '').replace(/^anthropic\./, '') // Bedrock ids
    id = id.replace(/-v\d+(:\d+)?$/, '')
    if (id.startsWith('claude-')) id = id.replace(/(\d)\.(\d)/g, '$1-$2') // GitHub Copilot's `claude-sonnet-4.5` is `claude-sonnet-4-5`
    const undated = id.replace(/[-@]\d{8}$/, '').replace(/-\d{4}-\d{2}-\d{2}$/, '')
    if (m[id]) return m[id]
    if (m[undated]) return m[undated]
    // A longer id of the same model (`claude-sonnet-4-5-thinking`), never another version
    // (`gpt-5.5` is not `gpt-5`, `claude-opus-4-6` is not `claude-opus-4`).
    const key = this.keys.find((k) => undated.startsWith(k) && /^-[^0-9]/.test(undated.slice(k.length)))
    return key ? m[key] : undefined
  }
}

/** Token counts of one priced group. */
export interface Tokens {
  input: number
  output: number
  cacheRead: number
  cacheWrite: number
}

/** USD for `t` tokens at `p` (long-context prices when `long`). */
export function costOf(p: ModelPrice, t: Tokens, long: boolean): number {
  const rate = long && p.longContext ? p.longContext : p
  const cacheRead = rate.cacheRead ?? p.cacheRead ?? rate.input
  const cacheWrite = rate.cacheWrite ?? p.cacheWrite ?? rate.input
  return (t.input * rate.input + t.output * rate.output + t.cacheRead * cacheRead + t.cacheWrite * cacheWrite) / 1e6
}
