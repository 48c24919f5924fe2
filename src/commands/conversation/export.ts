import {Args, Flags} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'

export default class ConversationExport extends JpCommand {
  static summary = 'Print a conversation as markdown or as its stored events'
  static description = `Markdown (the default): a heading per turn, the user's text quoted, the answers as stored (raw markdown), reasoning, attached files, tool calls and tool results in fenced blocks. JSON: the stored events, as one JSON array (what events.json holds once its journal is folded in).

Redirect it to keep it: 'jp conversation export > chat.md'.`

  static aliases = ['c:export']
  static args = {id: Args.string({description: 'Conversation id (default: the active one)', ignoreStdin: true})}
  static flags = {
    format: Flags.string({options: ['markdown', 'json'], default: 'markdown', description: 'markdown or json (the stored events).'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(ConversationExport)
    const conv = await this.loadConversationOrActive(args.id)
    const {conversationMarkdown} = await import('../../lib/conversation/export.js')
    const text = flags.format === 'json' ? JSON.stringify(conv.events, null, 2) + '\n' : conversationMarkdown(conv)
    // A file or a pipe gets the stored text byte for byte; a terminal never gets its control sequences.
    const {sanitizeUntrusted} = await import('../../lib/text/untrusted.js')
    process.stdout.write(process.stdout.isTTY ? sanitizeUntrusted(text, {multiline: true}) : text)
  }
}
