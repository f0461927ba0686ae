/** A count with its noun in the right number: `plural(1, 'session')` is "1 session", `plural(2, 'match', 'matches')` "2 matches". */
export function plural(n: number | string, one: string, many = `${one}s`): string {
  return `${n} ${Number(n) === 1 ? one : many}`
}
