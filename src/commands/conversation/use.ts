import {Args} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'

export default class ConversationUse extends JpCommand {
  static summary = 'Make a conversation the active one'
  static description = `With no ID on a terminal, opens a list of the conversations (title, age, turns, the last query), most recent first: type to filter (fuzzy), Up/Down to move, Enter to choose, Esc to cancel.`
  static aliases = ['c:use']
  static args = {id: Args.string({description: 'Conversation id (on a terminal: omit it to pick from a list)', ignoreStdin: true})}

  async run(): Promise<void> {
    const {args} = await this.parse(ConversationUse)
    const {useConversation, NO_TERMINAL_MESSAGE} = await import('../../lib/cli/use-conversation.js')
    // The same call as the picker's lean start-up (lib/cli/pick-first.ts).
    await useConversation(await this.store(), args.id, {
      say: (line) => this.say(line),
      fail: (e) => this.fail(e),
      exit: (code) => this.exit(code),
      async noTerminal(): Promise<never> {
        const {failUsage, UsageError} = await import('../../lib/cli/usage-error.js')
        return failUsage(new UsageError(NO_TERMINAL_MESSAGE, 'conversation use'))
      },
    })
  }
}
