// The merged configuration a command runs with: every layer of SPEC §4, with
// a conversation's stored config (its base config and `config_delta` events)
// as the layer between the workspace file and JP_CFG_*.
import {loadConfig} from '../config/load.js'
import {untrustedNotice} from '../config/trust.js'
import {isTrusted} from './trust-store.js'
import type {Config} from '../config/types.js'
import type {PartialConfig} from '../config/schema.js'
import {conversationConfig, type ConversationStore} from './store.js'
import type {Workspace} from './workspace.js'

export interface WorkspaceConfigOptions {
  workspace: Workspace
  /** Needed only with `conversationId`. */
  store?: ConversationStore
  conversationId?: string
  /** `--cfg` arguments in command-line order. */
  cfgArgs: readonly string[]
  cwd: string
  env: NodeJS.ProcessEnv
  /** One line on stderr: the keys an untrusted workspace tried to set. */
  notice: (line: string) => void
  /** Each layer above the defaults, lowest first (`jp config show --origin`). */
  onLayer?: (layer: PartialConfig) => void
}

/**
 * Loads the config; throws ConfigError (or a storage error) naming what is
 * wrong. An untrusted workspace (`jp trust`) cannot set the restricted keys
 * (docs/trust.md): they are dropped with one notice.
 */
export async function loadWorkspaceConfig(opts: WorkspaceConfigOptions): Promise<Config> {
  const {workspace} = opts
  let layer: unknown
  let source: string | undefined
  if (opts.conversationId && opts.store) {
    const conv = await opts.store.load(opts.conversationId)
    layer = await conversationConfig(opts.store, conv)
    source = opts.store.paths(conv.id).baseConfig
  }
  // The default workspace lives in the user's own data dir: trusted.
  const trusted = workspace.isDefault || (await isTrusted(workspace.root, opts.env))
  return loadConfig({
    cwd: opts.cwd,
    // The default workspace has no config file of its own.
    workspaceRoot: workspace.isDefault ? undefined : workspace.root,
    conversationConfig: layer,
    conversationConfigSource: source,
    cfgArgs: opts.cfgArgs,
    env: opts.env,
    workspaceTrusted: trusted,
    onIgnoredKeys: (keys) => opts.notice(untrustedNotice(workspace.root, keys)),
    onLayer: opts.onLayer,
  })
}
