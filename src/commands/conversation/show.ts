import {Args} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'
import {untrustedJson} from '../../lib/text/untrusted.js'

export default class ConversationShow extends JpCommand {
  static summary = 'Print a conversation as readable text'
  static description =
    'Defaults to the active conversation. Each turn shows its queries, attached files, answers and tool calls, and ends with the tokens it used (when the provider reported them). With --format json, prints the stored events, one per line.'
  static aliases = ['c:show']
  static args = {id: Args.string({description: 'Conversation id (default: the active one)', ignoreStdin: true})}

  async run(): Promise<void> {
    const {args} = await this.parse(ConversationShow)
    const conv = await this.loadConversationOrActive(args.id)
    if (this.format() === 'json') {
      for (const e of conv.events) process.stdout.write(untrustedJson(e) + '\n')
      return
    }
    const tty = Boolean(process.stdout.isTTY)
    // On a terminal the answers render in the conversation's style, as `jp query` renders them.
    const style = tty ? (await this.loadConfig({conversationId: conv.id})).style : undefined
    const {renderTranscript} = await import('../../lib/conversation/transcript.js')
    process.stdout.write(await renderTranscript(conv, {tty, style, columns: process.stdout.columns}))
  }
}
