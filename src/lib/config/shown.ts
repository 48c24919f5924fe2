// The configuration as jp prints it (`jp config show`, `jp config get`): an
// MCP server's header values are credentials, so a literal one is shown as
// `[redacted]`; one that names variables (`"Bearer $TOKEN"`) holds no secret
// and is shown as written. Pure.
import {isTable} from './schema.js'

export const REDACTED_HEADER = '[redacted]'

/** A copy of `config` with literal `mcp.servers.*.headers` values redacted. */
export function shownConfig<T>(config: T): T {
  const servers = (config as {mcp?: {servers?: unknown}}).mcp?.servers
  if (!isTable(servers)) return config
  const copy = structuredClone(config) as {mcp: {servers: Record<string, {headers?: Record<string, string>}>}}
  for (const server of Object.values(copy.mcp.servers)) {
    if (!isTable(server) || !isTable(server.headers)) continue
    for (const [k, v] of Object.entries(server.headers)) if (typeof v !== 'string' || !v.includes('$')) server.headers[k] = REDACTED_HEADER
  }
  return copy as T
}
