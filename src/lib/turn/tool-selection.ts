// Which configured tools a query offers the model, and their JSON schemas.
import type {McpServerConfig, ToolConfig} from '../config/types.js'
import {isLocalTool, mcpServerOf} from '../mcp/names.js'
import type {ToolDefinition} from '../llm/types.js'

export interface ToolSelection {
  /** Tools named with `--tool`: enabled even when `enable = false`, and consent to run without a terminal. */
  explicit: readonly string[]
  /** Tools named with `--no-tool`. */
  disabled: readonly string[]
}

export class UnknownToolError extends Error {
  constructor(name: string, flag: string, known: string[]) {
    super(`${flag} ${name}: no tool named '${name}' is configured (known: ${known.length > 0 ? known.join(', ') : 'none'})`)
    this.name = 'UnknownToolError'
  }
}

/**
 * The names of the local tools this query enables: configured and enabled,
 * plus `--tool`, minus `--no-tool`. Names of MCP servers' tools (`SERVER.TOOL`,
 * `SERVER.*`: SERVER a key of `servers`) are not local tools: their servers
 * say which exist (mcp/names.ts).
 */
export function enabledToolNames(tools: Record<string, ToolConfig>, selection: ToolSelection, servers: Readonly<Record<string, McpServerConfig>> = {}): Set<string> {
  const known = Object.keys(tools).filter((name) => isLocalTool(name, tools, servers))
  const local = (names: readonly string[]) => names.filter((name) => mcpServerOf(name, servers) === undefined)
  for (const name of local(selection.explicit)) if (!known.includes(name)) throw new UnknownToolError(name, '--tool', known)
  for (const name of local(selection.disabled)) if (!known.includes(name)) throw new UnknownToolError(name, '--no-tool', known)
  const enabled = new Set(known.filter((name) => tools[name]?.enable !== false))
  for (const name of local(selection.explicit)) enabled.add(name)
  for (const name of local(selection.disabled)) enabled.delete(name)
  return enabled
}

export function toolDefinitions(tools: Record<string, ToolConfig>, enabled: ReadonlySet<string>): ToolDefinition[] {
  const out: ToolDefinition[] = []
  for (const name of [...enabled].sort()) {
    const tool = tools[name]
    if (!tool) continue
    const properties: Record<string, unknown> = {}
    const required: string[] = []
    for (const [arg, param] of Object.entries(tool.parameters ?? {})) {
      const schema: Record<string, unknown> = {type: param.type}
      if (param.description) schema.description = param.description
      if (param.enum) schema.enum = param.enum
      if (param.items) schema.items = param.items
      properties[arg] = schema
      if (param.required) required.push(arg)
    }

    out.push({
      name,
      description: tool.summary ?? `Run the local tool ${name}.`,
      parameters: {type: 'object', properties, required},
    })
  }

  return out
}
