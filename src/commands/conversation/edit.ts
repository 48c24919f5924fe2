import {Args, Flags} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'

export default class ConversationEdit extends JpCommand {
  static summary = "Edit a conversation's files in your editor, or set its title and pin"
  static description = `Opens the conversation's directory (or, with --events/--metadata/--base-config, those files of every ID) in one editor run. The files are checked when the editor exits: a cancelled editor or content that does not load back leaves the conversation exactly as it was (on a terminal you can re-open the editor to fix it).

--title and --pin/--no-pin change the metadata without an editor.`

  static aliases = ['c:e', 'c:edit']
  static strict = false
  static args = {id: Args.string({description: 'Conversation id(s) (default: the active one)', ignoreStdin: true})}
  static flags = {
    events: Flags.boolean({char: 'e', description: 'Edit events.json.'}),
    metadata: Flags.boolean({char: 'm', description: 'Edit metadata.json.'}),
    'base-config': Flags.boolean({char: 'b', description: 'Edit base_config.json.'}),
    title: Flags.string({description: 'Set the title (no editor).', helpValue: 'TEXT'}),
    pin: Flags.boolean({description: 'Pin (--no-pin: unpin) the conversation (no editor).', allowNo: true}),
  }

  async run(): Promise<void> {
    const {argv, flags} = await this.parse(ConversationEdit)
    const {runConversationEdit} = await import('../../lib/conversation-edit/run-edit.js')
    const request = {
      ids: argv as string[],
      files: {events: flags.events, metadata: flags.metadata, baseConfig: flags['base-config']},
      title: flags.title,
      pin: flags.pin,
    }
    const context = {workspace: await this.workspace(), store: await this.store(), cfgArgs: this.cfgArgs(), stderr: (line: string) => process.stderr.write(line + '\n')}
    try {
      await runConversationEdit(request, context)
    } catch (e) {
      this.fail(e)
    }
  }
}
