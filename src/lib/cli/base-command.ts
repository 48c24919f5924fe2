// JpCommand: the base of every jp command. It owns the global flags (SPEC §3)
// and lazily opens what a command needs from them.
//
//   static baseFlags   -c/--cfg KEY=VALUE|PATH (repeatable), --format auto|text|json, -w/--workspace-dir DIR
//                      (--workspace DIR: a hidden alias, except in `config set`, where --workspace is a switch)
//   this.parse(Cmd)    as in oclif; also records the global flags for the helpers below; a
//                      command line it cannot parse is a usage error (two lines, exit 2);
//                      then checks the configuration (see `configCheck`)
//   this.format()      'text' | 'json' (auto = text; NDJSON is only ever asked for explicitly)
//   this.workspace()   the Workspace (--workspace-dir, nearest .jp/, else the user default)
//   this.store()       the ConversationStore of that workspace; announces the default
//                      workspace on stderr the one time it gets created
//   this.loadConfig({conversationId?, onLayer?})  the merged Config, including that conversation's stored layer
//   this.activeConversation()  the active conversation's id, if it exists
//   this.fail(err)     prints any error as one line and exits 1 (config, workspace, storage, lock errors)
//   this.say(line)     one line of chrome on stderr
// Both pass the one sanitizer for untrusted text: messages quote ids, paths,
// config values and provider bodies.
//
// Loaders are imported inside the methods so `jp --help` stays cheap: keep the
// top-level imports to @oclif/core and types.
import {Command, Flags, type Interfaces} from '@oclif/core'
import {errorLine} from '../text/one-line.js'
import type {Config} from '../config/types.js'
import type {PartialConfig} from '../config/schema.js'
import type {ConversationStore} from '../conversation/store.js'
import type {Workspace} from '../conversation/workspace.js'
import type {CommandPlace} from './workspace-store.js'
import {sanitizeUntrusted} from '../text/untrusted.js'
import {failUsage, usageErrorFromParse} from './usage-error.js'
import type {OutputFormat} from '../printer/printer.js'

// Structurally the same as oclif's (not re-exported from its Interfaces namespace).
type FlagOutput = {[name: string]: any}
type ArgOutput = {[name: string]: any}

interface GlobalFlags {
  cfg?: string[]
  format?: string
  workspace?: string
}

/** Errors of the conversation store that name their file and say what to do: never a stack. */
const STORAGE_ERRORS = new Set(['SymlinkRefusedError', 'NotAFileError', 'CorruptFileError', 'WriteFailedError', 'ConversationNotFoundError', 'LockPathError', 'ConversationLockedError'])

/** The global `-w/--workspace-dir DIR`, with `aliases` (oclif's help does not show them). */
export function workspaceDirFlag(aliases: string[]) {
  return Flags.string({
    char: 'w',
    aliases,
    helpGroup: 'GLOBAL',
    helpValue: 'DIR',
    description: 'Use the workspace in DIR instead of the nearest .jp/ directory.',
  })
}

/**
 * When a command's configuration is checked: 'parse' — by `this.parse`,
 * before the command does anything (an unknown key or a wrong type in any
 * layer stops it with the one-line error, even when it uses no key);
 * 'command' — the command loads the config itself, as early; 'none' — it
 * never needs it (docs/configuration.md names these commands).
 */
export type ConfigCheck = 'parse' | 'command' | 'none'

export abstract class JpCommand extends Command {
  static configCheck: ConfigCheck = 'parse'

  static baseFlags = {
    cfg: Flags.string({
      char: 'c',
      multiple: true,
      // `jp query --cfg a.toml "the query"`: one value per --cfg, never the query.
      multipleNonGreedy: true,
      helpGroup: 'GLOBAL',
      helpValue: 'KEY=VALUE|PATH',
      description: 'Set a config value, or load a TOML config file (repeatable).',
    }),
    format: Flags.string({
      options: ['auto', 'text', 'json'],
      default: 'auto',
      helpGroup: 'GLOBAL',
      description: 'Output format (auto = text; json = NDJSON on stdout).',
    }),
    // One spelling in every command (`config set` has a --workspace switch of
    // its own); the old --workspace DIR stays as a hidden alias where it does not clash.
    'workspace-dir': workspaceDirFlag(['workspace']),
  }

  private globals: GlobalFlags = {}
  private cachedWorkspace?: Workspace
  private cachedStore?: ConversationStore

  protected override async parse<F extends FlagOutput, B extends FlagOutput, A extends ArgOutput>(
    options?: Interfaces.Input<F, B, A>,
    argv?: string[],
  ): Promise<Interfaces.ParserOutput<F, B, A>> {
    let out: Interfaces.ParserOutput<F, B, A>
    try {
      out = await super.parse(options, argv)
    } catch (error) {
      if ((error as {code?: string}).code === 'EEXIT') throw error
      const input = options ?? (this.ctor as unknown as Interfaces.Input<F, B, A>)
      failUsage(usageErrorFromParse(error, this.id, {flags: {...input.baseFlags, ...input.flags}, args: input.args}))
    }
    const flags = out.flags as {cfg?: string[]; format?: string; 'workspace-dir'?: string}
    this.globals = {cfg: flags.cfg, format: flags.format, workspace: flags['workspace-dir']}
    if ((this.ctor as unknown as {configCheck: ConfigCheck}).configCheck === 'parse') await this.checkConfig()
    return out
  }

  /** The `--cfg` arguments, in command-line order. */
  protected cfgArgs(): string[] {
    return this.globals.cfg ?? []
  }

  protected format(): OutputFormat {
    return this.globals.format === 'json' ? 'json' : 'text'
  }

  protected async workspace(): Promise<Workspace> {
    if (!this.cachedWorkspace) {
      const {commandWorkspace} = await import('./workspace-store.js')
      try {
        this.cachedWorkspace = await commandWorkspace(this.place())
      } catch (e) {
        this.fail(e)
      }
    }
    return this.cachedWorkspace
  }

  protected async store(): Promise<ConversationStore> {
    if (!this.cachedStore) {
      const ws = await this.workspace()
      const {openStore} = await import('./workspace-store.js')
      this.cachedStore = await openStore(ws, process.env, (line) => this.say(line))
    }
    return this.cachedStore
  }

  /** Where the command runs, as its global flags say (lib/cli/workspace-store.ts). */
  private place(): CommandPlace {
    return {cwd: process.cwd(), env: process.env, explicit: this.globals.workspace, cfgArgs: this.cfgArgs()}
  }

  /** The active conversation's id when it still exists (the conversation `jp query` would continue), else undefined. */
  protected async activeConversation(): Promise<string | undefined> {
    const store = await this.store()
    const id = await store.activeId()
    if (!id) return undefined
    const {existsSync} = await import('node:fs')
    return existsSync(store.paths(id).dir) ? id : undefined
  }

  /**
   * The conversation `id` names, else the active one, loaded; a missing
   * active conversation or a load error is the command's one-line failure.
   */
  protected async loadConversationOrActive(id: string | undefined): Promise<Awaited<ReturnType<ConversationStore['load']>>> {
    const store = await this.store()
    const chosen = id ?? (await store.activeId())
    if (!chosen) this.fail("no active conversation; pass an ID (see 'jp conversation ls')")
    try {
      return await store.load(chosen)
    } catch (e) {
      this.fail(e)
    }
  }

  /** The merged config. With `conversationId`, that conversation's base config and deltas are a layer. */
  protected async loadConfig(opts: {conversationId?: string; onLayer?: (layer: PartialConfig) => void} = {}): Promise<Config> {
    const workspace = await this.workspace()
    const store = opts.conversationId ? await this.store() : undefined
    const {loadWorkspaceConfig} = await import('../conversation/config.js')
    try {
      const notice = (line: string) => this.say(line)
      return await loadWorkspaceConfig({workspace, store, ...opts, cfgArgs: this.cfgArgs(), cwd: process.cwd(), env: process.env, notice})
    } catch (e) {
      this.fail(e)
    }
  }

  /** Loads the configuration (no conversation's layer) only to stop on a bad file; its notices are left to the commands that use it. */
  private async checkConfig(): Promise<void> {
    const workspace = await this.workspace()
    const {checkConfig} = await import('./workspace-store.js')
    try {
      await checkConfig(workspace, this.place())
    } catch (e) {
      this.fail(e)
    }
  }

  /**
   * Reports `e` (an Error or a message) as exactly one line on stderr,
   * `Error: ...`, and exits with `code` (1). oclif's own `this.error` wraps
   * long messages at the terminal width, which breaks the one-line contract and grep.
   */
  protected fail(e: unknown, code = 1): never {
    process.stderr.write(`Error: ${sanitizeUntrusted(errorLine(e))}\n`)
    this.exit(code)
  }

  /**
   * What escapes a command is printed by oclif as is — its flag and argument
   * errors quote the command line, which can hold pasted escape sequences:
   * the message passes the untrusted-text sanitizer first.
   */
  protected override async catch(err: Error & {exitCode?: number}): Promise<unknown> {
    // Storage refusals reach here from any command step: one line, as `fail` says them.
    if (STORAGE_ERRORS.has(err?.name)) this.fail(err)
    if (typeof err?.message === 'string') err.message = sanitizeUntrusted(err.message, {multiline: true})
    return super.catch(err)
  }

  /** One line of chrome on stderr, its untrusted parts (ids, paths, values) made safe for a terminal. */
  protected say(line: string): void {
    process.stderr.write(sanitizeUntrusted(line) + '\n')
  }
}
