import {Args, Flags} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'

export default class ConversationFork extends JpCommand {
  static summary = 'Copy a conversation up to a turn into a new, active conversation'
  static description = `Copies the events of ID (default: the active conversation) up to and including turn TURN (default: every turn) into a new conversation, which becomes the active one. The new conversation records its parent ('jp conversation show' names it); the parent is not changed. Tool calls and their results are copied as they were recorded, never run again.

'jp query --fork[=ID[@TURN]] QUERY' forks and asks in one step.`

  static aliases = ['c:fork']
  static args = {id: Args.string({description: 'Conversation id (default: the active one)', ignoreStdin: true})}
  static flags = {
    at: Flags.integer({helpValue: 'TURN', min: 1, description: 'The last turn to copy (default: all; see the turn numbers in `jp conversation grep`).'}),
    title: Flags.string({helpValue: 'TEXT', description: "The new conversation's title (default: the parent's)."}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(ConversationFork)
    const store = await this.store()
    const {forkConversation} = await import('../../lib/conversation/fork.js')
    let forked
    try {
      forked = await forkConversation(store, {id: args.id, at: flags.at, title: flags.title})
    } catch (e) {
      this.fail(e)
    }
    this.say(`Forked ${forked.parent} at turn ${forked.turn}: active conversation ${forked.id}`)
    if (this.format() === 'json') process.stdout.write(JSON.stringify(forked) + '\n')
  }
}
