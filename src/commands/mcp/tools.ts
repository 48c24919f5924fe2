import {Args} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'
import {sanitizeUntrusted} from '../../lib/text/untrusted.js'

export default class McpTools extends JpCommand {
  static summary = "List an MCP server's tools"
  static description =
    'Starts the server (even with enable = false), lists each tool as SERVER.TOOL with the first line of its description and its run policy (`conversation.tools`), and stops it. With --format json, one JSON object per line.'

  static args = {name: Args.string({description: 'the server (a key of mcp.servers)', required: true, ignoreStdin: true})}

  async run(): Promise<void> {
    const {args} = await this.parse(McpTools)
    const config = await this.loadConfig()
    const [{serverTools}, {providerKeyVariables}] = await Promise.all([import('../../lib/mcp/listing.js'), import('../../lib/query/turn-setup.js')])
    const workspace = await this.workspace()
    const listed = await serverTools(config, args.name, {cwd: workspace.isDefault ? process.cwd() : workspace.root, env: process.env, providerKeyVars: providerKeyVariables(config)})
    if (!listed.ok) this.fail(new Error(listed.problem))
    if (this.format() === 'json') {
      for (const t of listed.tools) process.stdout.write(JSON.stringify(t) + '\n')
      return
    }
    for (const t of listed.tools) {
      const off = t.enabled ? '' : ', not enabled'
      process.stdout.write(sanitizeUntrusted(`${t.name}  (run = ${t.run}${off})  ${t.description}`) + '\n')
    }
  }
}
