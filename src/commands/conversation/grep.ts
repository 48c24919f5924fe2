import {Args, Flags} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'

export default class ConversationGrep extends JpCommand {
  static summary = 'Search every conversation of the workspace'
  static description = `Finds PATTERN in the titles, queries, attached files, answers, reasoning, tool calls and tool results of every conversation, newest first. Prints each matching conversation as \`ID  TITLE\`, then each matching line with its turn number and role (user, assistant or tool). PATTERN is a literal string unless --regex is given. Exits 1 when nothing matches (as grep does).

With --format json, one JSON object per matching line: {id, title, turn, role, text, matches}.`

  static aliases = ['c:grep']
  static args = {pattern: Args.string({description: 'What to search for', required: true, ignoreStdin: true})}
  static flags = {
    regex: Flags.boolean({char: 'r', description: 'PATTERN is a regular expression (JavaScript syntax).'}),
    'ignore-case': Flags.boolean({char: 'i', description: 'Match without regard to case.'}),
    role: Flags.string({options: ['user', 'assistant', 'tool'], description: 'Only lines of this role (titles are then not searched).'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(ConversationGrep)
    const store = await this.store()
    const {grepConversations, isPatternError} = await import('../../lib/conversation/search.js')
    const {hitJson, hitText} = await import('../../lib/conversation/grep-output.js')
    const json = this.format() === 'json'
    const tty = Boolean(process.stdout.isTTY)
    // The printer (and the width tables it loads) only for a terminal: a piped search pays for none of it.
    const opts = {tty, color: tty && (await import('../../lib/printer/printer.js')).colorEnabled(process.env)}
    const query = {pattern: args.pattern, regex: flags.regex, ignoreCase: flags['ignore-case'], role: flags.role as 'user' | 'assistant' | 'tool' | undefined}
    let found = 0
    try {
      await grepConversations(
        store,
        query,
        (hit) => {
          process.stdout.write((json ? hitJson(hit) : hitText(hit, found === 0, opts)) + '\n')
          found++
        },
        (message) => this.say(`jp: skipped: ${message}`),
      )
    } catch (e) {
      if (isPatternError(e)) {
        const {failUsage, UsageError, typedCommand} = await import('../../lib/cli/usage-error.js')
        failUsage(new UsageError(e.message, typedCommand(this.id)))
      }
      this.fail(e)
    }
    if (found === 0) this.exit(1)
  }
}
