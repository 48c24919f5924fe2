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
 * A tool call event from accumulated argument text. Empty text means no
 * arguments; anything that is not a JSON object is kept raw and flagged, so
 * the caller can report it to the model instead of crashing.
 */
export function toolCallEvent(id: string, name: string, raw: string): ToolCallEvent {
  const text = raw.trim()
  if (text === '') return {type: 'tool_call', id, name, arguments: {}}
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return {type: 'tool_call', id, name, arguments: parsed as Record<string, unknown>}
    }
  } catch {
    // fall through: flagged below
  }
  return {type: 'tool_call', id, name, arguments: {}, invalidArguments: true, rawArguments: raw}
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
