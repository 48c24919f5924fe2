// The interrupt menus (SPEC §7): what a Ctrl+C during streaming or during a
// tool run turns into. Both are loops, so a reply the user backs out of
// returns to the menu instead of ending the interrupt. Pure decision logic:
// the caller owns the stream, the tool process and the shutdown.
import type {ComposeInEditor, EditMode, InterruptSection} from '../config/types.js'
import type {EditorBackend} from '../editor/types.js'
import {isPromptCancelled, type CancelReason, type PromptBackend, type SelectOption} from '../inquire/types.js'
import {composeText} from '../compose/compose.js'
import type {ToolInterruptAction} from '../tool/coordinator.js'
import type {ToolPromptInterruptAction} from '../tool/prompter.js'
import type {ComposeDeps} from '../compose/inline.js'
import {unreachable} from '../text/unreachable.js'
import {errorLine} from '../text/one-line.js'
import {QUEUE_OPTION, queueReply, type QueueResult, type ReplySlot} from './queue-prompt.js'

export type StreamingInterruptAction =
  /** Keep reading the live stream. */
  | {type: 'resume'}
  /** The stream had ended: send a new request to continue. */
  | {type: 'continue'}
  /** Stop the stream, commit the partial message, send `text` as the next user message. */
  | {type: 'reply'; text: string; fromEditor: boolean}
  /** Commit the partial message and exit 0. */
  | {type: 'stop'}
  /** Discard the partial turn and exit. */
  | {type: 'abort'}
  /** Ctrl+C at the menu: graceful shutdown. */
  | {type: 'escalate'}

// The tool coordinator defines what it needs from a tool-run Ctrl+C; this module answers it.
export type {ToolInterruptAction} from '../tool/coordinator.js'

// A Ctrl+C at a tool prompt: answered by the `[b,r,s,?]` menu.
export type {ToolPromptInterruptAction} from '../tool/prompter.js'

/** A press between turn phases (persisting, between two tool calls). */
export type TurnInterruptAction =
  | {type: 'continue'}
  /** Send `text` as the next user message (calls not yet answered are answered as interrupted). */
  | {type: 'reply'; text: string; fromEditor: boolean}
  | {type: 'stop'}
  | {type: 'escalate'}

/** A press outside any turn phase (finishing up, any gap of a query once its router exists). */
export type FallbackInterruptAction = {type: 'continue'} | {type: 'stop'} | {type: 'escalate'}

export const TURN_MENU: SelectOption[] = [
  {key: 'c', description: 'Continue turn'},
  {key: 'r', description: 'Reply (send a message, continue)'},
  QUEUE_OPTION,
  {key: 's', description: 'Stop (save & exit)'},
]

/** A tool prompt (permission, arguments, result) interrupted: Esc is `b`. */
export const TOOL_PROMPT_MENU: SelectOption[] = [
  {key: 'b', description: 'Back to the prompt'},
  {key: 'r', description: 'Stop & reply (this and the remaining calls are not run)'},
  {key: 's', description: 'Stop (skip the remaining calls, save & exit)'},
]

export const FALLBACK_MENU: SelectOption[] = [
  {key: 'c', description: 'Continue'},
  // `s`, not `q`: `q` queues a reply in every other menu (one meaning per key, SPEC §19).
  {key: 's', description: 'Stop (nothing was sent, exit)'},
]

/** A menu's reply: non-blank text, a blank submit, or backed out of (`reason` 'interrupted': with Ctrl+C). */
export type ReplyResult =
  | {type: 'reply'; text: string; fromEditor: boolean}
  | {type: 'empty'}
  | {type: 'cancelled'; reason?: CancelReason}

/** The menus' reply: {@link composeText} by the menu's `compose_in_editor`, the text named a reply. */
export async function collectReply(deps: ComposeDeps, message: string, compose: ComposeInEditor): Promise<ReplyResult> {
  const outcome = await composeText(deps, {message, mode: compose})
  return outcome.type === 'text' ? {type: 'reply', text: outcome.text, fromEditor: outcome.fromEditor} : outcome
}

export const STREAMING_MENU: SelectOption[] = [
  {key: 'c', description: 'Continue'},
  {key: 'r', description: 'Reply (stop & respond)'},
  QUEUE_OPTION,
  {key: 's', description: 'Stop (save & exit)'},
  {key: 'a', description: 'Abort (discard & exit)'},
]

export const TOOL_MENU: SelectOption[] = [
  {key: 'c', description: 'Continue'},
  {key: 'r', description: 'Stop & respond'},
  QUEUE_OPTION,
  {key: 's', description: 'Stop (cancel & exit)'},
  {key: 't', description: 'Restart'},
]

export const INTERRUPT_MENU_TITLE = 'Interrupted'
export const REPLY_PROMPT = 'Reply:'

/** The tool response recorded for a tool-menu reply with text. */
export function customToolResponse(text: string): string {
  return `Tool run cancelled by user with a custom message:\n\n${text}`
}

export interface InterruptHandlerDeps {
  backend: PromptBackend
  editor: EditorBackend | undefined
  /** `interrupt` of the merged config: the actions and compose modes. */
  config: InterruptSection
  editMode: EditMode
  /** One line of chrome on stderr. */
  notice: (line: string) => void
  history?: ComposeDeps['history']
  noEditorReason?: string
  typedDraft?: ComposeDeps['typedDraft']
  /** The queued reply's slot; without one the menus offer no `q`. */
  queue?: ReplySlot
  /**
   * The user answered a menu (any choice, Esc included): the Ctrl+C ladder
   * starts over (SignalRouter.resetLadder).
   */
  onMenuAnswered?: () => void
  /**
   * Ctrl+C at a menu: the second rung. Called at once, before the caller
   * unwinds (a tool may take its grace period to die), so the shutdown and
   * its message start with the key press (SignalRouter.shutdown).
   */
  onEscalate?: () => void
  /**
   * Ctrl+C typed at the reply prompt of a configured `reply` / `respond`
   * action, which stands where the menu would: fed to the ladder as a press
   * (SignalRouter.handle). True when it began the graceful shutdown (a
   * second press within the cooldown); false: back to the work.
   */
  pressAgain?: () => boolean
}

type MenuChoice = {key: string} | {escalate: true}

export class InterruptHandler {
  private readonly deps: InterruptHandlerDeps

  constructor(deps: InterruptHandlerDeps) {
    this.deps = deps
  }

  /** A Ctrl+C while the assistant streams. `streamAlive`: whether the stream can still be resumed. */
  async handleStreamingInterrupt(streamAlive: boolean): Promise<StreamingInterruptAction> {
    const {action, compose_in_editor: compose} = this.deps.config.streaming
    const keepGoing: StreamingInterruptAction = streamAlive ? {type: 'resume'} : {type: 'continue'}
    switch (action) {
      case 'continue': {
        return keepGoing
      }

      case 'stop': {
        return {type: 'stop'}
      }

      case 'abort': {
        return {type: 'abort'}
      }

      case 'reply': {
        // No menu to return to: backing out of the reply resumes the response,
        // unless that Ctrl+C is the second press of the ladder.
        const reply = await this.collectReply(REPLY_PROMPT, compose)
        if (reply.type === 'reply') return reply
        return this.isSecondPress(reply) ? {type: 'escalate'} : keepGoing
      }

      case 'prompt': {
        break
      }

      default: {
        return unreachable(action, 'interrupt.streaming.action')
      }
    }

    for (;;) {
      const choice = await this.menu(STREAMING_MENU)
      if ('escalate' in choice) return {type: 'escalate'}
      switch (choice.key) {
        case 'c': {
          return keepGoing
        }

        case 'q': {
          // Queued: the stream goes on (shown from where it was held), or
          // the turn does, if the stream ended meanwhile.
          if (await this.queued(compose)) return {type: 'resume'}
          break
        }

        case 's': {
          return {type: 'stop'}
        }

        case 'a': {
          return {type: 'abort'}
        }

        case 'r': {
          const reply = await this.collectReply(REPLY_PROMPT, compose)
          if (reply.type === 'reply') return reply
          // Empty or cancelled: back to the menu.
          break
        }

        default: {
          break
        }
      }
    }
  }

  /**
   * A Ctrl+C while a tool runs. `cancellationResponse` is the tool's
   * `cancellation_response`, recorded when a reply is left empty.
   */
  async handleToolInterrupt(cancellationResponse: string): Promise<ToolInterruptAction> {
    const {action, compose_in_editor: compose} = this.deps.config.tool_call
    switch (action) {
      case 'continue': {
        return {type: 'continue'}
      }

      case 'restart': {
        return {type: 'restart'}
      }

      case 'stop': {
        return {type: 'stop'}
      }

      case 'respond': {
        // No menu to return to: a cancelled reply is the canned response too.
        const reply = await this.collectReply(REPLY_PROMPT, compose)
        if (reply.type !== 'reply' && this.isSecondPress(reply)) return {type: 'escalate'}
        return {
          type: 'respond',
          content: reply.type === 'reply' ? customToolResponse(reply.text) : cancellationResponse,
        }
      }

      case 'prompt': {
        break
      }

      default: {
        return unreachable(action, 'interrupt.tool_call.action')
      }
    }

    for (;;) {
      const choice = await this.menu(TOOL_MENU)
      if ('escalate' in choice) return {type: 'escalate'}
      switch (choice.key) {
        case 'c': {
          return {type: 'continue'}
        }

        case 'q': {
          // Queued: the tool keeps running.
          if (await this.queued(compose)) return {type: 'continue'}
          break
        }

        case 's': {
          return {type: 'stop'}
        }

        case 't': {
          return {type: 'restart'}
        }

        case 'r': {
          const reply = await this.collectReply(REPLY_PROMPT, compose)
          if (reply.type === 'reply') return {type: 'respond', content: customToolResponse(reply.text)}
          if (reply.type === 'empty') return {type: 'respond', content: cancellationResponse}
          // Cancelled: back to the menu.
          break
        }

        default: {
          break
        }
      }
    }
  }

  /**
   * A Ctrl+C between turn phases. Nothing is unsaved there (the last phase
   * persisted), so there is no abort. A reply is composed as the streaming
   * menu's is; an empty or cancelled one returns to the menu.
   */
  async handleTurnInterrupt(): Promise<TurnInterruptAction> {
    const compose = this.deps.config.streaming.compose_in_editor
    for (;;) {
      const choice = await this.menu(TURN_MENU)
      if ('escalate' in choice) return {type: 'escalate'}
      if (choice.key === 's') return {type: 'stop'}
      if (choice.key === 'q') {
        if (await this.queued(compose)) return {type: 'continue'}
        continue
      }
      if (choice.key !== 'r') return {type: 'continue'}
      const reply = await this.collectReply(REPLY_PROMPT, compose)
      if (reply.type === 'reply') return reply
    }
  }

  /**
   * A Ctrl+C at a tool prompt (permission, arguments, result): `b` back to
   * the prompt (Esc too), `r` stop and reply (composed as the tool menu's
   * reply; empty or cancelled returns here), `s` stop.
   */
  async handleToolPromptInterrupt(): Promise<ToolPromptInterruptAction> {
    for (;;) {
      const choice = await this.menu(TOOL_PROMPT_MENU, 'b')
      if ('escalate' in choice) return {type: 'escalate'}
      if (choice.key === 'b') return {type: 'back'}
      if (choice.key === 's') return {type: 'stop'}
      const reply = await this.collectReply(REPLY_PROMPT, this.deps.config.tool_call.compose_in_editor)
      if (reply.type === 'reply') return reply
    }
  }

  /** The floor of the ladder: a Ctrl+C with no more specific scope. No configuration, by design. */
  async handleFallbackInterrupt(): Promise<FallbackInterruptAction> {
    const choice = await this.menu(FALLBACK_MENU)
    if ('escalate' in choice) return {type: 'escalate'}
    return choice.key === 's' ? {type: 'stop'} : {type: 'continue'}
  }

  /**
   * A key typed while jp works (type to queue): the `Queue:` prompt at the
   * bottom reads it and what follows. Undefined without a slot.
   */
  async handleTypedQueue(): Promise<QueueResult | undefined> {
    const slot = this.deps.queue
    return slot ? queueReply(this.deps, slot, {mode: 'never', typed: true}) : undefined
  }

  /** A menu's `q`: true when a reply is queued (back to the work), false to show the menu again. */
  private async queued(mode: ComposeInEditor): Promise<boolean> {
    const slot = this.deps.queue
    if (!slot) return false
    return (await queueReply(this.deps, slot, {mode})).type === 'queued'
  }

  /** The reply flow of both menus, exposed for callers that need it directly. */
  async collectReply(message: string, compose: ComposeInEditor): Promise<ReplyResult> {
    return collectReply(this.deps, message, compose)
  }

  /** A reply backed out of with Ctrl+C that the ladder counts as its second press. */
  private isSecondPress(reply: ReplyResult): boolean {
    return reply.type === 'cancelled' && reply.reason === 'interrupted' && (this.deps.pressAgain?.() ?? false)
  }

  /** Ctrl+C at the menu escalates; Esc is `escKey` (continue). Any answer resets the ladder. */
  private async menu(menu: SelectOption[], escKey = 'c'): Promise<MenuChoice> {
    // No slot (a caller without one): no `q` to offer.
    const options = this.deps.queue ? menu : menu.filter((o) => o !== QUEUE_OPTION)
    let choice: MenuChoice
    try {
      choice = {key: await this.deps.backend.inlineSelect({message: INTERRUPT_MENU_TITLE, options})}
    } catch (error) {
      if (isPromptCancelled(error) && error.reason === 'cancelled') {
        choice = {key: escKey}
      } else {
        if (!isPromptCancelled(error)) {
          // The menu could not be shown (terminal gone): nobody can answer, so
          // shut down gracefully rather than guess.
          this.deps.notice(`⚠ Couldn't show the interrupt menu: ${errorLine(error)}`)
        }

        this.deps.onEscalate?.()
        return {escalate: true}
      }
    }

    this.deps.onMenuAnswered?.()
    return choice
  }
}
