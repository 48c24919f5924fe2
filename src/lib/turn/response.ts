// One model response as it accumulates from stream events, and the
// conversation events that record it. Pure: the turn loop feeds it and
// commits what it returns, so what is stored is what the provider sent —
// each thinking block with its own signature, redacted blocks included.
import {event, type ChatResponseEvent, type ConversationEvent} from '../conversation/events.js'
import type {FinishReason, StreamEvent, TextPiece, ToolCallEvent} from '../llm/types.js'

/** A stored reasoning piece: a signed block, a redacted block, or unsigned text. */
type ReasoningPiece = {text: string; signature?: string} | {redacted: string}

export class ResponseParts {
  text = ''
  toolCalls: ToolCallEvent[] = []
  finish?: {reason: FinishReason; raw?: string}
  /** The response's token counts, as last reported (each usage event is a running total). */
  usage?: {input: number; output: number; cached: number}
  private closed: ReasoningPiece[] = []
  /** Reasoning text not yet closed by a signature. */
  private open = ''
  private sawText = false

  /**
   * With `recordText`, the answer's text goes there as it arrives (it is
   * recorded in the conversation while it streams) and is not kept here:
   * `text` stays empty and `toEvents` leaves the message out.
   */
  constructor(private readonly recordText?: (piece: TextPiece) => void) {}

  add(ev: StreamEvent): void {
    switch (ev.type) {
      case 'text':
        // A text event of bytes is never empty (and reading its text would decode it).
        if (ev.utf8 === undefined && ev.text === '') break
        this.sawText = true
        if (this.recordText) this.recordText(ev)
        else this.text += ev.text
        break
      case 'reasoning':
        this.open += ev.text
        if (ev.signature !== undefined) {
          this.closed.push({text: this.open, signature: ev.signature})
          this.open = ''
        }
        break
      case 'redacted_reasoning':
        this.closeUnsigned()
        this.closed.push({redacted: ev.data})
        break
      case 'tool_call':
        this.toolCalls.push(ev)
        break
      case 'usage':
        this.usage = {input: ev.inputTokens ?? this.usage?.input ?? 0, output: ev.outputTokens ?? this.usage?.output ?? 0, cached: ev.cachedTokens ?? this.usage?.cached ?? 0}
        break
      case 'finish':
        this.finish = ev.raw === undefined ? {reason: ev.reason} : {reason: ev.reason, raw: ev.raw}
        break
      default:
        break
    }
  }

  /** Whether anything of the answer arrived (text, reasoning or tool calls). */
  get empty(): boolean {
    return !this.sawText && this.open === '' && this.closed.length === 0 && this.toolCalls.length === 0
  }

  /** The conversation events recording this response, in the order the API wants them back. */
  toEvents(): ConversationEvent[] {
    const out: ConversationEvent[] = []
    for (const piece of [...this.closed, ...(this.open === '' ? [] : [{text: this.open}])]) out.push(storedReasoning(piece))
    if (this.text !== '') out.push(event.message(this.text))
    for (const call of this.toolCalls) out.push(event.toolCallRequest(call.id, call.name, call.arguments))
    // Stored with the turn: `jp conversation show` and `jp query -u` sum these.
    if (this.usage) out.push(event.usage(this.usage))
    return out
  }

  /** The thinking blocks complete so far, as events, handed over once (they precede the text that follows). */
  takeClosedReasoning(): ConversationEvent[] {
    const out = this.closed.map(storedReasoning)
    this.closed = []
    return out
  }

  private closeUnsigned(): void {
    if (this.open === '') return
    this.closed.push({text: this.open})
    this.open = ''
  }
}

function storedReasoning(piece: ReasoningPiece): ChatResponseEvent {
  if ('redacted' in piece) return {...event.reasoning(''), redacted_thinking: piece.redacted} as ChatResponseEvent
  const e = event.reasoning(piece.text)
  return piece.signature === undefined ? e : ({...e, signature: piece.signature} as ChatResponseEvent)
}

/** The one-line notice for a response that ended other than normally or with a tool call; undefined for those. */
export function finishNotice(reason: FinishReason, raw: string | undefined): string | undefined {
  const said = raw === undefined ? '' : ` (${raw})`
  switch (reason) {
    case 'stop':
    case 'tool_use':
      return undefined
    case 'length':
      return `The response was cut off at the token limit${said}.`
    case 'content_filter':
      return `The response was stopped by the provider's content filter${said}.`
    case 'refusal':
      return `The model refused to answer${said}.`
    case 'context_window':
      return `The response stopped: the model's context window is full${said}.`
    case 'pause':
      return `The provider paused the turn${said}; run 'jp query' to let it continue.`
    case 'other':
      return `The response ended for an unexpected reason${said}.`
  }
}
