// A tool result from an MCP server as jp's tool result: text content as the
// text the model gets; images, audio and binary resources summarised in one
// line (`[image/png, 12 kB]`) until attachments can carry them; `isError`
// marks the call failed. Pure.
import type {ToolRunOutput} from '../tool/coordinator.js'

/** The fields jp reads of a `tools/call` result (the SDK's `CallToolResult`, loosely). */
export interface McpCallResult {
  content?: ReadonlyArray<Record<string, unknown>>
  structuredContent?: unknown
  isError?: boolean
}

/** `12 kB`, `812 B`, `3.4 MB` (1024-based, as `ls -h` rounds). */
export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/** The size of base64 data once decoded. */
function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0
  const clean = data.replace(/\s/g, '')
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding)
}

const str = (v: unknown, fallback: string) => (typeof v === 'string' && v !== '' ? v : fallback)

function contentText(item: Record<string, unknown>): string {
  switch (item.type) {
    case 'text': {
      return str(item.text, '')
    }

    case 'image':
    case 'audio': {
      return `[${str(item.mimeType, item.type)}, ${sizeLabel(base64Bytes(item.data))}]`
    }

    case 'resource_link': {
      return `[resource ${str(item.uri, '?')}${typeof item.mimeType === 'string' ? `, ${item.mimeType}` : ''}]`
    }

    case 'resource': {
      const r = (typeof item.resource === 'object' && item.resource !== null ? item.resource : {}) as Record<string, unknown>
      if (typeof r.text === 'string') return r.text
      return `[${str(r.mimeType, 'resource')} ${str(r.uri, '?')}, ${sizeLabel(base64Bytes(r.blob))}]`
    }

    default: {
      return `[${str(item.type, 'unknown')} content]`
    }
  }
}

export function toolRunOutput(result: McpCallResult): ToolRunOutput {
  const parts = (result.content ?? []).map((item) => contentText(item))
  // A server that answers only with structured content still says something.
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent))
  return {content: parts.join('\n'), isError: result.isError === true}
}
