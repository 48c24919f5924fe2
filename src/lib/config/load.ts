// Configuration loading (SPEC §4): defaults < user file < workspace file <
// conversation config < JP_CFG_* environment < --cfg. Every layer is checked
// against one schema before it is merged, so an unknown key or a wrong type
// fails with a one-line error naming its source, line, column, key and the
// expected type. The pieces live by concern: ./schema.ts (keys and types),
// ./validate.ts and ./locate.ts (checks and error positions), ./parse.ts
// (TOML), ./merge.ts, ./layers.ts (files, JP_CFG_*, --cfg).
import {defaultConfig} from './defaults.js'
import {conflictProblem, keyBindingConflicts} from './keymaps.js'
import {cfgArgLayer, envLayers, fileLayer, userConfigPath, workspaceLayers, type IgnoredSettings} from './layers.js'
import type {WorkspaceTrust} from './trust.js'
import {mergeConfig, normalize} from './merge.js'
import type {PartialConfig} from './schema.js'
import type {Config} from './types.js'
import {fail, layerOrigin} from './validate.js'

// The loader's helpers, where callers have always found them.
export {CONFIG_SCHEMA, type PartialConfig} from './schema.js'
export {formatKeyPath, parseKeyPath} from './locate.js'
export {parseConfigToml} from './parse.js'
export {mergeConfig} from './merge.js'
export {fileLayer, userConfigPath, type IgnoredSettings} from './layers.js'
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
  /** How the trust file names the conversation's layer (`conversations/ID`). */
  conversationTrustSource?: string
  /**
   * How far the user trusts the workspace (`jp trust`): its file and the
   * conversation's stored layer (which lives in the workspace too) lose the
   * restricted keys of ./trust.ts unless the trust covers them as they are.
   * Default 'all'; the CLI always decides. `workspaceTrusted` is the
   * yes/no shorthand ('all' / 'none').
   */
  workspaceTrust?: WorkspaceTrust
  workspaceTrusted?: boolean
  /** Told the dotted keys the workspace's layers tried to set and were ignored, and why (when there are any). */
  onIgnoredKeys?: (keys: string[], why: IgnoredSettings) => void
  /** Told each layer above the defaults as it is merged, lowest first (`validate.ts` layerOrigin says where it came from). */
  onLayer?: (layer: PartialConfig) => void
}

/** Loads and merges every layer. Throws ConfigError (one line) on any bad layer. */
export async function loadConfig(opts: LoadConfigOptions): Promise<Config> {
  const env = opts.env ?? process.env
  let config = defaultConfig(env)
  const merge = (layer: PartialConfig | undefined) => {
    if (layer !== undefined) opts.onLayer?.(layer)
    config = mergeConfig(config, layer)
    checkKeyBindings(config, layer)
  }
  merge(await fileLayer(userConfigPath(env)))
  const workspace = await workspaceLayers({
    root: opts.workspaceRoot,
    conversationConfig: opts.conversationConfig,
    conversationConfigSource: opts.conversationConfigSource,
    conversationTrustSource: opts.conversationTrustSource,
    trust: opts.workspaceTrust ?? (opts.workspaceTrusted === false ? 'none' : 'all'),
  })
  for (const layer of workspace.layers) merge(layer)
  if (workspace.ignored) opts.onIgnoredKeys?.(workspace.ignored.keys, workspace.ignored)
  for (const layer of await envLayers(env, config)) merge(layer)
  for (const arg of opts.cfgArgs ?? []) merge(await cfgArgLayer(arg, opts.cwd))
  return normalize(config)
}

/**
 * Key bindings that cannot work together (a key that starts a longer
 * sequence) are only visible once the layers are merged; the layer just
 * merged brought the conflict, so the error names its key in its file.
 */
function checkKeyBindings(config: Config, layer: PartialConfig | undefined): void {
  const own = layer?.editor?.inline?.keys
  if (!layer || !own) return
  const ctx = layerOrigin(layer) ?? {source: 'config'}
  for (const c of keyBindingConflicts(config.editor.inline.keys)) {
    const table = own[c.mode] ?? {}
    const at = (spec: string) => ['editor', 'inline', 'keys', c.mode, spec]
    if (Object.hasOwn(table, c.spec)) fail(ctx, at(c.spec), conflictProblem(c))
    const seq = c.shadowed.find((s) => Object.hasOwn(table, s))
    if (seq !== undefined) fail(ctx, at(seq), `is cut off by "${c.spec}", bound alone in an earlier configuration layer; bind "${c.spec}" to "none" here to use the sequence`)
  }
}
