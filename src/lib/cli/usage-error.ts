// Usage errors (SPEC §18 "CLI conventions"): a command line jp cannot parse
// — an unknown command or flag, a missing or extra argument, a bad flag
// value — is reported as exactly two lines on stderr and exit 2:
//
//   Error: unknown flag --nwe; did you mean --new?
//   See 'jp query --help'.
//
// `usageErrorText` is the one formatter of those lines; every path that
// reports a usage error (the commands' parser, the unknown-command hook, the
// help command, the top-level catch for oclif's own plugins) goes through it.
// What the user typed is quoted in the message, so the whole line passes the
// untrusted-text sanitizer: a pasted escape sequence is shown, never sent.
import {Errors} from '@oclif/core'
import {oneLine} from '../text/one-line.js'
import {sanitizeUntrusted} from '../text/untrusted.js'
import {nearest} from '../text/nearest.js'

/** The exit status of a usage error (as git, gh and oclif use it); every other error exits 1. */
export const USAGE_EXIT = 2

/** A command line jp cannot run, with the command whose help explains it ('' = jp itself). */
export class UsageError extends Error {
  override name = 'UsageError'
  constructor(
    message: string,
    /** The command in its typed form, `conversation rm`; '' for jp itself. */
    readonly command: string,
  ) {
    super(message)
  }
}

/** The command id as typed: oclif's `conversation:rm` → `conversation rm`. */
export function typedCommand(id: string | undefined): string {
  return (id ?? '').split(':').filter(Boolean).join(' ')
}

/** The two lines of a usage error, each ending in a newline. */
export function usageErrorText(error: UsageError): string {
  const help = ['jp', error.command].filter(Boolean).join(' ')
  return `Error: ${sanitizeUntrusted(oneLine(error.message))}\nSee '${sanitizeUntrusted(help)} --help'.\n`
}

/** Prints the usage error's two lines on stderr and ends the command with exit 2 (oclif's ExitError). */
export function failUsage(error: UsageError): never {
  process.stderr.write(usageErrorText(error))
  Errors.exit(USAGE_EXIT)
}

/** `'text'` quoted for a message, its control characters made visible. */
export function quote(text: string): string {
  return `'${sanitizeUntrusted(text)}'`
}

/** What a command declares, for naming flags and arguments in a message. */
export interface CommandShape {
  flags?: Record<string, {char?: string; options?: readonly string[]; allowNo?: boolean; hidden?: boolean}>
  args?: Record<string, {options?: readonly string[]}>
}

const SEE_MORE = /\s*See more help with --help\s*$/

/**
 * oclif's parser errors (each class recognised by name: the parser may be
 * another copy of @oclif/core than this module's) as one usage error naming
 * the flag or argument. `command` is the oclif id.
 */
export function usageErrorFromParse(error: unknown, command: string | undefined, shape: CommandShape = {}): UsageError {
  const typed = typedCommand(command)
  return new UsageError(parseProblem(error, shape), typed)
}

function parseProblem(error: unknown, shape: CommandShape): string {
  const e = error as {constructor?: {name?: string}; message?: string; flags?: string[]; args?: unknown[]}
  const message = String(e?.message ?? error).replace(SEE_MORE, '')
  switch (e?.constructor?.name) {
    case 'NonExistentFlagsError': {
      const flags = e.flags ?? []
      const [first] = flags
      const hint = flags.length === 1 && first.startsWith('--') ? nearest(first, longFlags(shape)) : undefined
      return `unknown flag${flags.length === 1 ? '' : 's'} ${flags.map((f) => sanitizeUntrusted(f)).join(', ')}${hint ? `; did you mean ${hint}?` : ''}`
    }
    case 'UnexpectedArgsError':
      return `unexpected argument${e.args?.length === 1 ? '' : 's'} ${(e.args as string[]).map(quote).join(', ')}`
    case 'RequiredArgsError':
      return `missing argument${e.args?.length === 1 ? '' : 's'} ${(e.args as {name: string}[]).map((a) => a.name.toUpperCase()).join(', ')}`
    case 'FlagInvalidOptionError':
      return invalidOption(message, shape) ?? oclifText(message)
    case 'ArgInvalidOptionError':
      return invalidArgOption(message, shape) ?? oclifText(message)
    case 'FailedFlagValidationError':
    case 'ViolatedFlagConstraintError':
      return reasons(message)
    default:
      return oclifText(message)
  }
}

function longFlags(shape: CommandShape): string[] {
  const names: string[] = []
  for (const [name, flag] of Object.entries(shape.flags ?? {})) {
    if (flag.hidden) continue
    names.push(`--${name}`)
    if (flag.allowNo) names.push(`--no-${name}`)
  }
  return names
}

/** `Expected --format=yaml to be one of: auto, text, json` → `--format: invalid value 'yaml' (expected auto, text or json)`. */
function invalidOption(message: string, shape: CommandShape): string | undefined {
  const m = /^Expected --([^=\s]+)=/.exec(message)
  const flag = m ? shape.flags?.[m[1]] : undefined
  if (!m || !flag?.options) return undefined
  const tail = ` to be one of: ${flag.options.join(', ')}`
  const end = message.lastIndexOf(tail)
  if (end < m[0].length) return undefined
  return `--${m[1]}: invalid value ${quote(message.slice(m[0].length, end))} (expected ${alternatives(flag.options)})`
}

/** `Expected x to be one of: bash, zsh, fish` → `SHELL: invalid value 'x' (expected bash, zsh or fish)`. */
function invalidArgOption(message: string, shape: CommandShape): string | undefined {
  for (const [name, arg] of Object.entries(shape.args ?? {})) {
    if (!arg.options) continue
    const tail = ` to be one of: ${arg.options.join(', ')}`
    if (message.startsWith('Expected ') && message.endsWith(tail)) {
      return `${name.toUpperCase()}: invalid value ${quote(message.slice('Expected '.length, -tail.length))} (expected ${alternatives(arg.options)})`
    }
  }
  return undefined
}

function alternatives(options: readonly string[]): string {
  return options.length < 2 ? options.join('') : `${options.slice(0, -1).join(', ')} or ${options.at(-1)}`
}

/**
 * The reasons of a failed flag relation, one line: oclif's "The following
 * error occurred:" header and dim colouring dropped; an exclusive pair named
 * without the value that was given (`--id cannot be used with --new`).
 */
function reasons(message: string): string {
  const lines = message
    .replace(/\u001b\[(?:2|22)m/g, '')
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => l.replace(/^--([\w-]+)=.* cannot also be provided when using --([\w-]+)$/, '--$1 cannot be used with --$2'))
  return lines.join('; ') || oclifText(message)
}

/** Any other parser message on one line, starting in lower case as jp's errors do (`flag --model expects a value`). */
function oclifText(message: string): string {
  const text = oneLine(message.replace(/^Parsing (--[\w-]+)\s+/, '$1: '))
  return text.replace(/^(Flag|Unexpected|Missing|Expected) /, (w) => w.toLowerCase())
}
