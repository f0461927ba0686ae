/**
 * The Sepia CLI: the same API from a terminal.
 *
 *   sepia list  [--home DIR]... [--json]
 *   sepia show  <session-id> [--agent ID] [--home DIR]... [--json]
 *   sepia serve [--home DIR]... [--port N] [--demo]
 *   sepia checkpoints <session-id> | restore <session-id> <checkpoint> | undo-restore <id> | restores
 *                                   (src/cli/checkpoints.ts)
 *   sepia export <session-id>... | --project P | --all --format md|html|json|atif|pdf --out DIR
 *   sepia collect [--home DIR]... --out PATH [--zip] [--include-credentials]
 *   sepia timeline [--home DIR]... [--agent ID] [--session ID] [--project P] [--csv|--jsonl|--json]
 *                                   (src/cli/timeline.ts)
 *   sepia doctor [--home DIR] [--json] | --report FILE [--out DIR]   (src/cli/doctor.ts)
 *   sepia convert <session-id> --to <agent> [--target-home DIR] [--project DIR] [--dry-run] [--text-only]
 *                                   (src/cli/convert.ts)
 *   sepia mcp [--home DIR]...       MCP server over stdio (src/main/mcp/server.ts)
 *   sepia archive status|prune|on|off | put-back <session-id>   (src/cli/archive.ts)
 *   sepia push --to postgres://... [--home DIR] [--machine NAME] | serve --catalog postgres://...
 *                                   the team catalog (src/cli/team.ts)
 *   sepia bundle <session-id> --out FILE | install-bundle FILE [--project DIR] | move <session-id> --to-project DIR
 *                                   (src/cli/move.ts)
 *
 * Every command takes `--home DIR` (default: the user's home; repeatable) and `--json`.
 * Exit codes: 0 ok, 1 failure (message on stderr), 2 bad usage.
 *
 * Start-up (issue 15: module loading was most of a warm `sepia list`; BENCHMARKS.md): this entry
 * parses the command line (src/cli/options.ts) and answers `--version` with none of the API loaded;
 * every other command imports src/cli/commands.ts when it runs. There, modules only one command
 * needs (the MCP server with its SDK and zod, the team catalog with the PostgreSQL driver) are
 * imported when that command runs, so `list` and `search` do not load them; nor do they load the API's
 * services no listing or search needs (checkpoints, exports, bundles, moves, convert: src/main/api-services.ts).
 */
import { processContext } from '../main/host'
import { parseCli, parseErrorMessage } from './options'

/** Run the CLI with `argv` (without node and script). Resolves the exit code. */
export async function main(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  let parsed
  try {
    parsed = parseCli(argv)
  } catch (e) {
    // Node's parseArgs messages in plain words, pointing at the command's help (src/cli/options.ts).
    err.write(`sepia: ${parseErrorMessage(e as Error, argv)}\n`)
    return 2
  }
  const { values, positionals } = parsed
  const [command, ...rest] = positionals
  if (command === 'version' || values.version) {
    out.write(`sepia ${processContext({ mode: 'browser' }).version}\n`)
    return 0
  }
  const { runCommand } = await import('./commands')
  return runCommand(command, rest, values, out, err)
}

const isEntry = process.argv[1] && /[\\/]cli[\\/]index\.(ts|js|mjs)$/.test(process.argv[1])
if (isEntry) {
  main(process.argv.slice(2)).then(
    (code) => {
      if (code !== -1) process.exitCode = code
    },
    (e) => {
      process.stderr.write(`sepia: ${String(e)}\n`)
      process.exitCode = 1
    },
  )
}
