import {JpCommand} from '../../lib/cli/base-command.js'
import {sanitizeUntrusted} from '../../lib/text/untrusted.js'

export default class McpLs extends JpCommand {
  static summary = 'List the MCP servers and their state'
  static description =
    'Starts every enabled server (in parallel, each within its timeout_secs), shows its transport, state (not started, ready, or failed with the reason) and tool count, and stops it. With --format json, one JSON object per line.'

  async run(): Promise<void> {
    await this.parse(McpLs)
    const config = await this.loadConfig()
    const [{serverRows}, {providerKeyVariables}] = await Promise.all([import('../../lib/mcp/listing.js'), import('../../lib/query/turn-setup.js')])
    const workspace = await this.workspace()
    const rows = await serverRows(config, {cwd: workspace.isDefault ? process.cwd() : workspace.root, env: process.env, providerKeyVars: providerKeyVariables(config)})
    if (this.format() === 'json') {
      for (const r of rows) process.stdout.write(JSON.stringify(r) + '\n')
      return
    }
    if (rows.length === 0) {
      this.say('No MCP servers configured (see `mcp.servers` in docs/configuration.md).')
      return
    }
    const table = [['NAME', 'TRANSPORT', 'STATE', 'TOOLS'], ...rows.map((r) => [r.name, r.transport, r.reason ? `${r.state} (${r.reason})` : r.state, String(r.tools)])]
    const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)))
    for (const row of table) process.stdout.write(sanitizeUntrusted(row.map((cell, i) => (i === 3 ? cell : cell.padEnd(widths[i]))).join('  ')) + '\n')
  }
}
