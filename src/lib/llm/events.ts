// Small pure helpers the adapters share to build StreamEvents.
import {type FinishReason, ProviderError, type StreamEvent, type ToolCallEvent} from './types.js'

/**
 * One record of a stream (an SSE event, a chunk, an NDJSON line) as JSON; a
 * record that is not JSON is a ProviderError naming `what` and its start.
 */
export function parseStreamRecord(provider: string, text: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new ProviderError(`${provider}: malformed ${what}: ${text.slice(0, 120)}`, {provider, retryable: false})
  }
}

/**
 * How deep tool arguments may nest. JSON.parse takes any depth, but
 * JSON.stringify, structuredClone and every recursive walk after it overflow
 * the stack somewhere past ten thousand levels (200k levels ended a query
 * with `Maximum call stack size exceeded`, issue 28); no tool needs a tenth
 * of this.
 */
export const MAX_ARGUMENT_DEPTH = 1000

/** Whether `value` nests arrays/objects deeper than `limit` levels (iterative: any depth is safe to ask about). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!
    if (typeof v !== 'object' || v === null) continue
    if (depth + 1 > limit) return true
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1])
    }
  }
  return false
}

/** JSON text of a value from a server, for a message: a hostile depth cannot overflow the stack. */
export function quotedJson(value: unknown): string {
  return nestedDeeperThan(value, 64) ? '(a deeply nested value)' : JSON.stringify(value)
}

/** The one line the model gets (as the call's error result) for arguments nested too deep. */
export const TOO_DEEP = `the arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels`

/**
 * A tool call event from accumulated argument text (or, from servers that
 * send them so, an already parsed value). Empty text means no arguments;
 * anything that is not a JSON object, or nests deeper than
 * MAX_ARGUMENT_DEPTH, is flagged with `argumentsProblem` (and `arguments`
 * is `{}`), so the caller can report it to the model instead of crashing.
 */
export function toolCallEvent(id: string, name: string, raw: string | unknown): ToolCallEvent {
  let parsed: unknown
  if (typeof raw === 'string') {
    const text = raw.trim()
    if (text === '') return {type: 'tool_call', id, name, arguments: {}}
    try {
      parsed = JSON.parse(text)
    } catch {
      return notAnObject(id, name, raw)
    }
  } else parsed = raw ?? {}
  if (nestedDeeperThan(parsed, MAX_ARGUMENT_DEPTH)) return {type: 'tool_call', id, name, arguments: {}, invalidArguments: true, argumentsProblem: TOO_DEEP}
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    return {type: 'tool_call', id, name, arguments: parsed as Record<string, unknown>}
  }
  return notAnObject(id, name, typeof raw === 'string' ? raw : JSON.stringify(parsed))
}

/** Arguments quoted back to the model are cut here: it needs to see what was wrong, not all of it again. */
const QUOTED_ARGUMENTS_CHARS = 2000

function notAnObject(id: string, name: string, raw: string): ToolCallEvent {
  const shown = raw.length > QUOTED_ARGUMENTS_CHARS ? `${raw.slice(0, QUOTED_ARGUMENTS_CHARS)}… (${raw.length} characters)` : raw
  return {type: 'tool_call', id, name, arguments: {}, invalidArguments: true, rawArguments: raw, argumentsProblem: `the model sent arguments that are not a JSON object: ${shown}`}
}

/**
 * Collects the events of one network read, merging adjacent text (and
 * adjacent unsigned reasoning) deltas: the same text in fewer events keeps
 * the per-event cost off the hot path without delaying anything.
 */
export class EventBatch {
  events: StreamEvent[] = []

  text(text: string): void {
    if (!text) return
    const last = this.events.at(-1)
    if (last?.type === 'text') last.text += text
    else this.events.push({type: 'text', text})
  }

  reasoning(text: string): void {
    if (!text) return
    const last = this.events.at(-1)
    if (last?.type === 'reasoning' && last.signature === undefined) last.text += text
    else this.events.push({type: 'reasoning', text})
  }

  push(event: StreamEvent): void {
    this.events.push(event)
  }

  take(): StreamEvent[] {
    const out = this.events
    this.events = []
    return out
  }
}

export function finishEvent(reason: FinishReason, raw: string | undefined): StreamEvent {
  return raw === undefined ? {type: 'finish', reason} : {type: 'finish', reason, raw}
}

export function numberOrUndefined(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}
