/**
 * Issue 17, errors in the user's words: what happened and what to do, with the code and Sepia's
 * own wording one click away under "Details" (checked on the component too, rendered to HTML).
 */
import { createSSRApp, h } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { describe, expect, it } from 'vitest'
import type { ErrorCode } from '../../shared/api'
import ActionError from './components/session-actions/ActionError.vue'
import ErrorState from './components/ErrorState.vue'
import { isPlainMessage, plainError } from './errors'
import { applyLocale } from './locale'
import { strings } from './strings'

describe('plainError', () => {
  it('keeps a plain message, with the advice for its code and the code under Details', () => {
    const e = plainError({ code: 'NOT_FOUND', message: '/home/ana/old is not on this computer.', path: '/home/ana/old' })
    expect(e).toEqual({ what: '/home/ana/old is not on this computer.', advice: strings.errorAdvice.NOT_FOUND, details: ['Error code: NOT_FOUND'] })
  })

  it('in another language, shows the sentence for the code in that language, with the English message under Details', () => {
    applyLocale('ja')
    try {
      const e = plainError({ code: 'NOT_FOUND', message: '/home/ana/old is not on this computer.', path: '/home/ana/old' })
      expect(e.what).toBe(strings.errorWhat.NOT_FOUND)
      expect(e.what).not.toMatch(/computer/)
      expect(e.details.some((d) => d.includes('/home/ana/old is not on this computer.'))).toBe(true)
    } finally {
      applyLocale('en')
    }
  })

  it('replaces messages with internal words by what happened in plain words; the message stays under Details', () => {
    const cases: [ErrorCode, string][] = [
      ['BAD_ARGUMENT', 'The settings options must be an object {home?, project?}.'],
      ['READ_FAILED', 'store ref lists no file'],
      ['BAD_ARGUMENT', '"nodeId" must be a node id (text).'],
      ['BAD_ARGUMENT', '"since" must be a day (YYYY-MM-DD) or ms since epoch; got "x".'],
      ['WRITE_FAILED', 'PATH_NOT_ALLOWED: cannot write'],
      ['READ_FAILED', 'Unexpected token in JSON at position 4'],
      ['READ_FAILED', 'The IR of this session has no nodes.'],
    ]
    for (const [code, message] of cases) {
      const e = plainError({ code, message })
      expect(e.what, message).toBe(strings.errorWhat[code])
      expect(e.advice).toBe(strings.errorAdvice[code])
      expect(e.details).toEqual([`Error code: ${code}`, `Sepia said: ${message}`])
    }
  })

  it('an INTERNAL error is always said plainly (its message is a bug, not the user\'s)', () => {
    const e = plainError({ code: 'INTERNAL', message: "Cannot read properties of undefined (reading 'x')" })
    expect(e.what).toBe('Something went wrong inside Sepia.')
    expect(e.details[1]).toContain('Cannot read properties')
  })

  it('an unknown code is treated as INTERNAL', () => {
    const e = plainError({ code: 'NEW_CODE' as ErrorCode, message: 'x' })
    expect(e.what).toBe(strings.errorWhat.INTERNAL)
    expect(e.details[0]).toBe('Error code: NEW_CODE')
  })

  it('every plain sentence and every advice is itself plain', () => {
    for (const s of [...Object.values(strings.errorWhat), ...Object.values(strings.errorAdvice)]) expect(isPlainMessage(s), s).toBe(true)
  })
})

describe('error components', () => {
  const render = (c: Parameters<typeof h>[0], props: Record<string, unknown>) => renderToString(createSSRApp({ render: () => h(c, props) }))

  it('ActionError and ErrorState show no code outside "Details"', async () => {
    const error = { code: 'PATH_NOT_ALLOWED' as const, message: 'Folder (/x) is outside the folders Sepia has opened. Open or choose its folder first.', path: '/x' }
    for (const html of [await render(ActionError, { error }), await render(ErrorState, { error, title: 'Could not' })]) {
      const [head, after] = html.split('<details')
      // The visible text before the fold (attributes such as data-code are for tests, not read out).
      const before = head!.replace(/<[^>]*>/g, '')
      expect(before).not.toContain('PATH_NOT_ALLOWED')
      expect(before).toContain('outside the folders Sepia has opened')
      expect(before).toContain(strings.errorAdvice.PATH_NOT_ALLOWED)
      expect(after).toContain('data-testid="error-details"')
      expect(after).toContain('Details')
      expect(after).toContain('Error code: PATH_NOT_ALLOWED')
    }
  })
})
