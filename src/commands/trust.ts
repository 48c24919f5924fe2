import {Args, Flags} from '@oclif/core'
import {JpCommand} from '../lib/cli/base-command.js'
import {sanitizeUntrusted, untrustedJson} from '../lib/text/untrusted.js'

export default class Trust extends JpCommand {
  static summary = "Trust a workspace's configuration (or --revoke, --list)"
  static description = `Until you trust it, a workspace's .jp/config.toml (and the config stored with its conversations) cannot set providers.* (base_url, api_key_env), editor.cmd / envs / backend or conversation.tools: those keys are ignored, with a notice naming them. Trust is recorded by path in your user data dir. 'jp init' trusts the workspace it creates. Your own config, --cfg and JP_CFG_* are always trusted.`

  static examples = ['<%= config.bin %> trust', '<%= config.bin %> trust ~/src/project', '<%= config.bin %> trust --revoke ~/src/project', '<%= config.bin %> trust --list']

  static args = {dir: Args.string({description: 'Workspace directory (default: the current workspace)', ignoreStdin: true})}

  static flags = {
    revoke: Flags.boolean({description: 'Stop trusting the workspace', exclusive: ['list']}),
    list: Flags.boolean({description: 'List the trusted workspace roots, one per line (--format json: {path, trusted_at} per line)', exclusive: ['revoke']}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Trust)
    const store = await import('../lib/conversation/trust-store.js')
    if (flags.list) {
      if (args.dir !== undefined) this.fail('--list takes no DIR')
      const list = await store.listTrusted(process.env).catch((e: unknown) => this.fail(e))
      if (this.format() === 'json') {
        for (const w of list) process.stdout.write(untrustedJson({path: w.path, trusted_at: w.trusted_at}) + '\n')
        return
      }
      if (list.length === 0) this.say('No trusted workspaces.')
      for (const w of list) process.stdout.write(sanitizeUntrusted(w.path) + '\n')
      return
    }
    const root = await this.target(args.dir, flags.revoke)
    if (flags.revoke) {
      const removed = await store.revokeWorkspace(root, process.env).catch((e: unknown) => this.fail(e))
      this.say(removed ? `No longer trusted: ${root}` : `${root} was not trusted`)
      return
    }
    const added = await store.trustWorkspace(root, process.env).catch((e: unknown) => this.fail(e))
    this.say(added ? `Trusted ${root}: its .jp/config.toml may now set providers, the editor and tools` : `${root} is already trusted`)
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
