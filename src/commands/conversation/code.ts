import {Args, Flags} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'
import {failUsage, UsageError} from '../../lib/cli/usage-error.js'
import {sanitizeUntrusted} from '../../lib/text/untrusted.js'

export default class ConversationCode extends JpCommand {
  static summary = "Print a code block of the last answer, as written (for a pipe: jp c code | sh)"
  static description =
    'N counts the code blocks of the last answer from 1 (default: the last one). Prints the block\'s text and nothing else; --all prints every block, a blank line between them; --list prints each block\'s number, language and first line. A single number as the only argument is N, not an ID.'
  static aliases = ['c:code']
  static args = {
    id: Args.string({description: 'Conversation id (default: the active one)', ignoreStdin: true}),
    n: Args.string({description: 'Which code block, from 1 (default: the last)', ignoreStdin: true}),
  }
  static flags = {
    list: Flags.boolean({char: 'l', description: "List the blocks: number, language, first line", exclusive: ['all']}),
    all: Flags.boolean({char: 'a', description: 'Every block, a blank line between them', exclusive: ['list']}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(ConversationCode)
    // `jp c code 2`: a lone number is the block, not a conversation.
    const [idArg, nArg] = args.n === undefined && args.id !== undefined && /^\d+$/.test(args.id) ? [undefined, args.id] : [args.id, args.n]
    if (nArg !== undefined && !/^[1-9]\d*$/.test(nArg)) failUsage(new UsageError(`N must be a number from 1, not "${nArg}"`, 'conversation code'))
    const conv = await this.loadConversationOrActive(idArg)
    const {lastAnswer} = await import('../../lib/conversation/last-answer.js')
    const {codeBlocks} = await import('../../lib/markdown/code-blocks.js')
    const blocks = lastAnswer(conv.events).flatMap((text) => codeBlocks(text))
    // Model text: made safe when it goes to a terminal, byte for byte into a pipe.
    const clean = process.stdout.isTTY ? (s: string) => sanitizeUntrusted(s, {multiline: true}) : (s: string) => s
    if (flags.list) {
      const lang = (info: string) => info.split(/\s/)[0] || '-'
      const width = blocks.reduce((w, b) => Math.max(w, lang(b.info).length), 0)
      const line = (b: (typeof blocks)[number], k: number) => `${String(k + 1).padStart(String(blocks.length).length)}  ${lang(b.info).padEnd(width)}  ${b.text.split('\n')[0]}`
      process.stdout.write(blocks.map((b, k) => (process.stdout.isTTY ? sanitizeUntrusted(line(b, k)) : line(b, k)) + '\n').join(''))
      return
    }
    if (blocks.length === 0) this.fail(`the last answer of ${sanitizeUntrusted(conv.id)} has no code block`)
    if (flags.all) {
      process.stdout.write(clean(blocks.map((b) => b.text).join('\n')))
      return
    }
    const n = nArg === undefined ? blocks.length : Number(nArg)
    if (n > blocks.length) this.fail(`no code block ${n} in the last answer of ${sanitizeUntrusted(conv.id)} (it has ${blocks.length}; see jp conversation code --list)`)
    process.stdout.write(clean(blocks[n - 1].text))
  }
}
