// Runs a jp command in this process with @oclif/test, the way bin/run.js
// runs it (src/lib/cli/main.ts: oclif's run, then jp's report of whatever
// escaped), and returns what a user would see: stdout, stderr and the exit
// code. For flag, help and exit-code tests; terminal behaviour belongs to the
// pty tests (test/helpers/pty.ts), and a run that reads piped stdin or must
// be killed to test/helpers/cli.ts (a real child process).
//
// oclif loads this package (package.json's `oclif` section); under mocha's
// tsx its `./dist/jp` targets resolve to src/jp.ts, so the commands, hooks
// and help class are the TypeScript sources. HOME, the XDG dirs, jp's data
// dirs and the cwd are a sandbox's for the length of the run. Runs must not
// overlap. Unlike bin/run.js, global flags before the command are not moved
// behind it, and what is written to /dev/tty is not captured.
import {run} from '@oclif/core'
import {captureOutput} from '@oclif/test'
import {report} from '../../src/lib/cli/main.js'
import {BIN, makeSandbox, ROOT, type Sandbox} from './cli.js'

export interface InProcessResult {
  stdout: string
  stderr: string
  /** What the process would exit with. */
  exitCode: number
}

export interface InProcessOptions {
  /** Environment and cwd of the run (default: a fresh sandbox, removed after). */
  sandbox?: Sandbox
  env?: NodeJS.ProcessEnv
  cwd?: string
}

/** `jp ARGS...` in-process; `args` are the words as a shell passes them (not re-split). */
export async function runInProcess(args: readonly string[], opts: InProcessOptions = {}): Promise<InProcessResult> {
  const sandbox = opts.sandbox ?? makeSandbox()
  const saved = {env: process.env, cwd: process.cwd(), argv: process.argv}
  let exitCode = 0
  process.env = {...sandbox.env, ...opts.env}
  process.chdir(opts.cwd ?? sandbox.cwd)
  process.argv = [process.execPath, BIN, ...args]
  try {
    const out = await captureOutput(
      async () => {
        try {
          await run([...args], {root: ROOT})
        } catch (error) {
          exitCode = report(error)
        }
      },
      {stripAnsi: false},
    )
    return {stdout: out.stdout, stderr: out.stderr, exitCode}
  } finally {
    process.env = saved.env
    process.argv = saved.argv
    process.chdir(saved.cwd)
    if (!opts.sandbox) sandbox.cleanup()
  }
}
