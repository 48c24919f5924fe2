// Configuration loading (SPEC §4): defaults < user file < workspace file <
// conversation config < JP_CFG_* environment < --cfg. Every layer is checked
// against one schema before it is merged, so an unknown key or a wrong type
// fails with a one-line error naming its source, line, column, key and the
// expected type. The pieces live by concern: ./schema.ts (keys and types),
// ./validate.ts and ./locate.ts (checks and error positions), ./parse.ts
// (TOML), ./merge.ts, ./layers.ts (files, JP_CFG_*, --cfg).
import {defaultConfig} from './defaults.js'
import {cfgArgLayer, envLayers, fileLayer, userConfigPath, workspaceLayers} from './layers.js'
import {mergeConfig, normalize} from './merge.js'
import type {Config} from './types.js'

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
  /**
   * False for a workspace the user has not trusted (`jp trust`): its file and
   * the conversation's stored layer (which lives in the workspace too) lose
   * the restricted keys of ./trust.ts. Default true; the CLI always decides.
   */
  workspaceTrusted?: boolean
  /** Told the dotted keys an untrusted workspace's layers tried to set (when there are any). */
  onIgnoredKeys?: (keys: string[]) => void
}

/** Loads and merges every layer. Throws ConfigError (one line) on any bad layer. */
export async function loadConfig(opts: LoadConfigOptions): Promise<Config> {
  const env = opts.env ?? process.env
  let config = defaultConfig(env)
  const user = await fileLayer(userConfigPath(env))
  config = mergeConfig(config, user)
  const workspace = await workspaceLayers({
    root: opts.workspaceRoot,
    conversationConfig: opts.conversationConfig,
    conversationConfigSource: opts.conversationConfigSource,
    trusted: opts.workspaceTrusted !== false,
  })
  for (const layer of workspace.layers) config = mergeConfig(config, layer)
  if (workspace.ignored.length > 0) opts.onIgnoredKeys?.(workspace.ignored)
  for (const layer of await envLayers(env, config)) config = mergeConfig(config, layer)
  for (const arg of opts.cfgArgs ?? []) config = mergeConfig(config, await cfgArgLayer(arg, opts.cwd))
  return normalize(config)
}
