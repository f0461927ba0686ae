/**
 * The Search view's state: the query, the filters, and the hits of the newest request. Searches
 * as the user types (debounced by {@link DEBOUNCE_MS}); an answer to an older request is dropped,
 * so a slow answer never replaces a newer one. While the index is still being filled
 * (`SearchResult.partial`), the same search runs again every {@link PARTIAL_RETRY_MS}.
 * Kept across view switches (the view is kept alive too).
 */
import { defineStore } from 'pinia'
import { computed, reactive, ref, shallowRef, watch } from 'vue'
import type { SepiaErrorShape } from '../../../shared/api'
import type { SearchFilters, SearchHit, SearchResult } from '../../../shared/catalog'
import type { AgentId, Role } from '../../../shared/ir'
import { bridge } from '../bridge'
import { toShape } from '../errors'

/** Wait after the last keystroke before searching, ms. */
export const DEBOUNCE_MS = 150
/** Re-run a partial search this often while the index fills, ms. */
export const PARTIAL_RETRY_MS = 2000
/** Hits per request. */
export const PAGE = 50

/** The filter fields as the form holds them ('' = any). Dates are `YYYY-MM-DD` local days. */
export interface SearchForm {
  agent: AgentId | ''
  project: string
  since: string
  until: string
  model: string
  role: Role | ''
  toolName: string
  sort: 'relevance' | 'recent'
}

/** ms since epoch of the start of a local day `YYYY-MM-DD` (`days` later), or undefined when not a date. */
export function localDayStart(day: string, days = 0): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!m) return undefined
  const t = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days).getTime()
  return Number.isFinite(t) ? t : undefined
}

/** The API filters of a form: dates are whole local days, `until` included. */
export function toFilters(form: SearchForm, offset = 0): SearchFilters {
  const f: SearchFilters = { limit: PAGE, offset, sort: form.sort }
  if (form.agent) f.agent = form.agent
  if (form.project) f.project = form.project
  const since = localDayStart(form.since)
  const until = localDayStart(form.until, 1)
  if (since !== undefined) f.since = since
  if (until !== undefined) f.until = until
  if (form.model.trim()) f.model = form.model.trim()
  if (form.role) f.role = form.role
  if (form.toolName.trim()) f.toolName = form.toolName.trim()
  return f
}

export const useSearchStore = defineStore('search', () => {
  const query = ref('')
  const form = reactive<SearchForm>({ agent: '', project: '', since: '', until: '', model: '', role: '', toolName: '', sort: 'relevance' })
  /** The last answer (its hits are in `hits`, with later pages appended). */
  const result = shallowRef<SearchResult | null>(null)
  const hits = shallowRef<SearchHit[]>([])
  const loading = ref(false)
  const loadingMore = ref(false)
  const error = ref<SepiaErrorShape | null>(null)
  const activeFilters = computed(() => Object.entries(form).filter(([k, v]) => k !== 'sort' && v !== '').length)
  let request = 0
  let debounce: ReturnType<typeof setTimeout> | undefined
  let retry: ReturnType<typeof setTimeout> | undefined

  /** Search now with the current query and filters. */
  async function run(): Promise<void> {
    clearTimeout(debounce)
    clearTimeout(retry)
    const mine = ++request
    const q = query.value.trim()
    if (q === '') {
      result.value = null
      hits.value = []
      error.value = null
      loading.value = false
      return
    }
    loading.value = true
    try {
      const r = await bridge().search(q, toFilters(form))
      if (mine !== request) return
      result.value = r
      hits.value = r.hits
      error.value = null
      if (r.partial) retry = setTimeout(() => void run(), PARTIAL_RETRY_MS)
    } catch (e) {
      if (mine !== request) return
      error.value = toShape(e)
      result.value = null
      hits.value = []
    } finally {
      if (mine === request) loading.value = false
    }
  }

  /** Fetch the next page of hits. */
  async function more(): Promise<void> {
    const r = result.value
    if (!r?.more || loadingMore.value) return
    const mine = request
    loadingMore.value = true
    try {
      const next = await bridge().search(r.query, toFilters(form, hits.value.length))
      if (mine !== request) return
      hits.value = [...hits.value, ...next.hits]
      result.value = { ...next, hits: [] }
    } catch (e) {
      if (mine === request) error.value = toShape(e)
    } finally {
      loadingMore.value = false
    }
  }

  /** Clear every filter (the query stays). */
  function clearFilters(): void {
    Object.assign(form, { agent: '', project: '', since: '', until: '', model: '', role: '', toolName: '' })
  }

  watch([query, form], () => {
    clearTimeout(debounce)
    debounce = setTimeout(() => void run(), DEBOUNCE_MS)
  })

  return { query, form, result, hits, loading, loadingMore, error, activeFilters, run, more, clearFilters }
})
