// The last answer of a conversation: the answer text of its last turn that
// has any, one string per model response (a tool call between two answers'
// text ends the first), so markdown is read per response as it was shown.
import type {ConversationEvent} from './events.js'

export function lastAnswer(events: readonly ConversationEvent[]): string[] {
  let responses: string[] = []
  let turn: string[] = []
  let open = false
  for (const e of events) {
    if (e.type === 'turn_start') {
      if (turn.length > 0) responses = turn
      turn = []
      open = false
      continue
    }
    const message = e.type === 'chat_response' ? (e as {message?: unknown}).message : undefined
    if (typeof message === 'string') {
      // An answer may be stored in several events: consecutive ones are one response.
      if (open) turn[turn.length - 1] += message
      else turn.push(message)
      open = true
    } else if (e.type !== 'chat_response' && e.type !== 'usage') open = false
  }
  return turn.length > 0 ? turn : responses
}
