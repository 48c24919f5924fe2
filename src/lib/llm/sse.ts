// Framing: SSE (Anthropic, OpenAI-format) and NDJSON (Ollama) bodies as
// batches of messages (of decoded text or binary strings alike: only ASCII
// bytes frame them). A batch is everything one network read completed, so
// adapters can coalesce within it without adding latency. eventsource-parser's
// feed() is called directly: its web-stream wrapper is 2–4× slower.
//
// Two bounds against a hostile server (issue 28), both here because only the
// framing knows where a record ends:
// - size: a line or event (SSE: the pending line plus the event's data so
//   far; NDJSON: the pending line) over MAX_RECORD_CHARS ends the stream.
//   Without it a `data:` line that never ends grew jp's memory until Node
//   aborted.
// - progress: a server that trickles a byte every few seconds never trips
//   the idle timeout (http.ts), so the time spent waiting for data since the
//   last complete record (an SSE event or comment, an NDJSON line) is added
//   up; past `progressMs` the stream fails as stalled. Only waiting counts:
//   the time the consumer holds a batch (an interrupt menu open) does not.
import {createParser, type EventSourceMessage} from 'eventsource-parser'
import {ProviderError} from './types.js'

export type {EventSourceMessage}

/** The largest SSE line or event, or NDJSON line, jp reads (characters; bytes for the SSE adapters, which read binary strings): 16 Mi. */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024

export interface FramingOptions {
  /** Names the provider in errors. */
  provider: string
  /** The minimum-progress rule: how long waiting for data may add up to without a complete record (default: no rule). */
  progressMs?: number
  /** Default MAX_RECORD_CHARS. */
  maxRecordChars?: number
}

function tooLarge(opts: FramingOptions): ProviderError {
  const limit = opts.maxRecordChars ?? MAX_RECORD_CHARS
  const size = limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MiB` : `${limit} characters`
  return new ProviderError(`${opts.provider}: a stream line or event over ${size}; the stream was ended`, {provider: opts.provider, retryable: false})
}

/** Adds up the time spent waiting for data since the last complete record. */
class ProgressClock {
  private waited = 0
  private mark = Date.now()
  constructor(private readonly opts: FramingOptions) {}

  /** A chunk arrived: the wait since `resume` counts. */
  arrived(): void {
    this.waited += Date.now() - this.mark
  }

  /** After the chunk was handled (and any batch taken by the consumer): waiting starts again. */
  resume(): void {
    this.mark = Date.now()
  }

  /** A record completed in the last chunk (`progressed`), or else: has the stream stalled? */
  check(progressed: boolean): void {
    if (progressed) this.waited = 0
    else if (this.opts.progressMs !== undefined && this.waited >= this.opts.progressMs) {
      const {provider} = this.opts
      throw new ProviderError(`${provider}: the stream stalled: no complete event for ${this.opts.progressMs / 1000} s`, {provider, retryable: true})
    }
  }
}

export async function* sseBatches(chunks: AsyncIterable<string>, opts: FramingOptions): AsyncGenerator<EventSourceMessage[]> {
  let batch: EventSourceMessage[] = []
  let progressed = false
  let oversized = false
  const parser = createParser({
    onEvent: (event) => {
      batch.push(event)
      progressed = true
    },
    // A comment (`: keep-alive`) is a server saying it is still there: progress, not content.
    onComment: () => (progressed = true),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') oversized = true
    },
    maxBufferSize: opts.maxRecordChars ?? MAX_RECORD_CHARS,
  })
  const clock = new ProgressClock(opts)
  for await (const chunk of chunks) {
    clock.arrived()
    // The parser joins a line left over from the last read with the whole of
    // the next read (a copy of every read): fed the rest of that line first,
    // it joins only that line.
    const lf = chunk.indexOf('\n')
    if (lf === -1 || lf === chunk.length - 1) parser.feed(chunk)
    else {
      parser.feed(chunk.slice(0, lf + 1))
      parser.feed(chunk.slice(lf + 1))
    }
    if (batch.length > 0) {
      const done = batch
      batch = []
      yield done
    }
    // What completed before the oversized record is delivered first (the partial answer is kept).
    if (oversized) throw tooLarge(opts)
    clock.check(progressed)
    progressed = false
    clock.resume()
  }
  // An event cut off before its blank line is incomplete: it is dropped, as
  // EventSource does, and the adapter reports the stream as ended early.
}

/** Non-empty lines of an NDJSON body, batched per network read. */
export async function* ndjsonBatches(chunks: AsyncIterable<string>, opts: FramingOptions): AsyncGenerator<string[]> {
  const limit = opts.maxRecordChars ?? MAX_RECORD_CHARS
  // The unfinished line, in pieces: joined only when it ends (a long line is not re-scanned per read).
  let pending: string[] = []
  let pendingChars = 0
  const clock = new ProgressClock(opts)
  for await (const chunk of chunks) {
    clock.arrived()
    const nl = chunk.indexOf('\n')
    if (nl === -1) {
      pending.push(chunk)
      pendingChars += chunk.length
      if (pendingChars > limit) throw tooLarge(opts)
      clock.check(false)
      clock.resume()
      continue
    }
    const text = pending.join('') + chunk
    pending = []
    const lines = text.split('\n')
    const rest = lines.pop()!
    if (rest !== '') pending.push(rest)
    pendingChars = rest.length
    const batch = lines.filter((l) => l.trim() !== '')
    if (batch.length > 0) yield batch
    if (pendingChars > limit) throw tooLarge(opts)
    clock.check(true)
    clock.resume()
  }
  const last = pending.join('')
  if (last.trim() !== '') yield [last]
}
