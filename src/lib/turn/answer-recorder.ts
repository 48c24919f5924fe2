// The answer recorded while it streams (issue 14): the text of the last
// second is gathered and written as one append — the first write adds the
// chat_response event (after any thinking blocks already closed), later ones
// only append the new text — so a SIGKILL loses at most that second. Writes
// run one at a time, in order; a failed write is reported once and ends the
// turn.
//
// Memory stays flat however long the answer: text waiting for its write is
// held as the log's bytes (StreamedChunk), not as strings, in two buffers
// that take turns (one gathers while the other is written); only the start
// of the answer is kept as text, for the copy in memory. A disk slower than
// the stream pushes back: `writable()` waits while too much is pending.
import {event, type ConversationEvent} from '../conversation/events.js'
import {IN_MEMORY_FIELD_CHARS} from '../conversation/journal.js'
import {JsonTextBuffer, type StreamedChunk} from '../conversation/streamed-chunk.js'
import type {TextPiece} from '../llm/types.js'

export interface RecorderDeps {
  /** The conversation's events (the recorder appends the answer's event here). */
  events: ConversationEvent[]
  /** Writes what changed in `events`. */
  persist: () => Promise<void>
  /** Appends a chunk to `events[index].message` in memory and on disk; without it, changed in place and persisted. */
  appendText?: (index: number, key: 'message', chunk: StreamedChunk) => Promise<void>
  /** Thinking blocks that are complete: stored before the text that follows them. */
  takeClosedReasoning: () => ConversationEvent[]
  /** How often to write (ms). */
  everyMs: number
  /** Called once when a write fails (the turn aborts its stream). */
  onFailure: (error: unknown) => void
}

/** Pending bytes that are written at once, without waiting for the second to pass. */
const WRITE_AT_BYTES = 256 * 1024
/** Pending bytes past which the stream waits for the write in flight (a disk slower than the network). */
export const PAUSE_AT_BYTES = 1024 * 1024
/**
 * What the two buffers are allocated at, once: the pause mark and the text of
 * the event that crosses it (one network read's, escaped: far less than this).
 */
export const RECORDER_BUFFER_BYTES = PAUSE_AT_BYTES + 512 * 1024

export class AnswerRecorder {
  private gathering = new JsonTextBuffer(RECORDER_BUFFER_BYTES)
  private spare = new JsonTextBuffer(RECORDER_BUFFER_BYTES)
  /** The pending text itself, while the answer is short enough to be kept in memory whole. */
  private kept: string[] = []
  private keptChars = 0
  /** Whether `kept` holds all of the pending text. */
  private whole = true
  /** Text is kept up to this many characters (all of it when the event is changed in place). */
  private readonly keepChars: number
  /** Where the answer's chat_response event is in `events`, once written. */
  messageAt: number | undefined
  private timer: NodeJS.Timeout | undefined
  /** The flush loop in flight, if any: it takes whatever gathered meanwhile when it is done. */
  private writing: Promise<void> | undefined
  /** The single write in flight. */
  private current: Promise<void> | undefined
  private failure: unknown

  constructor(private readonly deps: RecorderDeps) {
    this.keepChars = deps.appendText ? IN_MEMORY_FIELD_CHARS : Number.POSITIVE_INFINITY
  }

  /** Records a piece of the answer: its bytes when it has them (its text is read only while text is kept). */
  add(piece: TextPiece | string): void {
    if (typeof piece === 'string') piece = {text: piece}
    if (this.failure !== undefined || (piece.json === undefined ? piece.text === '' : piece.json === '')) return
    this.gathering.add(piece)
    // The first write stores the event itself, so its text is always kept.
    if (this.messageAt === undefined || this.keptChars < this.keepChars) {
      const text = piece.text
      this.kept.push(text)
      this.keptChars += text.length
    } else this.whole = false
    if (this.writing) return
    if (this.gathering.length >= WRITE_AT_BYTES) void this.flush()
    else this.timer ??= setTimeout(() => void this.flush(), this.deps.everyMs)
  }

  /** Bytes its two buffers hold allocated: RECORDER_BUFFER_BYTES each unless one piece did not fit. */
  get bufferBytes(): number {
    return this.gathering.capacity + this.spare.capacity
  }

  /** Resolves when the stream may go on: at once, unless a write is in flight and too much is pending behind it. */
  async writable(): Promise<void> {
    // A failed write is the flush loop's to report (it aborts the stream); here it only ends the wait.
    while (this.current && this.gathering.length >= PAUSE_AT_BYTES && this.failure === undefined) await this.current.catch(() => {})
  }

  /** Writes what is pending (and, after it, what arrived meanwhile); a failure is kept for `close`. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    this.writing ??= (async () => {
      try {
        while (this.gathering.length > 0 && this.failure === undefined) {
          this.current = this.write()
          await this.current
        }
      } catch (error) {
        this.failure = error
        this.gathering.clear()
        this.kept = []
        this.deps.onFailure(error)
      } finally {
        this.writing = undefined
        this.current = undefined
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

  /** Hands the gathered chunk to storage while the other buffer gathers what arrives meanwhile. */
  private async write(): Promise<void> {
    const buffer = this.gathering
    this.gathering = this.spare
    const chunk: StreamedChunk = {json: buffer.view(), text: this.kept.join(''), whole: this.whole}
    this.kept = []
    this.whole = true
    try {
      await this.store(chunk)
    } finally {
      buffer.clear()
      this.spare = buffer
    }
  }

  private async store(chunk: StreamedChunk): Promise<void> {
    const {events} = this.deps
    if (this.messageAt === undefined) {
      events.push(...this.deps.takeClosedReasoning(), event.message(chunk.text))
      this.messageAt = events.length - 1
      await this.deps.persist()
    } else if (this.deps.appendText) {
      await this.deps.appendText(this.messageAt, 'message', chunk)
    } else {
      const target = events[this.messageAt] as {message?: string}
      target.message = (target.message ?? '') + chunk.text
      await this.deps.persist()
    }
  }
}
