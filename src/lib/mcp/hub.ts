// The MCP servers of one jp command. They start together, in parallel, when
// first asked for (the query's first request, `jp mcp ls`), never before;
// each request gets the tools of the servers ready by then — a server that
// is not ready within its timeout is left out of that turn with one notice,
// one that stopped is one notice and is started again, once, the next time
// the tools are asked for. The calls of `SERVER.TOOL` go to their server.
import type {McpServerConfig, ToolConfig} from '../config/types.js'
import type {ToolDefinition} from '../llm/types.js'
import type {ToolRunOutput} from '../tool/coordinator.js'
import type {ToolEnvPolicy} from '../tool/environment.js'
import {mcpServerWanted, mcpToolConfig, mcpToolEnabled, mcpToolName, type McpToolSelection} from './names.js'
import {McpServer, type McpToolInfo} from './server.js'

/** The MCP tools one request offers: their definitions, their settings (as `conversation.tools` entries) and names. */
export interface McpToolSet {
  definitions: ToolDefinition[]
  configs: Record<string, ToolConfig>
  enabled: Set<string>
  /** Those `-t` names (`SERVER.TOOL` or `SERVER.*`): consent to run without a terminal. */
  explicit: Set<string>
}

export interface McpHubOptions {
  servers: Readonly<Record<string, McpServerConfig>>
  /** `conversation.tools`: the `SERVER.*` and `SERVER.TOOL` settings. */
  tools: Readonly<Record<string, ToolConfig>>
  selection: McpToolSelection
  cwd: string
  env: NodeJS.ProcessEnv
  providerKeyVars: readonly string[]
  /** One line for the user (a server left out, stopped, restarted). */
  notice: (line: string) => void
  /** Ends waiting for servers (the command is shutting down). */
  signal?: AbortSignal
}

interface Slot {
  server: McpServer
  /** It was started again once already this session. */
  restarted: boolean
  /** Its failure was told already. */
  told: boolean
}

export class McpHub {
  private readonly slots = new Map<string, Slot>()

  constructor(private readonly opts: McpHubOptions) {
    for (const [name, config] of Object.entries(opts.servers)) {
      if (!mcpServerWanted({...config, name}, opts.selection)) continue
      this.slots.set(name, {server: this.make(name), restarted: false, told: false})
    }
  }

  /** Whether any server is wanted at all. */
  get empty(): boolean {
    return this.slots.size === 0
  }

  private make(name: string): McpServer {
    const server = new McpServer(name, this.opts.servers[name], {
      cwd: this.opts.cwd,
      env: this.opts.env,
      envPolicy: serverEnvPolicy(this.opts.tools, name),
      providerKeyVars: this.opts.providerKeyVars,
      signal: this.opts.signal,
    })
    server.onStopped = (reason) => {
      const slot = this.slots.get(name)
      if (slot) slot.told = true
      this.opts.notice(`MCP server ${name} ${reason}; its tools answer with an error${slot && !slot.restarted ? ' until the next turn restarts it' : ''}${logHint(server)}.`)
    }
    return server
  }

  /** The servers by name (for `jp mcp ls`). */
  servers(): McpServer[] {
    return [...this.slots.values()].map((s) => s.server)
  }

  /** Starts every wanted server that has not started (in parallel) and returns at once. */
  start(): void {
    for (const slot of this.slots.values()) void slot.server.start()
  }

  /** Waits for every server (each within its own timeout); a stopped or failed one is started again once. */
  async ready(): Promise<void> {
    for (const [name, slot] of this.slots) {
      if (slot.server.state.kind === 'failed' && !slot.restarted && slot.told) {
        slot.restarted = true
        slot.told = false
        await slot.server.close()
        slot.server = this.make(name)
      }
    }
    await Promise.all([...this.slots.values()].map((s) => s.server.start()))
    for (const [name, slot] of this.slots) {
      if (slot.server.state.kind !== 'failed' || slot.told) continue
      slot.told = true
      this.opts.notice(`MCP server ${name} left out of this turn: ${slot.server.state.reason}${logHint(slot.server)}.`)
    }
  }

  /** The tools of the servers ready now, for one request. */
  async toolSet(): Promise<McpToolSet> {
    await this.ready()
    const set: McpToolSet = {definitions: [], configs: {}, enabled: new Set(), explicit: new Set()}
    for (const [name, slot] of this.slots) {
      if (slot.server.state.kind !== 'ready') continue
      for (const tool of slot.server.tools) {
        if (!mcpToolEnabled(this.opts.tools, {...this.opts.servers[name], name}, tool.name, this.opts.selection)) continue
        const full = mcpToolName(name, tool.name)
        set.enabled.add(full)
        if (this.opts.selection.explicit.includes(full) || this.opts.selection.explicit.includes(`${name}.*`)) set.explicit.add(full)
        set.configs[full] = mcpToolConfig(this.opts.tools, name, tool.name)
        set.definitions.push({name: full, description: describe(name, tool), parameters: tool.inputSchema})
      }
    }
    set.definitions.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    return set
  }

  private lookup(full: string): {slot: Slot; tool: McpToolInfo} | undefined {
    const dot = full.indexOf('.')
    const slot = dot > 0 ? this.slots.get(full.slice(0, dot)) : undefined
    const tool = slot?.server.tools.find((t) => t.name === full.slice(dot + 1))
    return slot && tool ? {slot, tool} : undefined
  }

  /** Whether `name` is a tool of one of these servers. */
  owns(name: string): boolean {
    const dot = name.indexOf('.')
    return dot > 0 && this.slots.has(name.slice(0, dot))
  }

  /** What is wrong with a call's arguments against the tool's input schema (undefined: nothing, or not an MCP tool). */
  checkArguments(name: string, args: Record<string, unknown>): string | undefined {
    return this.lookup(name)?.tool.check(args)
  }

  async call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolRunOutput> {
    const found = this.lookup(name)
    if (!found) return {content: `Unknown tool '${name}'.`, isError: true}
    return found.slot.server.call(found.tool.name, args, signal)
  }

  /** Stops every server (in parallel). */
  async close(): Promise<void> {
    await Promise.all([...this.slots.values()].map((s) => s.server.close()))
  }
}

/** The environment policy of a server's process: `"SERVER.*".env` over `'*'.env`, field by field. */
export function serverEnvPolicy(tools: Readonly<Record<string, ToolConfig>>, server: string): ToolEnvPolicy | undefined {
  const all = tools['*']?.env
  const own = tools[`${server}.*`]?.env
  return all || own ? {...all, ...own} : undefined
}

function describe(server: string, tool: McpToolInfo): string {
  return tool.description.trim() === '' ? `The tool ${tool.name} of the MCP server ${server}.` : tool.description
}

function logHint(server: McpServer): string {
  return server.logPath ? ` (log: ${server.logPath})` : ''
}
