/**
 * Run the CLI in process, as the CLI tests do: `runCli(...argv)` calls `main(argv, out, err)` of
 * src/cli/index.ts with two in-memory streams and resolves `{code, out, err}` (the exit code and
 * everything written to stdout and stderr, as text).
 */
import { Writable } from 'node:stream'
import { main } from '../../src/cli/index'

/** A writable stream that keeps what is written in `text`. */
export function sink(): Writable & { text: string } {
  const w = new Writable({
    write(chunk, _enc, cb) {
      w.text += String(chunk)
      cb()
    },
  }) as Writable & { text: string }
  w.text = ''
  return w
}

/** Run `sepia <argv>` in this process; resolves the exit code and the captured output. */
export async function runCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = sink()
  const err = sink()
  const code = await main(argv, out as unknown as NodeJS.WritableStream, err as unknown as NodeJS.WritableStream)
  return { code, out: out.text, err: err.text }
}
