import {Flags} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'
import type {PartialConfig} from '../../lib/config/schema.js'

export default class ConfigShow extends JpCommand {
  // The configuration: this command loads it to answer.
  static override configCheck = 'command' as const
  static summary = 'Print the merged configuration as TOML'
  static description = `Every key jp would run a query with here: the defaults, your user config, the workspace's config, the active conversation's stored config, JP_CFG_* and --cfg, merged. With --origin, a comment after each value names the layer it came from (a file, JP_CFG_*, --cfg, $OPENAI_BASE_URL and the like, or default).`

  static examples = ['<%= config.bin %> config show', '<%= config.bin %> config show --origin', '<%= config.bin %> config show -c assistant.model.id=openai/gpt-4o']
  static flags = {origin: Flags.boolean({description: 'Name the layer each value came from.'})}

  async run(): Promise<void> {
    const {flags} = await this.parse(ConfigShow)
    const layers: PartialConfig[] = []
    const config = await this.loadConfig({conversationId: await this.activeConversation(), onLayer: (layer) => layers.push(layer)})
    const {configToml} = await import('../../lib/config/toml-text.js')
    const {originOf} = await import('../../lib/config/origin.js')
    const {shownConfig} = await import('../../lib/config/shown.js')
    process.stdout.write(configToml(shownConfig(config) as unknown as Record<string, unknown>, flags.origin ? (path) => originOf(path, layers, process.env) : undefined))
  }
}
