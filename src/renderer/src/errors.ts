/** Turning anything thrown by an API call into the plain error shape the views show, and into plain words. */
import { SepiaError, type SepiaErrorShape } from '../../shared/api'
import { i18n } from './i18n'
import { strings } from './strings'

/**
 * The `{code, message, path?, line?}` of anything thrown. A SepiaError keeps its code; anything
 * else becomes `INTERNAL` and is also logged to the developer console (it is a bug, not a user error).
 */
export function toShape(e: unknown): SepiaErrorShape {
  if (!(e instanceof SepiaError)) console.error(e)
  const shape = SepiaError.from(e).toJSON()
  if (typeof shape.message !== 'string' || shape.message === '') shape.message = String(e)
  return shape
}

/**
 * Words a person who is not an engineer would not use: error codes (`PATH_NOT_ALLOWED`), Sepia's
 * internal terms ("store", "store ref", "IR", "node id"), API option names and shapes
 * ("options must be an object {home?, project?}", `"nodeId"`, "ms since epoch"), and programming
 * words (JSON, undefined, null, TypeError). Issue 17: "Error texts carry codes and internal words".
 */
const INTERNAL_WORDS: readonly RegExp[] = [
  /\b[A-Z]{2,}(?:_[A-Z]+)+\b/,
  /\bIR\b/,
  /\bstores?\b/i,
  /\bnode ids?\b/i,
  /\boptions?\b[^.]*\bobject\b/i,
  /\{[^}]*\?[^}]*\}/,
  /"[a-z]+[A-Z][A-Za-z]*"/,
  /\bms since epoch\b/i,
  /\b(?:JSON|undefined|null|NaN)\b/,
  /\b[A-Z][a-z]+Error\b/,
  /\bat \S+ \(/,
]

/** Whether `message` reads as plain words (none of {@link INTERNAL_WORDS}). Pure. */
export function isPlainMessage(message: string): boolean {
  return message.trim() !== '' && !INTERNAL_WORDS.some((re) => re.test(message))
}

/** An error as the views show it. */
export interface PlainError {
  /**
   * What happened: main's message when it is plain and the UI is in English (main writes English),
   * else the code's plain sentence in the language in effect (`strings.errorWhat`).
   */
  what: string
  /** What to do next (`strings.errorAdvice`). */
  advice: string
  /** Folded under "Details": the code, and main's own message when `what` replaced it. (The path stays in view.) */
  details: string[]
}

/**
 * What happened and what to do, in the user's words, with the code and Sepia's own wording one
 * click away under "Details" (issue 17). An `INTERNAL` error always gets the plain sentence: its
 * message is a bug's, not the user's. In another language than English, main's English message
 * moves under "Details" and the code's sentence in that language is shown. Pure but for the
 * language in effect.
 */
export function plainError(e: SepiaErrorShape): PlainError {
  const code = e.code in strings.errorWhat ? e.code : 'INTERNAL'
  const english = String(i18n.global.locale.value).startsWith('en')
  const plain = english && code !== 'INTERNAL' && isPlainMessage(e.message)
  const details = [strings.errorDetails.code(e.code)]
  if (!plain && e.message.trim()) details.push(strings.errorDetails.message(e.message))
  return { what: plain ? e.message : strings.errorWhat[code], advice: strings.errorAdvice[code], details }
}
