// What one response amounts to, in a form both sides can produce: the answer
// text, the assistant message as it is sent back in the next request (in the
// provider's own request shape), the raw stop reason, the token counts, and
// the error when the stream broke off. The SDK side builds it from the SDK's
// accumulated result (sdk.ts), the jp side from jp's output and the next
// request jp actually sent (jp.ts).

export interface Outcome {
  text: string
  /** The assistant message of the next request (undefined when the stream failed). */
  assistant?: unknown
  finish?: string
  usage?: {input?: number; output?: number}
  failed: boolean
}

/** Tool arguments compared as values: jp re-serialises the JSON it parsed, the SDK keeps the model's text. */
export function normaliseOpenAIAssistant(message: Record<string, unknown>): Record<string, unknown> {
  const calls = message.tool_calls as Array<{id: string; type: string; function: {name: string; arguments: string}}> | undefined
  if (!calls) return message
  return {
    ...message,
    tool_calls: calls.map((c) => ({id: c.id, type: c.type, function: {name: c.function.name, arguments: JSON.parse(c.function.arguments || '{}')}})),
  }
}

/** One cell of the closing table. */
export function summarise(o: Outcome): string {
  const parts: string[] = []
  if (o.failed) parts.push('ERROR')
  if (o.text) parts.push(`text=${JSON.stringify(o.text.length > 14 ? o.text.slice(0, 13) + '…' : o.text)}`)
  parts.push(`finish=${o.finish ?? '—'}`)
  if (o.usage) parts.push(`usage=${o.usage.input ?? '?'}/${o.usage.output ?? '?'}`)
  if (o.assistant !== undefined) parts.push(`next=${shape(o.assistant)}`)
  return parts.join(' ')
}

/** The block/tool-call structure of a sent-back assistant message, compactly. */
function shape(assistant: unknown): string {
  const m = assistant as Record<string, unknown>
  if (Array.isArray(m.content)) {
    return (
      '[' +
      (m.content as Array<Record<string, unknown>>)
        .map((b) => (b.type === 'thinking' ? `thinking(${String(b.signature)})` : b.type === 'tool_use' ? `tool_use(${String(b.name)})` : String(b.type)))
        .join(',') +
      ']'
    )
  }
  const calls = (m.tool_calls as Array<{function: {name: string}}> | undefined) ?? []
  const bits = [m.thinking ? 'thinking' : '', m.content ? 'text' : '', ...calls.map((c) => `tool(${c.function.name})`)].filter(Boolean)
  return `[${bits.join(',')}]`
}
