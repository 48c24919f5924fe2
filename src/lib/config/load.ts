// Configuration loading (SPEC §4): defaults < user file < workspace file <
// conversation config < JP_CFG_* environment < --cfg. Every layer is checked
// against one schema before it is merged, so an unknown key or a wrong type
// fails with a one-line error naming its source, line, column, key and the
// expected type. The pieces live by concern: ./schema.ts (keys and types),
// ./validate.ts and ./locate.ts (checks and error positions), ./parse.ts
// (TOML), ./merge.ts, ./layers.ts (files, JP_CFG_*, --cfg).
import {join} from 'node:path'
import {defaultConfig} from './defaults.js'
import {cfgArgLayer, envLayers, fileLayer, userConfigPath} from './layers.js'
import {mergeConfig, normalize} from './merge.js'
import type {Config} from './types.js'
import {validatePartial} from './validate.js'

// The loader's helpers, where callers have always found them.
export {CONFIG_SCHEMA, type PartialConfig} from './schema.js'
export {formatKeyPath, parseKeyPath} from './locate.js'
export {parseConfigToml} from './parse.js'
export {mergeConfig} from './merge.js'
export {userConfigPath} from './layers.js'
export {validatePartial} from './validate.js'

export interface LoadConfigOptions {
  cwd: string
  /** The workspace root (the directory holding `.jp/`); its `.jp/config.toml` is a layer. */
  workspaceRoot?: string
  /** The conversation's stored config (base config with its deltas folded in). */
  conversationConfig?: unknown
  /** Label for errors in `conversationConfig`, e.g. the path of base_config.json. */
  conversationConfigSource?: string
  /** `--cfg` arguments in command-line order. */
  cfgArgs?: readonly string[]
  env?: NodeJS.ProcessEnv
}

/** Loads and merges every layer. Throws ConfigError (one line) on any bad layer. */
export async function loadConfig(opts: LoadConfigOptions): Promise<Config> {
  const env = opts.env ?? process.env
  let config = defaultConfig(env)
  const user = await fileLayer(userConfigPath(env))
  config = mergeConfig(config, user)
  if (opts.workspaceRoot) config = mergeConfig(config, await fileLayer(join(opts.workspaceRoot, '.jp', 'config.toml')))
  if (opts.conversationConfig !== undefined) {
    const layer = validatePartial(opts.conversationConfig, opts.conversationConfigSource ?? 'conversation config')
    config = mergeConfig(config, layer)
  }
  for (const layer of await envLayers(env, config)) config = mergeConfig(config, layer)
  for (const arg of opts.cfgArgs ?? []) config = mergeConfig(config, await cfgArgLayer(arg, opts.cwd))
  return normalize(config)
}
