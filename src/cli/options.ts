/**
 * The options of the `sepia` command line (src/cli/index.ts), in a module of their own so that the
 * entry parses them and answers `--version` without loading the commands (src/cli/commands.ts).
 */
import { parseArgs } from 'node:util'

/** Parse a command line (without node and script); throws on an unknown or malformed option (see {@link parseErrorMessage}). */
export function parseCli(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: OPTIONS,
  })
}

/** The options every command shares (src/cli/index.ts); which command reads which is in its help. */
const OPTIONS = {
  home: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
  agent: { type: 'string' },
  port: { type: 'string' },
  demo: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
  format: { type: 'string' },
  out: { type: 'string' },
  project: { type: 'string' },
  all: { type: 'boolean', default: false },
  'no-thinking': { type: 'boolean', default: false },
  'no-tool-output': { type: 'boolean', default: false },
  zip: { type: 'boolean', default: false },
  'include-credentials': { type: 'boolean', default: false },
  to: { type: 'string' },
  repo: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  files: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  by: { type: 'string' },
  tz: { type: 'string' },
  csv: { type: 'boolean', default: false },
  role: { type: 'string' },
  tool: { type: 'string' },
  limit: { type: 'string' },
  session: { type: 'string' },
  jsonl: { type: 'boolean', default: false },
  'target-home': { type: 'string' },
  'text-only': { type: 'boolean', default: false },
  report: { type: 'string' },
  machine: { type: 'string' },
  catalog: { type: 'string' },
  'to-project': { type: 'string' },
  'remove-original': { type: 'boolean', default: false },
} as const

/**
 * A parse error of {@link parseCli} in plain words: the option named, what is wrong with it, and
 * where the command's options are listed (`sepia <command> --help`). The command is the first
 * word of `argv` that is not an option or an option's value. Node's messages (node:util
 * parseArgs, `ERR_PARSE_ARGS_UNKNOWN_OPTION`, `ERR_PARSE_ARGS_INVALID_OPTION_VALUE`) are matched by
 * their start; any other is passed on as it is.
 */
export function parseErrorMessage(e: Error, argv: readonly string[]): string {
  let command: string | undefined
  try {
    command = parseArgs({ args: [...argv], allowPositionals: true, strict: false, options: OPTIONS }).positionals[0]
  } catch {
    command = undefined
  }
  const help = command ? `"sepia ${command} --help"` : '"sepia --help"'
  const cmd = command ? `sepia ${command}` : 'sepia'
  const m = e.message
  const unknown = /^Unknown option '([^']+)'/.exec(m)
  if (unknown) {
    const opt = unknown[1]!
    return `${cmd} has no option ${opt}; ${help} lists its options.${command === 'search' ? ` To search for text starting with "-", put it after --: sepia search -- ${opt}` : ''}`
  }
  const missing = /^Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument (missing|is ambiguous)/.exec(m)
  if (missing) return `${missing[1]} needs a value (${missing[1]} VALUE${missing[2] === 'is ambiguous' ? `; a value starting with "-" is written ${missing[1]}=-VALUE` : ''}); ${help} lists the options.`
  const noValue = /^Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(m)
  if (noValue) return `${noValue[1]} takes no value (write ${noValue[1]} alone); ${help} lists the options.`
  return `${m}; ${help} lists the options.`
}

/** The parsed options. */
export type CliValues = ReturnType<typeof parseCli>['values']
