// Which layer a configuration value came from (`jp config show --origin`,
// `jp config get --origin`): the last layer that sets the key (or a table or
// command string above it, as `editor.cmd` set as a string gives
// `editor.cmd.program`), else a provider's base-URL variable, else the
// built-in default.
import {envBaseUrl, providerSpec} from './providers.js'
import {isTable, type PartialConfig} from './schema.js'
import {layerOrigin} from './validate.js'

/** True when `layer` sets `path` or a non-table value above it. */
function sets(layer: unknown, path: readonly string[]): boolean {
  let v: unknown = layer
  for (const k of path) {
    if (!isTable(v)) return v !== undefined
    if (!Object.hasOwn(v, k)) return false
    v = v[k]
  }
  return v !== undefined
}

/** Where `path`'s value came from: a file path, `JP_CFG_*`, `--cfg`, `$OPENAI_BASE_URL`, or `default`. */
export function originOf(path: readonly string[], layers: readonly PartialConfig[], env: NodeJS.ProcessEnv): string {
  for (let i = layers.length - 1; i >= 0; i--) {
    if (sets(layers[i], path)) return layerOrigin(layers[i] as object)?.source ?? 'config'
  }
  const [a, b, name, key] = path
  const spec = a === 'providers' && b === 'llm' && key === 'base_url' && path.length === 4 ? providerSpec(name) : undefined
  if (spec && envBaseUrl(spec, env) !== undefined) return `$${spec.baseUrlEnv}`
  return 'default'
}
