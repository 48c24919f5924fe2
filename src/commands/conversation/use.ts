import {Args} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'

export default class ConversationUse extends JpCommand {
  static summary = 'Make a conversation the active one'
  static description = `With no ID on a terminal, opens a list of the conversations (title, age, turns, the last query), most recent first: type to filter (fuzzy), Up/Down to move, Enter to choose, Esc to cancel.`
  static aliases = ['c:use']
  static args = {id: Args.string({description: 'Conversation id (on a terminal: omit it to pick from a list)', ignoreStdin: true})}

  async run(): Promise<void> {
    const {args} = await this.parse(ConversationUse)
    const store = await this.store()
    const id = args.id ?? (await this.pick())
    if (id === undefined) return
    try {
      // setActive stamps the conversation's metadata: only with its lock held.
      const {WRITER_LOCK_WAIT_MS} = await import('../../lib/conversation/lock.js')
      const release = await store.lock(id, {waitMs: WRITER_LOCK_WAIT_MS})
      try {
        await store.setActive(id)
      } finally {
        await release()
      }
    } catch (e) {
      this.fail(e)
    }
    this.say(`Active conversation: ${id}`)
  }

  /** The resume picker; undefined when Esc cancelled it. Without a terminal the ID is required. */
  private async pick(): Promise<string | undefined> {
    const {pickOutcome} = await import('../../lib/query/pick.js')
    let picked
    try {
      picked = await pickOutcome(await this.store())
    } catch (e) {
      this.fail(e)
    }
    if ('id' in picked) return picked.id
    if (picked.none === 'no-terminal') {
      const {failUsage, UsageError} = await import('../../lib/cli/usage-error.js')
      failUsage(new UsageError('missing argument ID (without a terminal there is no list to pick from)', 'conversation use'))
    }
    if (picked.none === 'interrupted') this.exit(130)
    this.say('No conversation chosen; the active one is unchanged.')
    return undefined
  }
}
