import {Args} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'

export default class ConversationUse extends JpCommand {
  static summary = 'Make a conversation the active one'
  static aliases = ['c:use']
  static args = {id: Args.string({description: 'Conversation id', required: true, ignoreStdin: true})}

  async run(): Promise<void> {
    const {args} = await this.parse(ConversationUse)
    const store = await this.store()
    try {
      await store.setActive(args.id)
    } catch (e) {
      this.fail(e)
    }
    this.say(`Active conversation: ${args.id}`)
  }
}
