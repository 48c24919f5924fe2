// Prompt-facing types shared by the widgets, the backends and their callers
// (SPEC §6). No I/O here.
import type {EditMode} from '../config/types.js'

export type ReplyOutcome =
  | {type: 'submit'; text: string}
  /**
   * `reason`: Ctrl+C is 'interrupted', Ctrl+D on an empty buffer 'cancelled',
   * a prompt ended from outside (a signal, a hang-up, an abort) 'terminated'.
   * `text`: the buffer as it was, so a caller that shows the prompt again
   * loses nothing. Both absent from older backends: treat as 'cancelled'.
   */
  | {type: 'cancelled'; reason?: CancelReason; text?: string}
  | {type: 'open-editor'; currentText: string}

/** Why a prompt ended without an answer; see {@link PromptCancelledError}. */
export type CancelReason = 'interrupted' | 'cancelled' | 'terminated'

export interface SelectOption {
  key: string
  description: string
}

export interface InlineSelectConfig {
  message: string
  options: SelectOption[]
  default?: string
  /** Ends this prompt from outside (it then rejects, reason 'terminated'). */
  signal?: AbortSignal
}

export interface PromptContext {
  input?: NodeJS.ReadableStream
  output?: NodeJS.WritableStream
  signal?: AbortSignal
}

/**
 * Why a prompt ended without an answer. Ctrl+C is 'interrupted' (the interrupt
 * menu escalates on it), Esc is 'cancelled' (the menu continues), and a
 * prompt ended from outside — a terminating signal, a hang-up, an abort — is
 * 'terminated' (nobody pressed anything: a tool prompt must not read it as a
 * Ctrl+C). Compare by `name` / `reason`, not `instanceof`.
 */
export class PromptCancelledError extends Error {
  readonly reason: CancelReason
  constructor(reason: CancelReason, message?: string) {
    super(message ?? (reason === 'interrupted' ? 'Prompt interrupted' : reason === 'terminated' ? 'Prompt ended' : 'Prompt cancelled'))
    this.name = 'PromptCancelledError'
    this.reason = reason
  }
}

export function isPromptCancelled(error: unknown): error is PromptCancelledError {
  return error instanceof Error && error.name === 'PromptCancelledError'
}

/**
 * The prompt was ended from outside — a terminating signal, a hang-up or an
 * abort (inquirer's ExitPromptError / AbortPromptError), not by a key.
 */
export function isPromptTerminated(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')
}

export interface InlineReplyRequest {
  message: string
  initialText: string
  editMode: EditMode
  /** false unwires and unadvertises the Ctrl+X editor escape. */
  editorEscape: boolean
  /** Earlier replies of this conversation, oldest first, for Up/Down history. */
  history?: string[]
  /** Told the buffer after every change (drafts saved as they are typed); must not block. */
  onChange?: (text: string) => void
  /** Shown dim while the buffer is empty; never part of it (as inquirer shows a default). */
  placeholder?: string
  /** Ends this prompt from outside (it then resolves `cancelled`, reason 'terminated'). */
  signal?: AbortSignal
  /** The text goes into the conversation with its `@` mentions' files: they are checked before it is sent (SPEC §19). */
  attachesMentions?: boolean
  /** The prompt leaves nothing on the screen when it ends (an overlay below the streaming answer). */
  eraseOnDone?: boolean
  /**
   * Opened while jp works (type to queue): the backend's other prompts (a
   * tool's permission, a menu) wait until it is closed.
   */
  background?: boolean
}

/** The prompt seam: a terminal implementation and a scripted mock. */
export interface PromptBackend {
  /** Resolves to the chosen option key; rejects with PromptCancelledError. */
  inlineSelect(config: InlineSelectConfig): Promise<string>
  /** Never rejects on Ctrl+C: that is `{type: 'cancelled'}`. */
  inlineReply(request: InlineReplyRequest): Promise<ReplyOutcome>
  /** Rejects with PromptCancelledError on Ctrl+C / Esc. */
  confirm(message: string, defaultValue: boolean): Promise<boolean>
  /** Single-line free text; rejects with PromptCancelledError on Ctrl+C. */
  text(message: string, defaultValue?: string): Promise<string>
}
