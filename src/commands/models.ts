import {Args, Flags} from '@oclif/core'
import {JpCommand} from '../lib/cli/base-command.js'
import {PROVIDER_NAMES, type ProviderName} from '../lib/config/providers.js'

export default class Models extends JpCommand {
  // The configuration is loaded by the command itself (its providers and default model).
  static override configCheck = 'command' as const
  static summary = 'List the models the configured providers offer'
  static description = `Asks each provider (or only PROVIDER) for its models, all at once: OpenAI-format providers \`GET /models\`, Anthropic \`GET /v1/models\`, Ollama \`GET /api/tags\`, at the configured base URLs with the configured key variables. Prints one PROVIDER/MODEL id per line (what --model and assistant.model.id take), the configured default marked \`*\` on a terminal and followed by a tab and \`default\` when piped. A provider without its key or that does not answer within --timeout is one line on stderr naming the variable or the URL; the others are still listed.

Exit status: 0 when at least one provider listed its models (a provider you have no key for is not an error), 1 when none did (one Error line after the providers' lines) or the PROVIDER asked for did not (its problem as the Error line).

With --format json, one JSON object per model: {provider, id, model, name?, default}.`

  static examples = ['<%= config.bin %> models', '<%= config.bin %> models ollama', '<%= config.bin %> models --format json']
  static args = {provider: Args.string({description: 'Only this provider', options: PROVIDER_NAMES, ignoreStdin: true})}
  static flags = {
    timeout: Flags.integer({helpValue: 'SECS', min: 1, default: 5, description: 'How long to wait for the providers, all together.'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Models)
    const config = await this.loadConfig()
    const {listModels} = await import('../lib/llm/models.js')
    const {modelJson, modelLine} = await import('../lib/llm/models-output.js')
    const {modelIdFromConfig} = await import('../lib/config/defaults.js')
    const names = args.provider ? [args.provider as ProviderName] : PROVIDER_NAMES
    const listings = await listModels(config.providers.llm, names, process.env, flags.timeout * 1000)
    const defaultId = modelIdFromConfig(config)
    const json = this.format() === 'json'
    const tty = Boolean(process.stdout.isTTY)
    // One provider asked for and unable to list: its problem is the command's one error line.
    const only = listings.length === 1 ? listings[0] : undefined
    if (only && 'problem' in only) this.fail(`${only.provider}: ${only.problem}`)
    let out = ''
    let answered = 0
    for (const listing of listings) {
      if ('problem' in listing) {
        this.say(`jp: ${listing.provider}: ${listing.problem}`)
        continue
      }
      answered++
      for (const m of listing.models) out += (json ? modelJson(m, defaultId) : modelLine(m, {defaultId, tty})) + '\n'
    }
    process.stdout.write(out)
    // Every failure of a command ends in one `Error:` line; the notes above say why each provider could not.
    if (answered === 0) this.fail('no provider listed its models (see the lines above)')
  }
}
