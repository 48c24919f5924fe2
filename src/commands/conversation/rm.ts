import {Args} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'

export default class ConversationRm extends JpCommand {
  static summary = 'Delete a conversation'
  static description = 'Removes the conversation directory and its query draft. Fails if another jp process is using it.'
  static aliases = ['c:rm']
  static args = {id: Args.string({description: 'Conversation id', required: true, ignoreStdin: true})}

  async run(): Promise<void> {
    const {args} = await this.parse(ConversationRm)
    const store = await this.store()
    try {
      await store.remove(args.id)
    } catch (e) {
      this.fail(e)
    }
    this.say(`Removed conversation ${args.id}`)
  }
}
