import {Args} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'
import {configKeyArg} from '../../lib/cli/config-key.js'

export default class ConfigGet extends JpCommand {
  // The configuration: this command loads it to answer.
  static override configCheck = 'command' as const
  static summary = 'Print the value of one configuration key'
  static description = `Prints KEY's value in the merged configuration (as jp config show does): a string as it is, a table as TOML, anything else as a TOML value. A key you have not set prints its default; a key with no value at all (not set, no default, e.g. assistant.model.id in a fresh install) prints nothing and exits 1.`

  static examples = ['<%= config.bin %> config get assistant.model.id', '<%= config.bin %> config get editor']
  static args = {key: Args.string({description: 'A dotted key, e.g. assistant.model.id', required: true, ignoreStdin: true})}

  async run(): Promise<void> {
    const {args} = await this.parse(ConfigGet)
    const path = await configKeyArg(args.key, this.id ?? 'config:get')
    const config = await this.loadConfig({conversationId: await this.activeConversation()})
    const {shownConfig} = await import('../../lib/config/shown.js')
    let value: unknown = shownConfig(config)
    for (const k of path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[k] : undefined
    if (value === undefined) this.fail(`${args.key} is not set`)
    const {configToml, tomlValue} = await import('../../lib/config/toml-text.js')
    const {isTable} = await import('../../lib/config/schema.js')
    const {sanitizeUntrusted} = await import('../../lib/text/untrusted.js')
    if (typeof value === 'string') {
      // A workspace's value can hold control characters: shown, not sent, on a terminal; as stored to a pipe.
      process.stdout.write((process.stdout.isTTY ? sanitizeUntrusted(value) : value) + '\n')
    } else if (isTable(value)) {
      process.stdout.write(configToml(path.reduceRight<Record<string, unknown>>((inner, k) => ({[k]: inner}), value)))
    } else {
      process.stdout.write(tomlValue(value) + '\n')
    }
  }
}
