// What a menu's answer does to the turn: the one place that maps the actions
// of the streaming menu, the turn menu (at a gap between phases) and the
// tool step's ending to the turn's next move. A new action of any of these
// menus fails to compile here until it is given its effect.
import type {StreamingInterruptAction, TurnInterruptAction} from '../interrupt/handler.js'
import {unreachable} from '../text/unreachable.js'

export type TurnOutcome =
  /** The model finished. */
  | {type: 'done'}
  /** The user stopped the turn (`s`, or Stop at the tool menu): exit 0. */
  | {type: 'stopped'}
  /** The user discarded the partial turn (`a`). */
  | {type: 'aborted'}
  /** Graceful shutdown (escalation, SIGTERM, SIGHUP): state is saved; the router exits. */
  | {type: 'shutdown'}
  /**
   * The provider failed; everything received is stored. `saved` says what:
   * the failed response's partial answer, only earlier steps of the turn, or
   * nothing — then the turn is removed from the conversation (a retry must not
   * send the query twice) and `unsent` holds its text for the draft.
   */
  | {type: 'failed'; error: unknown; saved: 'partial' | 'turn' | 'nothing'; unsent?: string}

/** The turn menu's answer at a gap that does something (`continue` there is no answer: the turn goes on). */
export type GapAction = Exclude<TurnInterruptAction, {type: 'continue'}>

/** The turn's next move after a menu was answered (or none was opened). */
export type MenuEffect =
  /** On with what the turn was doing (the stream ran to its end: on to its tool calls). */
  | {type: 'go-on'}
  /** The answer had ended: a new request asks the model to continue. */
  | {type: 'continue'}
  /** The user's reply is the next user message. */
  | {type: 'reply'; text: string; fromEditor: boolean}
  /** The turn ends so (an abort's discard is the caller's: it owns the events). */
  | {type: 'end'; outcome: TurnOutcome}

/** What an answer of the streaming menu (undefined: none was opened) or of the turn menu at a gap does. */
export function menuEffect(action: StreamingInterruptAction | GapAction | undefined): MenuEffect {
  if (action === undefined) return {type: 'go-on'}
  switch (action.type) {
    case 'resume': {
      return {type: 'go-on'}
    }

    case 'continue': {
      return {type: 'continue'}
    }

    case 'reply': {
      return {type: 'reply', text: action.text, fromEditor: action.fromEditor}
    }

    case 'stop': {
      return {type: 'end', outcome: {type: 'stopped'}}
    }

    case 'abort': {
      return {type: 'end', outcome: {type: 'aborted'}}
    }

    // Escalation already started the shutdown.
    case 'escalate': {
      return {type: 'end', outcome: {type: 'shutdown'}}
    }

    default: {
      return unreachable(action, 'menu action')
    }
  }
}

/** Whether the stream goes on under this answer of the streaming menu (resumed, or continued after its end); any other answer ends it. */
export function keepsStream(action: StreamingInterruptAction): boolean {
  const effect = menuEffect(action)
  return effect.type === 'go-on' || effect.type === 'continue'
}
