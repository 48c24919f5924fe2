// TOML text → a validated configuration layer. smol-toml is imported lazily
// (start-up cost: `jp --help` must not load it).
import {ConfigError} from './errors.js'
import type {PartialConfig} from './schema.js'
import {validatePartial} from './validate.js'

/** Parses and validates a TOML config document; errors name `source:line:column`. */
export async function parseConfigToml(text: string, source: string): Promise<PartialConfig> {
  const {parse, TomlError} = await import('smol-toml')
  let doc: unknown
  try {
    doc = parse(text)
  } catch (e) {
    if (e instanceof TomlError) {
      const problem = e.message.split('\n')[0].replace(/^Invalid TOML document:\s*/, '')
      throw new ConfigError({source, line: e.line, column: e.column, problem: `invalid TOML: ${problem}`})
    }
    throw e
  }
  return validatePartial(doc, source, {text})
}

/** Parses a value as a TOML value (`true`, `2`, `"x"`, `["a"]`, `{...}`), else keeps the bare string. */
export async function parseValue(raw: string): Promise<unknown> {
  const {parse} = await import('smol-toml')
  try {
    return parse(`v = ${raw}`).v
  } catch {
    return raw
  }
}
