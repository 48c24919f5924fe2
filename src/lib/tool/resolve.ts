// A tool's effective settings: its own table over `conversation.tools.'*'`
// over the built-in fallbacks (SPEC §4).
import {DEFAULT_TOOL_CANCELLED_RESPONSE, type ToolConfig, type ToolResultMode, type ToolRunMode} from '../config/types.js'

export interface ResolvedToolConfig extends ToolConfig {
  run: ToolRunMode
  result: ToolResultMode
  cancellation_response: string
}

/** `undefined` when NAME has no table of its own (`'*'` is not a tool). */
export function resolveToolConfig(tools: Record<string, ToolConfig>, name: string): ResolvedToolConfig | undefined {
  if (name === '*' || !Object.hasOwn(tools, name)) return undefined
  const defaults = tools['*'] ?? {}
  const own = tools[name]
  const env = defaults.env || own.env ? {...defaults.env, ...own.env} : undefined
  return {
    ...defaults,
    ...own,
    ...(env ? {env} : {}),
    run: own.run ?? defaults.run ?? 'ask',
    result: own.result ?? defaults.result ?? 'unattended',
    cancellation_response: own.cancellation_response ?? defaults.cancellation_response ?? DEFAULT_TOOL_CANCELLED_RESPONSE,
  }
}

/** The `'*'` cancellation response, for calls that have no tool of their own. */
export function defaultCancellationResponse(tools: Record<string, ToolConfig>): string {
  return tools['*']?.cancellation_response ?? DEFAULT_TOOL_CANCELLED_RESPONSE
}
