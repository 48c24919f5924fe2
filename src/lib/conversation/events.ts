// The events stored in a conversation's events.json (SPEC §10). Every event
// has an ISO-8601 `timestamp` and a `type`; types this version does not know
// are kept byte-for-byte in meaning (loaded and saved as-is).

interface EventBase {
  timestamp: string
}

export interface TurnStartEvent extends EventBase {
  type: 'turn_start'
}
export interface ChatRequestEvent extends EventBase {
  type: 'chat_request'
  content: string
  /**
   * A queued reply (SPEC §19), and where it reached the model: `next_step`
   * after the tool results of a tool loop, `turn_end` as the next turn.
   */
  queued?: QueuedDelivery
}

/** Where a queued reply was delivered (SPEC §19). */
export type QueuedDelivery = 'next_step' | 'turn_end'
/** Exactly one of `message` (answer text) or `reasoning` (thinking) is present. */
export interface ChatResponseEvent extends EventBase {
  type: 'chat_response'
  message?: string
  reasoning?: string
}
export interface ToolCallRequestEvent extends EventBase {
  type: 'tool_call_request'
  id: string
  name: string
  arguments: Record<string, unknown>
}
export interface ToolCallResponseEvent extends EventBase {
  type: 'tool_call_response'
  id: string
  content: string
  is_error: boolean
}
/** A file attached to the query before it (`jp query -a PATH`): sent with it, fenced and labelled with its path. */
export interface AttachmentEvent extends EventBase {
  type: 'attachment'
  /** The path as the user gave it. */
  path: string
  content: string
}
/** What one model response cost, as the provider reported it (`input` includes `cached`). */
export interface UsageEvent extends EventBase {
  type: 'usage'
  input_tokens: number
  output_tokens: number
  cached_tokens: number
}
export interface ConfigDeltaEvent extends EventBase {
  type: 'config_delta'
  /** A partial config (validated with validatePartial) applied from this point on. */
  delta: Record<string, unknown>
}
/** An event of a type this version does not know; kept as-is. */
export interface UnknownEvent extends EventBase {
  type: string
  [key: string]: unknown
}

export type KnownEvent =
  | TurnStartEvent
  | ChatRequestEvent
  | ChatResponseEvent
  | ToolCallRequestEvent
  | ToolCallResponseEvent
  | ConfigDeltaEvent
  | UsageEvent
  | AttachmentEvent

export type ConversationEvent = KnownEvent | UnknownEvent

export const KNOWN_EVENT_TYPES = [
  'turn_start',
  'chat_request',
  'chat_response',
  'tool_call_request',
  'tool_call_response',
  'config_delta',
  'usage',
  'attachment',
] as const

export function isKnownEvent(e: ConversationEvent): e is KnownEvent {
  return (KNOWN_EVENT_TYPES as readonly string[]).includes(e.type)
}

const now = () => new Date().toISOString()

/** Event constructors stamping the current time. */
export const event = {
  turnStart: (): TurnStartEvent => ({timestamp: now(), type: 'turn_start'}),
  chatRequest: (content: string, queued?: QueuedDelivery): ChatRequestEvent =>
    queued === undefined ? {timestamp: now(), type: 'chat_request', content} : {timestamp: now(), type: 'chat_request', content, queued},
  message: (message: string): ChatResponseEvent => ({timestamp: now(), type: 'chat_response', message}),
  reasoning: (reasoning: string): ChatResponseEvent => ({timestamp: now(), type: 'chat_response', reasoning}),
  toolCallRequest: (id: string, name: string, args: Record<string, unknown>): ToolCallRequestEvent => ({
    timestamp: now(),
    type: 'tool_call_request',
    id,
    name,
    arguments: args,
  }),
  toolCallResponse: (id: string, content: string, isError = false): ToolCallResponseEvent => ({
    timestamp: now(),
    type: 'tool_call_response',
    id,
    content,
    is_error: isError,
  }),
  configDelta: (delta: Record<string, unknown>): ConfigDeltaEvent => ({timestamp: now(), type: 'config_delta', delta}),
  usage: (u: {input: number; output: number; cached: number}): UsageEvent => ({
    timestamp: now(),
    type: 'usage',
    input_tokens: u.input,
    output_tokens: u.output,
    cached_tokens: u.cached,
  }),
  attachment: (path: string, content: string): AttachmentEvent => ({timestamp: now(), type: 'attachment', path, content}),
}

/**
 * Checks the shape of a parsed events.json; returns a problem description for
 * the first bad entry, or undefined. Unknown types only need `type` and
 * `timestamp`.
 */
/** The text of every user message (`chat_request`) in `events`, oldest first. */
export function userQueries(events: readonly ConversationEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'chat_request' && typeof (e as {content?: unknown}).content === 'string' ? [(e as {content: string}).content] : []))
}

export function eventsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return 'expected an array of events'
  for (const [i, e] of value.entries()) {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return `event ${i}: expected an object`
    const ev = e as Record<string, unknown>
    if (typeof ev.type !== 'string') return `event ${i}: missing string "type"`
    if (typeof ev.timestamp !== 'string') return `event ${i}: missing string "timestamp"`
    const need = (k: string, t: string) => (typeof ev[k] === t ? undefined : `event ${i} (${ev.type}): "${k}" must be a ${t}`)
    let p: string | undefined
    switch (ev.type) {
      case 'chat_request':
        p = need('content', 'string')
        break
      case 'chat_response':
        if (typeof ev.message !== 'string' && typeof ev.reasoning !== 'string')
          p = `event ${i} (chat_response): needs a string "message" or "reasoning"`
        break
      case 'tool_call_request':
        p = need('id', 'string') ?? need('name', 'string') ?? need('arguments', 'object')
        break
      case 'tool_call_response':
        p = need('id', 'string') ?? need('content', 'string') ?? need('is_error', 'boolean')
        break
      case 'config_delta':
        p = need('delta', 'object')
        break
      case 'usage':
        p = need('input_tokens', 'number') ?? need('output_tokens', 'number') ?? need('cached_tokens', 'number')
        break
      case 'attachment':
        p = need('path', 'string') ?? need('content', 'string')
        break
    }
    if (p) return p
  }
  return undefined
}
