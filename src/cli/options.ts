/**
 * The options of the `sepia` command line (src/cli/index.ts), in a module of their own so that the
 * entry parses them and answers `--version` without loading the commands (src/cli/commands.ts).
 */
import { parseArgs } from 'node:util'

/** Parse a command line (without node and script); throws on an unknown or malformed option. */
export function parseCli(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
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
    },
  })
}

/** The parsed options. */
export type CliValues = ReturnType<typeof parseCli>['values']
