// The PromptBackend that talks to a human on the controlling terminal: every
// prompt opens fresh /dev/tty streams (unless given streams) and never
// touches stdin/stdout/stderr (SPEC §1 inv. 3).
import {ReplyHistory} from './reply-history.js'
import type {KeyBindings} from '../config/keymaps.js'
import {inlineReply, type InlineMentions, type InlineReplyContext, type OlderHistory} from './inline-reply.js'
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
  /** `@` completion in every inline reply; the mention check only where the text carries its mentions' files (`attachesMentions`). */
  mentions?: InlineMentions
}

export class TerminalPromptBackend implements PromptBackend {
  /** Earlier replies and cancelled drafts, walked with Up/Down in inline replies. */
  readonly history: ReplyHistory
  private readonly context: InlineReplyContext | undefined
  private readonly inline: InlinePromptSettings
  /** The open background prompt, until it settles. */
  private background: Promise<void> | undefined

  constructor(options: TerminalPromptBackendOptions = {}) {
    this.context = options.context
    this.inline = options.inline ?? {}
    this.history = options.history ?? new ReplyHistory()
  }

  inlineSelect(config: InlineSelectConfig): Promise<string> {
    const open = () => inlineSelect(config, this.contextFor(config.signal))
    return this.background ? this.idle().then(open) : open()
  }

  /**
   * Resolves once no background prompt (type to queue) is open: one prompt
   * at a time reads the terminal.
   */
  async idle(): Promise<void> {
    while (this.background) await this.background
  }

  inlineReply(request: InlineReplyRequest): Promise<ReplyOutcome> {
    if (request.background) {
      // Opened at once (the keys that opened it are read by it), and waited for by every other prompt.
      const open = this.reply(request)
      const done = open.then(
        () => {},
        () => {},
      )
      this.background = done
      void done.then(() => {
        if (this.background === done) this.background = undefined
      })
      return open
    }
    return this.background ? this.idle().then(() => this.reply(request)) : this.reply(request)
  }

  private reply(request: InlineReplyRequest): Promise<ReplyOutcome> {
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
        eraseOnDone: request.eraseOnDone,
        // Mentions are attached to what goes into the conversation (a query, a
        // reply, a queued reply); elsewhere they complete only.
        mentions: this.inline.mentions && {...this.inline.mentions, check: request.attachesMentions ? this.inline.mentions.check : undefined},
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
    await this.idle()
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
    await this.idle()
    const {askQuestion} = await import('./question.js')
    return askQuestion(message, {default: defaultValue}, this.context)
  }
}
