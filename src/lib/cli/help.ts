// jp's help (package.json `oclif.helpClass`): oclif's Help, with
//   - topic aliases: `jp c`, `jp c --help` and `jp help c` show the
//     `conversation` topic (oclif knows only the commands' aliases);
//   - an unknown subject (`jp help frob`, `jp frob --help`) as a usage error
//     with a suggestion, not oclif's "Command frob not found.";
//   - command aliases (`q`) left out of the root list (each command's own
//     help names them);
//   - the VERSION section in jp's form (version.ts).
// Used by `--help`/`-h`, `jp help [COMMAND...]` (@oclif/plugin-help) and the
// unknown-command hook.
import {Help, type Interfaces} from '@oclif/core'
import {standardizeIDFromArgv} from '@oclif/core/help'
import {topicAliases, unknownCommand} from './not-found.js'
import {failUsage} from './usage-error.js'
import {useVersionLine} from './version.js'

export class JpHelp extends Help {
  constructor(config: Interfaces.Config, opts: Partial<Interfaces.HelpOptions> = {}) {
    super(config, {hideAliasesFromRoot: true, ...opts})
    useVersionLine(config)
  }

  override async showHelp(argv: string[]): Promise<void> {
    const subject = this.subject(argv)
    if (subject !== undefined && !this.config.findCommand(subject) && !this.config.findTopic(subject)) {
      const topic = this.config.findTopic(topicAliases(this.config).get(subject) ?? '')
      if (topic) return this.showTopicHelp(topic)
      failUsage(unknownCommand(subject, this.config))
    }
    // oclif's Help skips the word `help`, which made `jp help -h` the root help.
    const help = subject === 'help' ? this.config.findCommand('help') : undefined
    if (help) return this.showCommandHelp(help)
    return super.showHelp(argv)
  }

  /** The command or topic `argv` asks about, as oclif's Help finds it (undefined: the root). */
  private subject(argv: string[]): string | undefined {
    const helpFlags = new Set(['--help', ...(this.config.pjson.oclif.additionalHelpFlags ?? [])])
    const words = standardizeIDFromArgv(
      argv.filter((a) => !helpFlags.has(a)),
      this.config,
    )
    for (const word of words) {
      if (word === '--' || word.startsWith('-')) return undefined
      return word
    }
    return undefined
  }
}
