import {Args, Flags} from '@oclif/core'
import {JpCommand} from '../lib/cli/base-command.js'
import {sanitizeUntrusted, untrustedJson} from '../lib/text/untrusted.js'

export default class Trust extends JpCommand {
  static summary = "Trust a workspace's configuration (or --revoke, --list)"
  static description = `Until you trust it, a workspace's .jp/config.toml (and the config stored with its conversations) cannot set providers.* (base_url, api_key_env), editor.cmd / envs / backend or conversation.tools: those keys are ignored, with a notice naming them. Trust records the workspace's real path and a digest of each of those settings as they are now; when one changes, it is ignored again until you run jp trust again. Unrestricted keys (the model, prompts) change freely. 'jp init' trusts the workspace it creates. Your own config, --cfg and JP_CFG_* are always trusted.`

  static examples = ['<%= config.bin %> trust', '<%= config.bin %> trust ~/src/project', '<%= config.bin %> trust --revoke ~/src/project', '<%= config.bin %> trust --list']

  static args = {dir: Args.string({description: 'Workspace directory (default: the current workspace)', ignoreStdin: true})}

  static flags = {
    revoke: Flags.boolean({description: 'Stop trusting the workspace', exclusive: ['list']}),
    list: Flags.boolean({
      description: 'List the trusted workspace roots and the settings each trust covers (--format json: {path, trusted_at, covers} per line)',
      exclusive: ['revoke'],
    }),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Trust)
    const store = await import('../lib/conversation/trust-store.js')
    if (flags.list) {
      if (args.dir !== undefined) this.fail('--list takes no DIR')
      const list = await store.listTrusted(process.env).catch((e: unknown) => this.fail(e))
      const covers = (w: (typeof list)[number]) =>
        w.settings === undefined ? null : Object.fromEntries(Object.entries(w.settings).map(([source, d]) => [source, Object.keys(d).sort()]))
      if (this.format() === 'json') {
        for (const w of list) process.stdout.write(untrustedJson({path: w.path, trusted_at: w.trusted_at, covers: covers(w)}) + '\n')
        return
      }
      if (list.length === 0) this.say('No trusted workspaces.')
      for (const w of list) {
        const lines = [w.path]
        const c = covers(w)
        if (c === null) lines.push('  (recorded by an older jp: the path only, no settings)')
        else for (const [source, keys] of Object.entries(c)) lines.push(`  ${source}: ${keys.join(', ')}`)
        process.stdout.write(lines.map((l) => sanitizeUntrusted(l)).join('\n') + '\n')
      }
      return
    }
    const root = await this.target(args.dir, flags.revoke)
    if (flags.revoke) {
      const removed = await store.revokeWorkspace(root, process.env).catch((e: unknown) => this.fail(e))
      this.say(removed ? `No longer trusted: ${root}` : `${root} was not trusted`)
      return
    }
    const settings = await this.currentSettings(root)
    const {status, accepted} = await store.trustWorkspace(root, settings, process.env).catch((e: unknown) => this.fail(e))
    const which = accepted.length > 0 ? ` (${accepted.length > 6 ? [...accepted.slice(0, 6), `${accepted.length - 6} more`].join(', ') : accepted.join(', ')})` : ''
    if (status === 'added') this.say(`Trusted ${root}: its .jp/ may now set providers, the editor and tools, as they are now${which}`)
    else if (status === 'updated') this.say(`Trusted ${root} again, as it is now${which}`)
    else this.say(`${root} is already trusted, as it is now`)
  }

  /** The restricted settings the workspace at `root` holds now (its config file and each conversation's stored config). */
  private async currentSettings(root: string) {
    const {findWorkspace} = await import('../lib/conversation/workspace.js')
    const {ConversationStore} = await import('../lib/conversation/store.js')
    const {workspaceTrustSettings} = await import('../lib/conversation/config.js')
    try {
      const ws = await findWorkspace({cwd: root, explicit: root, env: process.env})
      return await workspaceTrustSettings(ws, new ConversationStore(ws, {env: process.env}), (id, error) =>
        this.say(`jp: conversation ${id} could not be read, so its settings are not trusted: ${error instanceof Error ? error.message : String(error)}`),
      )
    } catch (e) {
      this.fail(e)
    }
  }

  /** The workspace root DIR belongs to (nearest .jp/ at or above it), else the current workspace. */
  private async target(dir: string | undefined, revoking: boolean): Promise<string> {
    const {resolve} = await import('node:path')
    if (dir === undefined) {
      const ws = await this.workspace()
      if (ws.isDefault) this.fail("no .jp/ workspace here (the default workspace is always trusted); pass a DIR or run 'jp init'")
      return ws.root
    }
    const {findWorkspace} = await import('../lib/conversation/workspace.js')
    const ws = await findWorkspace({cwd: resolve(dir), env: process.env})
    if (!ws.isDefault) return ws.root
    // A workspace that was deleted can still be forgotten by its path.
    if (revoking) return resolve(dir)
    this.fail(`no .jp/ workspace in ${resolve(dir)} or above; create one with 'jp init'`)
  }
}
