// The answer recorded while it streams (issue 14): the text of the last
// second is gathered and written as one append — the first write adds the
// chat_response event (after any thinking blocks already closed), later ones
// only append the new text — so a SIGKILL loses at most that second, and the
// answer is never held or copied twice while it arrives. Writes run one at a
// time, in order; a failed write is reported once and ends the turn.
import {event, type ConversationEvent} from '../conversation/events.js'

export interface RecorderDeps {
  /** The conversation's events (the recorder appends the answer's event here). */
  events: ConversationEvent[]
  /** Writes what changed in `events`. */
  persist: () => Promise<void>
  /** Appends text to `events[index].message` in memory and on disk; without it, changed in place and persisted. */
  appendText?: (index: number, key: 'message', text: string) => Promise<void>
  /** Thinking blocks that are complete: stored before the text that follows them. */
  takeClosedReasoning: () => ConversationEvent[]
  /** How often to write (ms). */
  everyMs: number
  /** Called once when a write fails (the turn aborts its stream). */
  onFailure: (error: unknown) => void
}

export class AnswerRecorder {
  private pending: string[] = []
  /** Where the answer's chat_response event is in `events`, once written. */
  messageAt: number | undefined
  private timer: NodeJS.Timeout | undefined
  private writing: Promise<void> = Promise.resolve()
  private failure: unknown

  constructor(private readonly deps: RecorderDeps) {}

  add(text: string): void {
    if (text === '') return
    this.pending.push(text)
    this.timer ??= setTimeout(() => {
      this.timer = undefined
      void this.flush()
    }, this.deps.everyMs)
  }

  /** Whether any text arrived. */
  get sawText(): boolean {
    return this.messageAt !== undefined || this.pending.length > 0
  }

  /** Writes what is pending; a failure is kept for `close`. */
  flush(): Promise<void> {
    this.writing = this.writing
      .then(() => this.write())
      .catch((error: unknown) => {
        if (this.failure === undefined) {
          this.failure = error
          this.deps.onFailure(error)
        }
      })
    return this.writing
  }

  /** Stops the timer and writes the rest; rethrows a write failure. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    await this.flush()
    if (this.failure !== undefined) throw this.failure
  }

  private async write(): Promise<void> {
    if (this.failure !== undefined || this.pending.length === 0) return
    const text = this.pending.join('')
    this.pending = []
    const {events} = this.deps
    if (this.messageAt === undefined) {
      events.push(...this.deps.takeClosedReasoning(), event.message(text))
      this.messageAt = events.length - 1
      await this.deps.persist()
    } else if (this.deps.appendText) {
      await this.deps.appendText(this.messageAt, 'message', text)
    } else {
      const target = events[this.messageAt] as {message?: string}
      target.message = (target.message ?? '') + text
      await this.deps.persist()
    }
  }
}
