// A configuration problem, reported as one line that names where it came from
// (file:line:column, an environment variable, or a --cfg argument), the dotted
// key and what was expected. Nothing runs on a broken config.
import {oneLine} from '../text/one-line.js'

export interface ConfigErrorDetails {
  /** File path, `JP_CFG_*` variable name, `--cfg ARG`, or another label. */
  source: string
  line?: number
  column?: number
  /** Dotted key path, when the problem is about one key. */
  key?: string
  /** The problem itself, e.g. `expected "emacs" | "vi", got "nano"`. */
  problem: string
}

export class ConfigError extends Error {
  readonly source: string
  readonly line?: number
  readonly column?: number
  readonly key?: string
  readonly problem: string

  constructor(details: ConfigErrorDetails) {
    super(formatConfigError(details))
    this.name = 'ConfigError'
    this.source = details.source
    this.line = details.line
    this.column = details.column
    this.key = details.key
    this.problem = details.problem
  }
}

export function formatConfigError(d: ConfigErrorDetails): string {
  let where = d.source
  if (d.line !== undefined) where += `:${d.line}:${d.column ?? 1}`
  const key = d.key ? `${d.key}: ` : ''
  return oneLine(`${where}: ${key}${d.problem}`)
}

/** True for a ConfigError from any copy of this module (commands may load from dist/, tests from src/). */
export function isConfigError(e: unknown): e is ConfigError {
  return e instanceof Error && e.name === 'ConfigError' && typeof (e as ConfigError).problem === 'string'
}
