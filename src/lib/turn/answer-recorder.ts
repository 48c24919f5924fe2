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

/** Pending text that is written at once, without waiting for the second to pass (bounds memory on a fast stream). */
const WRITE_AT_CHARS = 256 * 1024

export class AnswerRecorder {
  private pending: string[] = []
  private pendingChars = 0
  /** Where the answer's chat_response event is in `events`, once written. */
  messageAt: number | undefined
  private timer: NodeJS.Timeout | undefined
  /** The write in flight, if any: it takes whatever gathered meanwhile when it is done. */
  private writing: Promise<void> | undefined
  private failure: unknown

  constructor(private readonly deps: RecorderDeps) {}

  add(text: string): void {
    if (text === '' || this.failure !== undefined) return
    this.pending.push(text)
    this.pendingChars += text.length
    if (this.writing) return
    if (this.pendingChars >= WRITE_AT_CHARS) void this.flush()
    else this.timer ??= setTimeout(() => void this.flush(), this.deps.everyMs)
  }

  /** Writes what is pending (and, after it, what arrived meanwhile); a failure is kept for `close`. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    this.writing ??= (async () => {
      try {
        while (this.pending.length > 0 && this.failure === undefined) await this.write()
      } catch (error) {
        this.failure = error
        this.pending = []
        this.deps.onFailure(error)
      } finally {
        this.writing = undefined
      }
    })()
    return this.writing
  }

  /** Stops the timer and writes the rest; rethrows a write failure. */
  async close(): Promise<void> {
    await this.writing
    await this.flush()
    if (this.failure !== undefined) throw this.failure
  }

  private async write(): Promise<void> {
    const text = this.pending.join('')
    this.pending = []
    this.pendingChars = 0
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
