// `jp mcp ls` and `jp mcp tools NAME` as library calls: start the servers
// they need (in parallel, each within its timeout), read what they say, and
// stop them. Untrusted text (descriptions, reasons) is sanitized by the
// caller's printer; secrets never appear (a URL is shown, headers are not).
import type {Config, ToolRunMode} from '../config/types.js'
import {resolveToolConfig} from '../tool/resolve.js'
import {McpHub} from './hub.js'
import {mcpToolEnabled} from './names.js'

/** What a query without `-t`/`-T` would offer. */
const NO_FLAGS = {explicit: [], disabled: []}

export interface ListingContext {
  cwd: string
  env: NodeJS.ProcessEnv
  providerKeyVars: readonly string[]
}

export interface ServerRow {
  name: string
  transport: 'stdio' | 'http'
  state: 'not started' | 'ready' | 'failed'
  /** Why it failed, or why it was not started (`enable = false`). */
  reason?: string
  tools: number
}

export interface ToolRow {
  /** `SERVER.TOOL`. */
  name: string
  /** The first line of its description. */
  description: string
  run: ToolRunMode
  enabled: boolean
}

function hub(config: Config, ctx: ListingContext, explicit: string[], only?: string): McpHub {
  return new McpHub({
    servers: only === undefined ? config.mcp.servers : {[only]: config.mcp.servers[only]},
    tools: config.conversation.tools,
    selection: {explicit, disabled: []},
    ...ctx,
    // The rows say what failed; no notice lines of their own.
    notice: () => {},
  })
}

/** Every configured server: the enabled ones started, asked for their tools, and stopped. */
export async function serverRows(config: Config, ctx: ListingContext): Promise<ServerRow[]> {
  const h = hub(config, ctx, [])
  try {
    h.start()
    await h.ready()
    const started = new Map(h.servers().map((s) => [s.name, s]))
    return Object.entries(config.mcp.servers)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, server]): ServerRow => {
        const transport = server.url === undefined ? 'stdio' : 'http'
        const s = started.get(name)
        if (!s) return {name, transport, state: 'not started', reason: 'enable = false', tools: 0}
        if (s.state.kind === 'ready') return {name, transport, state: 'ready', tools: s.tools.length}
        return {name, transport, state: 'failed', reason: s.state.kind === 'failed' ? s.state.reason : 'not ready', tools: 0}
      })
  } finally {
    await h.close()
  }
}

/** The tools of server NAME (started even when `enable = false`), with the run policy each would have. */
export async function serverTools(config: Config, name: string, ctx: ListingContext): Promise<{ok: true; tools: ToolRow[]} | {ok: false; problem: string}> {
  if (!Object.hasOwn(config.mcp.servers, name)) {
    const known = Object.keys(config.mcp.servers)
    return {ok: false, problem: `no MCP server named '${name}' is configured (known: ${known.length > 0 ? known.join(', ') : 'none'})`}
  }
  const h = hub(config, ctx, [`${name}.*`], name)
  try {
    h.start()
    const set = await h.toolSet()
    const server = h.servers()[0]
    if (server.state.kind !== 'ready') return {ok: false, problem: `MCP server ${name} ${server.state.kind === 'failed' ? `failed: ${server.state.reason}` : 'is not ready'}`}
    const configs = {...config.conversation.tools, ...set.configs}
    return {
      ok: true,
      tools: server.tools.map((t) => {
        const full = `${name}.${t.name}`
        return {name: full, description: t.description.trim().split('\n')[0] ?? '', run: resolveToolConfig(configs, full)!.run, enabled: mcpToolEnabled(config.conversation.tools, {...config.mcp.servers[name], name}, t.name, NO_FLAGS)}
      }),
    }
  } finally {
    await h.close()
  }
}
