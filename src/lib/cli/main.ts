// jp's `execute` (what bin/run.js calls): oclif's run, with jp's rule for
// whatever escapes a command instead of oclif's multi-line ` ›   Error:`
// block followed by the whole usage text:
//   - a usage error oclif's parser raised for a command that is not jp's own
//     (`jp plugins install --bogus`): the two usage-error lines, exit 2;
//   - any other error: one line `Error: ...` on stderr, exit 1 (or the exit
//     status the error carries);
//   - an exit a command asked for (oclif's ExitError): that status, silently.
// jp's own commands report their errors themselves (JpCommand.fail, failUsage).
import {run} from '@oclif/core'
import {errorLine} from '../text/one-line.js'
import {sanitizeUntrusted} from '../text/untrusted.js'
import {USAGE_EXIT, usageErrorFromParse, usageErrorText, type CommandShape} from './usage-error.js'

export async function execute(options: {args?: string[]; dir: string}): Promise<unknown> {
  try {
    // (oclif's execute also starts a flush() of stdout it never awaits; a
    // reader that closed the pipe would leave it pending forever.)
    return await run(options.args ?? process.argv.slice(2), options.dir)
  } catch (error) {
    return process.exit(report(error))
  }
}

interface OclifError {
  code?: string
  oclif?: {exit?: number}
  parse?: {input?: CommandShape & {context?: {id?: string}}}
  stack?: string
}

/** Writes what `error` says to stderr and returns the exit status. */
export function report(error: unknown): number {
  const e = (error ?? {}) as OclifError
  if (e.code === 'EEXIT') return e.oclif?.exit ?? 0
  if (e.parse !== undefined) {
    // oclif's CLIParseError; its option errors carry an empty `parse`.
    process.stderr.write(usageErrorText(usageErrorFromParse(error, e.parse.input?.context?.id, e.parse.input)))
    return USAGE_EXIT
  }
  process.stderr.write(`Error: ${sanitizeUntrusted(errorLine(error))}\n`)
  if (process.env.DEBUG && e.stack) process.stderr.write(`${e.stack}\n`)
  const code = e.oclif?.exit
  return typeof code === 'number' && code !== 0 ? code : 1
}
