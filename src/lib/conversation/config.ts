// The merged configuration a command runs with: every layer of SPEC §4, with
// a conversation's stored config (its base config and `config_delta` events)
// as the layer between the workspace file and JP_CFG_*.
import {join} from 'node:path'
import {fileLayer, loadConfig} from '../config/load.js'
import {changedNotice, CONFIG_SOURCE, conversationSource, restrictedSettings, untrustedNotice, type SettingDigests, type TrustSource, type WorkspaceTrust} from '../config/trust.js'
import {trustRecord} from './trust-store.js'
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
 * (docs/trust.md), and a trusted one only as they were when it was trusted:
 * others are dropped with one notice.
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
  const trust: WorkspaceTrust = workspace.isDefault ? 'all' : ((await trustRecord(workspace.root, opts.env)) ?? 'none')
  return loadConfig({
    cwd: opts.cwd,
    // The default workspace has no config file of its own.
    workspaceRoot: workspace.isDefault ? undefined : workspace.root,
    conversationConfig: layer,
    conversationConfigSource: source,
    conversationTrustSource: opts.conversationId ? conversationSource(opts.conversationId) : undefined,
    cfgArgs: opts.cfgArgs,
    env: opts.env,
    workspaceTrust: trust,
    onIgnoredKeys: (keys, why) =>
      opts.notice(why.reason === 'untrusted' ? untrustedNotice(workspace.root, keys) : changedNotice(workspace.root, keys, why.sources, why.pathOnly)),
    onLayer: opts.onLayer,
  })
}

/**
 * What `jp trust` records for a workspace: the restricted settings of its
 * .jp/config.toml and of every conversation's stored config, as they are
 * now (layers that hold none are left out). A conversation that cannot be
 * read is skipped, told through `skipped`: its settings stay untrusted.
 */
export async function workspaceTrustSettings(
  workspace: Workspace,
  store: ConversationStore,
  skipped: (id: string, error: unknown) => void,
): Promise<Record<TrustSource, SettingDigests>> {
  const out: Record<TrustSource, SettingDigests> = {}
  const add = (source: TrustSource, layer: unknown) => {
    const digests = restrictedSettings(layer)
    if (Object.keys(digests).length > 0) out[source] = digests
  }
  add(CONFIG_SOURCE, await fileLayer(join(workspace.root, '.jp', 'config.toml')))
  for (const summary of await store.list()) {
    try {
      if (summary.error) throw new Error(summary.error)
      add(conversationSource(summary.id), await conversationConfig(store, await store.load(summary.id)))
    } catch (error) {
      skipped(summary.id, error)
    }
  }
  return out
}
