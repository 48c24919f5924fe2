// The PromptBackend that talks to a human on the controlling terminal: every
// prompt opens fresh /dev/tty streams (unless given streams) and never
// touches stdin/stdout/stderr (SPEC §1 inv. 3).
import {ReplyHistory} from './history.js'
import type {KeyBindings} from '../config/keymaps.js'
import {inlineReply, type InlineReplyContext, type OlderHistory} from './inline-reply.js'
import {inlineSelect} from './inline-select.js'
import {type InlineReplyRequest, type InlineSelectConfig, type PromptBackend, type ReplyOutcome} from './types.js'

export interface TerminalPromptBackendOptions {
  /** Streams/env/signal for every prompt (tests, embedding); default: fresh /dev/tty, process.env. */
  context?: InlineReplyContext
  /** Reply history shared by this backend's inline replies (one per conversation). */
  history?: ReplyHistory
  /** What every inline reply of this backend shares: the user's keys, the editor's name, the wider search. */
  inline?: InlinePromptSettings
}

export interface InlinePromptSettings {
  /** `editor.inline.keys`. */
  keys?: KeyBindings
  /** What Ctrl+X opens, for the help line (EditorConfig.label()). */
  editorName?: string
  /** The workspace's other conversations, searched by Ctrl+R after this one's. */
  olderHistory?: OlderHistory
}

export class TerminalPromptBackend implements PromptBackend {
  /** Earlier replies and cancelled drafts, walked with Up/Down in inline replies. */
  readonly history: ReplyHistory
  private readonly context: InlineReplyContext | undefined
  private readonly inline: InlinePromptSettings

  constructor(options: TerminalPromptBackendOptions = {}) {
    this.context = options.context
    this.inline = options.inline ?? {}
    this.history = options.history ?? new ReplyHistory()
  }

  inlineSelect(config: InlineSelectConfig): Promise<string> {
    return inlineSelect(config, this.contextFor(config.signal))
  }

  inlineReply(request: InlineReplyRequest): Promise<ReplyOutcome> {
    // The conversation's replies come with the request; drafts cancelled in
    // this process stay on top of them. A prompt that asks for no history
    // (tool arguments, skip reasons, results) neither walks nor feeds it.
    if (request.history) this.history.setBase(request.history)
    return inlineReply(
      {
        message: request.message,
        initialText: request.initialText,
        editMode: request.editMode,
        editorEscape: request.editorEscape,
        history: request.history ? this.history : undefined,
        // Prompts without history (tool arguments, results) search nothing either.
        olderHistory: request.history ? this.inline.olderHistory : undefined,
        keys: this.inline.keys,
        editorName: this.inline.editorName,
        onChange: request.onChange,
        placeholder: request.placeholder,
      },
      this.contextFor(request.signal),
    )
  }

  /** The backend's context with one prompt's own abort signal joined to it. */
  private contextFor(signal: AbortSignal | undefined): InlineReplyContext | undefined {
    if (signal === undefined) return this.context
    const shared = this.context?.signal
    return {...this.context, signal: shared ? AbortSignal.any([shared, signal]) : signal}
  }

  async confirm(message: string, defaultValue: boolean): Promise<boolean> {
    const key = await inlineSelect(
      {
        message,
        options: [
          {key: 'y', description: 'yes'},
          {key: 'n', description: 'no'},
        ],
        default: defaultValue ? 'y' : 'n',
      },
      this.context,
    )
    return key === 'y'
  }

  /** A one-line question: @inquirer/prompts `input` on the tty context, the default pre-filled. */
  async text(message: string, defaultValue?: string): Promise<string> {
    const {askQuestion} = await import('./question.js')
    return askQuestion(message, {default: defaultValue}, this.context)
  }
}
