import {Args} from '@oclif/core'
import {JpCommand} from '../lib/cli/base-command.js'
import {completionScript, completionTree, SHELLS, type CommandInfo, type Shell} from '../lib/cli/completion.js'
import {topicAliases} from '../lib/cli/not-found.js'

export default class Completion extends JpCommand {
  // The configuration: this command prints a shell script; runs on every Tab.
  static override configCheck = 'none' as const
  static summary = 'Print a shell completion script (bash, zsh or fish)'
  static description = `Prints a script that completes jp's commands, flags and flag values in SHELL. It is made from the commands installed now: print it again after installing a plugin.

  bash: add to ~/.bashrc    source <(jp completion bash)
  zsh:  add to ~/.zshrc     source <(jp completion zsh)      (after compinit)
  fish: run once            jp completion fish > ~/.config/fish/completions/jp.fish`

  static args = {shell: Args.string({description: 'The shell', options: [...SHELLS], required: true, ignoreStdin: true})}

  async run(): Promise<void> {
    const {args} = await this.parse(Completion)
    const topics = new Map(this.config.topics.map((t) => [t.name, t.description ?? '']))
    for (const [alias, topic] of topicAliases(this.config)) topics.set(alias, topics.get(topic) ?? '')
    const tree = completionTree(this.config.commands as unknown as CommandInfo[], topics, JpCommand.baseFlags)
    process.stdout.write(completionScript(args.shell as Shell, tree))
  }
}
