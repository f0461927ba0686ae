import { afterEach, describe, expect, it, vi } from 'vitest'
import { THEME_KEY, applyTheme, loadChoice, nextChoice, parseChoice, resolveTheme, saveChoice } from './theme'

describe('theme', () => {
  it('resolves a choice against the system preference', () => {
    expect(resolveTheme('system', true)).toBe('dark')
    expect(resolveTheme('system', false)).toBe('light')
    expect(resolveTheme('light', true)).toBe('light')
    expect(resolveTheme('dark', false)).toBe('dark')
  })

  it('cycles system → light → dark → system and parses stored values', () => {
    expect([nextChoice('system'), nextChoice('light'), nextChoice('dark')]).toEqual(['light', 'dark', 'system'])
    expect([parseChoice('dark'), parseChoice('light'), parseChoice('purple'), parseChoice(null)]).toEqual(['dark', 'light', 'system', 'system'])
  })

  describe('storage', () => {
    const store = new Map<string, string>()
    afterEach(() => {
      store.clear()
      vi.unstubAllGlobals()
    })
    it('keeps light/dark under sepia.theme and removes the key for system', () => {
      vi.stubGlobal('localStorage', {
        getItem: (k: string) => store.get(k) ?? null,
        setItem: (k: string, v: string) => void store.set(k, v),
        removeItem: (k: string) => void store.delete(k),
      })
      saveChoice('dark')
      expect(store.get(THEME_KEY)).toBe('dark')
      expect(loadChoice()).toBe('dark')
      saveChoice('system')
      expect(store.has(THEME_KEY)).toBe(false)
      expect(loadChoice()).toBe('system')
    })
    it('falls back to system when storage throws', () => {
      vi.stubGlobal('localStorage', {
        getItem: () => {
          throw new Error('denied')
        },
        setItem: () => {
          throw new Error('denied')
        },
      })
      expect(loadChoice()).toBe('system')
      expect(() => saveChoice('light')).not.toThrow()
    })
  })

  it('writes the theme in effect on the root element', () => {
    const root = { dataset: {} as Record<string, string>, style: { colorScheme: '' } } as unknown as HTMLElement
    applyTheme('dark', root)
    expect(root.dataset.theme).toBe('dark')
    expect(root.style.colorScheme).toBe('dark')
  })
})
