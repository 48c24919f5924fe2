import {Args, Flags} from '@oclif/core'
import {JpCommand, workspaceDirFlag} from '../../lib/cli/base-command.js'
import {configKeyArg} from '../../lib/cli/config-key.js'

export default class ConfigSet extends JpCommand {
  // The configuration: this command checks the file it writes as loaded, and can repair a wrong value in it.
  static override configCheck = 'none' as const
  static summary = 'Set one configuration key in your user config or the workspace config'
  static description = `Writes KEY = VALUE into a config.toml, keeping its comments, order and other values. VALUE is read as -c KEY=VALUE reads it: a key that takes a string takes the text as typed; any other key parses it as a TOML value (3, true, ["VISUAL"], {program = "code", args = ["--wait"]}). The file must load afterwards, or nothing is written.

Without --user or --workspace: the workspace's .jp/config.toml inside a workspace of your own, else your user config. A workspace you have not trusted (jp trust) cannot be given the keys jp ignores there (providers, editor.cmd, editor.envs, editor.backend, conversation.tools).`

  static examples = [
    '<%= config.bin %> config set assistant.model.id anthropic/claude-sonnet-4-5',
    '<%= config.bin %> config set --user editor.cmd "code --wait"',
    '<%= config.bin %> config set interrupt.escalation_cooldown_secs 3',
  ]

  static args = {
    key: Args.string({description: 'A dotted key, e.g. assistant.model.id', required: true, ignoreStdin: true}),
    value: Args.string({description: 'Its value', required: true, ignoreStdin: true}),
  }

  // --workspace here is the switch SPEC §18 names, so the global -w/--workspace-dir DIR has no --workspace alias.
  static baseFlags = {
    ...JpCommand.baseFlags,
    'workspace-dir': workspaceDirFlag([]),
  }

  static flags = {
    user: Flags.boolean({description: 'Write your user config (~/.config/jp/config.toml).', exclusive: ['workspace']}),
    workspace: Flags.boolean({description: "Write the workspace's .jp/config.toml.", exclusive: ['user']}),
  }

  async run(): Promise<void> {
    const parsed = await this.parse(ConfigSet)
    const args = parsed.args
    const flags = parsed.flags
    const path = await configKeyArg(args.key, this.id ?? 'config:set')
    const workspace = await this.workspace()
    const {defaultTarget, setConfigValue} = await import('../../lib/conversation/config-file.js')
    const target = flags.user ? 'user' : flags.workspace ? 'workspace' : defaultTarget(workspace)
    try {
      const file = await setConfigValue({path, raw: args.value, target, workspace, env: process.env})
      this.say(`jp: set ${args.key} in ${file}`)
    } catch (e) {
      this.fail(e)
    }
  }
}
