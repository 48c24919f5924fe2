// Prompt-facing types shared by the widgets, the backends and their callers
// (SPEC §6). No I/O here.
import type {EditMode} from '../config/types.js'

export type ReplyOutcome =
  | {type: 'submit'; text: string}
  | {type: 'cancelled'}
  | {type: 'open-editor'; currentText: string}

export interface SelectOption {
  key: string
  description: string
}

export interface InlineSelectConfig {
  message: string
  options: SelectOption[]
  default?: string
}

export interface PromptContext {
  input?: NodeJS.ReadableStream
  output?: NodeJS.WritableStream
  signal?: AbortSignal
}

/**
 * Why a prompt ended without an answer. Ctrl+C is 'interrupted' (the interrupt
 * menu escalates on it), Esc is 'cancelled' (the menu continues). Compare by
 * `name` / `reason`, not `instanceof`.
 */
export class PromptCancelledError extends Error {
  readonly reason: 'interrupted' | 'cancelled'
  constructor(reason: 'interrupted' | 'cancelled', message?: string) {
    super(message ?? (reason === 'interrupted' ? 'Prompt interrupted' : 'Prompt cancelled'))
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
