// Merging layers: tables merge key by key, every other value (arrays and the
// `{program, args, shell}` command table included) replaces what was below.
import {CONFIG_SCHEMA, isTable, type PartialConfig, type Schema} from './schema.js'
import type {Config, ToolConfig} from './types.js'

/** Deep-merges a validated layer over `base` (tables merge key by key; other values, arrays and `cmd` replace). */
export function mergeConfig<T extends object>(base: T, partial: PartialConfig | Record<string, unknown> | undefined): T {
  return mergeAt(CONFIG_SCHEMA, base, partial) as T
}

function mergeAt(s: Schema | undefined, base: unknown, over: unknown): unknown {
  if (over === undefined) return base
  if (s && (s.kind === 'table' || s.kind === 'map') && isTable(base) && isTable(over)) {
    const out: Record<string, unknown> = {...base}
    for (const [k, v] of Object.entries(over)) {
      const child = s.kind === 'map' ? s.values : Object.hasOwn(s.fields, k) ? s.fields[k] : undefined
      out[k] = mergeAt(child, base[k], v)
    }
    return out
  }
  return structuredClone(over)
}

/** Fills the optional parts of `{program, args, shell}` tables so readers see the full CommandConfig. */
export function normalize(config: Config): Config {
  const fill = (c: unknown) => (isTable(c) ? {args: [], shell: false, ...c} : c)
  if (config.editor.cmd !== undefined) config.editor.cmd = fill(config.editor.cmd) as Config['editor']['cmd']
  for (const tool of Object.values(config.conversation.tools)) {
    if (tool.command !== undefined) tool.command = fill(tool.command) as ToolConfig['command']
  }
  return config
}
