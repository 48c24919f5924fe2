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
      // setActive stamps the conversation's metadata: only with its lock held.
      const {WRITER_LOCK_WAIT_MS} = await import('../../lib/conversation/lock.js')
      const release = await store.lock(args.id, {waitMs: WRITER_LOCK_WAIT_MS})
      try {
        await store.setActive(args.id)
      } finally {
        await release()
      }
    } catch (e) {
      this.fail(e)
    }
    this.say(`Active conversation: ${args.id}`)
  }
}
