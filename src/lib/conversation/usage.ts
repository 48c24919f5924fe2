// Token usage of a turn, from the `usage` events stored with it (one per
// model response): what `jp query -u` prints after the answer and `jp
// conversation show` prints under each turn.
import type {ConversationEvent} from './events.js'

export interface TurnUsage {
  input: number
  cached: number
  output: number
}

/** The summed usage of the events from `from` on (undefined: no response reported any). */
export function sumUsage(events: readonly ConversationEvent[], from = 0): TurnUsage | undefined {
  let sum: TurnUsage | undefined
  for (const e of events.slice(from)) {
    if (e.type !== 'usage') continue
    const u = e as {input_tokens?: unknown; cached_tokens?: unknown; output_tokens?: unknown}
    const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)
    sum = {input: (sum?.input ?? 0) + n(u.input_tokens), cached: (sum?.cached ?? 0) + n(u.cached_tokens), output: (sum?.output ?? 0) + n(u.output_tokens)}
  }
  return sum
}

/** Where the last turn starts in `events`. */
export function lastTurnStart(events: readonly ConversationEvent[]): number {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].type === 'turn_start') return i
  return 0
}

/** `Tokens: 1200 in (800 cached), 56 out`; a provider that reported nothing says so. */
export function usageLine(usage: TurnUsage | undefined): string {
  if (!usage) return 'Tokens: not reported by the provider'
  return `Tokens: ${usage.input} in (${usage.cached} cached), ${usage.output} out`
}
