// Runs a jp command in this process with @oclif/test, the way bin/run.js
// would run it (src/lib/cli/main.ts: oclif's run, then jp's report of what
// escaped the command), and returns what a user would see: stdout, stderr
// (including the message printed for an error that escapes the command) and
// the exit code. For flag, help and exit-code tests; terminal behaviour belongs to
// the pty tests (test/helpers/pty.ts), and a run that must read piped stdin
// or be killed belongs to test/helpers/cli.ts (a real child process).
//
// What runs: oclif loads this package (package.json's `oclif` section, the
// committed oclif.manifest.json for help and the command list) and, since
// tsx is registered under mocha, the TypeScript sources through the explicit
// command target (`./dist/jp` → `src/jp.ts`): the same module instances a
// test imports from src/. test/helpers/cli.ts runs the shipped bundle.
//
// Isolation: HOME, the XDG dirs, jp's data dirs and the cwd are a sandbox's
// (makeSandbox) for the length of the run, then restored. Runs must not
// overlap (mocha runs tests one at a time). Differences from bin/run.js:
// global flags given before the command id are not moved behind it, and
// output written to /dev/tty (prompts) is not captured.
import {run} from '@oclif/core'
import {captureOutput} from '@oclif/test'
import {report} from '../../src/lib/cli/main.js'
import {BIN, ROOT, type Sandbox} from './cli.js'

export interface InProcessResult {
  stdout: string
  stderr: string
  /** What the process would exit with: 0, a command's `this.exit(n)`, 2 for a usage error, else 1. */
  exitCode: number
  /** The error that ended the command, if any (an ExitError for `this.exit`). */
  error?: Error & {oclif?: {exit?: number}; code?: string}
}

export interface InProcessOptions {
  /** Environment and cwd of the run (default: a fresh sandbox is NOT made; pass one). */
  sandbox: Sandbox
  /** Extra variables over the sandbox's environment. */
  env?: NodeJS.ProcessEnv
  /** Working directory (default: the sandbox's cwd). */
  cwd?: string
}

/**
 * `jp ARGS...` in-process. `args` are the words exactly as a shell would pass
 * them (no re-splitting: `['query', 'two words']` is two arguments).
 */
export async function runInProcess(args: readonly string[], opts: InProcessOptions): Promise<InProcessResult> {
  const savedEnv = process.env
  const savedCwd = process.cwd()
  const savedArgv = process.argv
  let exitCode = 0
  let error: InProcessResult['error']
  process.env = {...opts.sandbox.env, ...opts.env}
  process.chdir(opts.cwd ?? opts.sandbox.cwd)
  // oclif reads process.argv too (the usage shown after a flag error).
  process.argv = [process.execPath, BIN, ...args]
  try {
    const out = await captureOutput(
      async () => {
        try {
          await run([...args], {root: ROOT})
        } catch (e) {
          error = e as InProcessResult['error']
          // What bin/run.js's execute() does with it: print it (nothing for an
          // ExitError) and exit with the status report() returns.
          exitCode = report(e)
        }
      },
      {stripAnsi: false},
    )
    return {stdout: out.stdout, stderr: out.stderr, exitCode, error}
  } finally {
    process.argv = savedArgv
    process.env = savedEnv
    process.chdir(savedCwd)
  }
}
