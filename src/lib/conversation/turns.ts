// Turns of a stored conversation: a turn begins at a `turn_start` event and
// runs to the next one. Events before the first `turn_start` (a config delta
// of a hand-written file) belong to turn 1, so every event has a turn and a
// conversation with events has at least one. `grep` reports these numbers,
// `fork --at N` cuts after turn N and `export` heads each turn with one.
import type {ConversationEvent} from './events.js'

/** The turn number (1-based) of each event, by index. */
export function turnNumbers(events: readonly ConversationEvent[]): number[] {
  const out: number[] = []
  let n = 0
  for (const e of events) {
    if (e.type === 'turn_start') n++
    out.push(Math.max(n, 1))
  }
  return out
}

/** How many turns `events` holds (0 for none). */
export function turnCount(events: readonly ConversationEvent[]): number {
  let n = 0
  for (const e of events) if (e.type === 'turn_start') n++
  return n === 0 && events.length > 0 ? 1 : n
}

/** The index just after turn `turn` (the start of the next turn, or the end). */
export function endOfTurn(events: readonly ConversationEvent[], turn: number): number {
  let n = 0
  for (const [i, e] of events.entries()) {
    if (e.type !== 'turn_start') continue
    n++
    if (n === turn + 1) return i
  }
  return events.length
}
