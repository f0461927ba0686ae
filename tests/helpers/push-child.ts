/**
 * A `pushHome` in a child process, for the interrupted-push test (tests/team-push.test.ts kills it
 * with SIGKILL mid-push). Arguments: url, home, machine. Prints `sent <done>/<total>` after each
 * session's transaction commits, then `done`.
 */
import { pushHome } from '../../src/main/team/push'

const [url, home, machine] = process.argv.slice(2)
await pushHome({ url: url!, home: home!, machine: machine!, onProgress: (done, total) => process.stdout.write(`sent ${done}/${total}\n`) })
process.stdout.write('done\n')
