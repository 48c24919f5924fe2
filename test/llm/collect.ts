import type {StreamEvent} from '../../src/lib/llm/types.js'

export interface Collected {
  events: StreamEvent[]
  error?: unknown
  text: string
  reasoning: string
}

/** Drains a provider stream, keeping what arrived before any error. */
export async function collect(stream: AsyncIterable<StreamEvent>, onEvent?: (e: StreamEvent) => void): Promise<Collected> {
  const events: StreamEvent[] = []
  let error: unknown
  try {
    for await (const e of stream) {
      events.push(e)
      onEvent?.(e)
    }
  } catch (e) {
    error = e
  }
  return {
    events,
    error,
    text: events.map((e) => (e.type === 'text' ? e.text : '')).join(''),
    reasoning: events.map((e) => (e.type === 'reasoning' ? e.text : '')).join(''),
  }
}

export function ofType<T extends StreamEvent['type']>(events: StreamEvent[], type: T): Extract<StreamEvent, {type: T}>[] {
  return events.filter((e): e is Extract<StreamEvent, {type: T}> => e.type === type)
}

export const never = (): AbortSignal => new AbortController().signal
