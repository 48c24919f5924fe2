import {Args, Flags} from '@oclif/core'
import {JpCommand} from '../lib/cli/base-command.js'

export default class Query extends JpCommand {
  // The configuration: this command loads it before anything else.
  static override configCheck = 'command' as const
  static summary = 'Ask the assistant'
  static description = `Sends QUERY (and anything piped on stdin) to the model, streams the answer to stdout, and runs the tools the model calls.

With no QUERY on a terminal, the query is composed in an inline prompt (Ctrl+X: in your editor; query.compose_in_editor = true: editor first). Press Ctrl+C while the answer streams to continue, reply, stop or abort.`

  static aliases = ['q']
  static strict = false
  static args = {
    query: Args.string({description: 'The query (several words are joined with spaces)', required: false, ignoreStdin: true}),
  }

  static flags = {
    new: Flags.boolean({char: 'n', description: 'Start a new conversation.'}),
    id: Flags.string({description: 'Continue the conversation with this id.', exclusive: ['new']}),
    fork: Flags.string({
      helpValue: 'ID[@TURN]',
      description: 'Ask in a fork: a copy of conversation ID (default: the active one) up to turn TURN (default: all), made active. Write the value with `=` (`--fork=ID@2`); a bare --fork forks the active conversation.',
      exclusive: ['new', 'id'],
    }),
    resume: Flags.boolean({description: 'Pick the conversation to continue from a list (a terminal is needed), and make it active.', exclusive: ['new', 'id', 'fork']}),
    model: Flags.string({char: 'm', helpValue: 'PROVIDER/MODEL', description: 'The model to use for this query.'}),
    tool: Flags.string({char: 't', multiple: true, multipleNonGreedy: true, helpValue: 'NAME', description: 'Enable a tool (and consent to run it without a terminal).'}),
    'no-tool': Flags.string({char: 'T', multiple: true, multipleNonGreedy: true, helpValue: 'NAME', description: 'Disable a tool.'}),
    edit: Flags.boolean({char: 'e', description: 'Compose the query in your editor, even with QUERY given.', exclusive: ['no-edit']}),
    'no-edit': Flags.boolean({char: 'E', description: 'Never open the editor.'}),
    attach: Flags.string({
      char: 'a',
      multiple: true,
      multipleNonGreedy: true,
      helpValue: 'PATH',
      description: 'Send a text file with the query, fenced and labelled with its path (repeatable; at most query.attach_max_bytes, default 1 MiB).',
    }),
    usage: Flags.boolean({char: 'u', description: 'After the answer, print the tokens the turn used on stderr.'}),
  }

  async run(): Promise<void> {
    // `--fork` takes an optional value, which oclif cannot express: bare, it is `--fork=` (the active conversation).
    this.argv = this.argv.map((a) => (a === '--fork' ? '--fork=' : a))
    const {argv, flags} = await this.parse(Query)
    const {runQuery, isQueryError} = await import('../lib/query/pipeline.js')
    const resume = flags.resume ? await this.pickResume() : undefined
    const options = {
      words: argv as string[],
      newConversation: flags.new,
      id: flags.id,
      fork: flags.fork,
      resume,
      model: flags.model,
      tools: flags.tool ?? [],
      noTools: flags['no-tool'] ?? [],
      edit: flags.edit,
      noEdit: flags['no-edit'],
      format: this.format(),
      usage: flags.usage,
      attach: flags.attach ?? [],
    }
    const context = {workspace: await this.workspace(), store: await this.store(), cfgArgs: this.cfgArgs(), say: (line: string) => this.say(line)}
    let code: number
    try {
      code = await runQuery(options, context)
    } catch (error) {
      // The library reports what the user must fix as a QueryError; only here does it become an exit.
      if (isQueryError(error)) this.fail(error, error.exitCode)
      throw error
    }
    if (code !== 0) this.exit(code)
  }

  /** `--resume`: the conversation picked before the query starts (Esc: nothing is sent). */
  private async pickResume(): Promise<string> {
    const picked = await (await import('../lib/query/pick.js')).pickOutcome(await this.store())
    if ('id' in picked) return picked.id
    if (picked.none === 'no-terminal') {
      const {failUsage, UsageError} = await import('../lib/cli/usage-error.js')
      return failUsage(new UsageError('--resume needs a terminal to pick from a list (use --id ID)', 'query'))
    }
    const {resumeEnd} = await import('../lib/cli/use-conversation.js')
    return resumeEnd(picked.none, {say: (line) => this.say(line), exit: (code) => this.exit(code)})
  }
}
