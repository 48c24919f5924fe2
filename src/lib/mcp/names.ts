// An MCP server's tools are `SERVER.TOOL` (SPEC §19) and take every setting
// a local tool takes, from `conversation.tools."SERVER.TOOL"` over
// `conversation.tools."SERVER.*"` (then `'*'`, as for any tool). Pure: the
// names, the settings and the `-t`/`-T` selection of MCP tools.
import type {McpServerConfig, ToolConfig} from '../config/types.js'

export interface McpToolSelection {
  /** `-t` names: `SERVER.TOOL` or `SERVER.*` enable even what `enable = false` turned off. */
  explicit: readonly string[]
  /** `-T` names. */
  disabled: readonly string[]
}

/** `SERVER.TOOL`. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}.${tool}`
}

/** The server a name addresses (`SERVER.TOOL`, `SERVER.*`) when SERVER is a configured server; else undefined (a local tool). */
export function mcpServerOf(name: string, servers: Readonly<Record<string, McpServerConfig>>): string | undefined {
  const dot = name.indexOf('.')
  if (dot <= 0) return undefined
  const server = name.slice(0, dot)
  return Object.hasOwn(servers, server) ? server : undefined
}

/**
 * Whether a `conversation.tools` key is a local tool: not `'*'`, not a
 * configured server's (`SERVER.TOOL`, `SERVER.*`), and not a dotted name
 * without a `command` (settings for a server defined elsewhere — say in a
 * workspace not trusted yet — are never offered as a tool of their own).
 */
export function isLocalTool(name: string, tools: Readonly<Record<string, ToolConfig>>, servers: Readonly<Record<string, McpServerConfig>>): boolean {
  if (name === '*' || mcpServerOf(name, servers) !== undefined) return false
  return !name.includes('.') || tools[name]?.command !== undefined
}

/** A tool's own settings: `"SERVER.*"` under `"SERVER.TOOL"` (an `env` table merges field by field). */
export function mcpToolConfig(tools: Readonly<Record<string, ToolConfig>>, server: string, tool: string): ToolConfig {
  const all = tools[`${server}.*`] ?? {}
  const own = tools[mcpToolName(server, tool)] ?? {}
  const env = all.env || own.env ? {...all.env, ...own.env} : undefined
  return {...all, ...own, ...(env ? {env} : {}), source: 'mcp'}
}

const names = (list: readonly string[], server: string, tool: string) => list.includes(mcpToolName(server, tool)) || list.includes(`${server}.*`)

/** Whether `-t` names the server at all (a disabled server then starts). */
export function explicitlyNamed(selection: McpToolSelection, server: string): boolean {
  return selection.explicit.some((n) => n.startsWith(`${server}.`))
}

/** Whether SERVER.TOOL is offered: its server and its settings enable it, or `-t` names it; `-T` wins. */
export function mcpToolEnabled(
  tools: Readonly<Record<string, ToolConfig>>,
  server: McpServerConfig & {name: string},
  tool: string,
  selection: McpToolSelection,
): boolean {
  if (names(selection.disabled, server.name, tool)) return false
  if (names(selection.explicit, server.name, tool)) return true
  return server.enable !== false && mcpToolConfig(tools, server.name, tool).enable !== false
}

/** Whether a server is started for this query: enabled, or named by `-t`. */
export function mcpServerWanted(server: McpServerConfig & {name: string}, selection: McpToolSelection): boolean {
  if (selection.disabled.includes(`${server.name}.*`)) return false
  return server.enable !== false || explicitlyNamed(selection, server.name)
}
