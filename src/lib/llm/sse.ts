// Framing: SSE (Anthropic, OpenAI-format) and NDJSON (Ollama) bodies as
// batches of messages (of decoded text or binary strings alike: only ASCII
// bytes frame them). A batch is everything one network read completed, so
// adapters can coalesce within it without adding latency. eventsource-parser's
// feed() is called directly: its web-stream wrapper is 2–4× slower.
import {createParser, type EventSourceMessage} from 'eventsource-parser'

export type {EventSourceMessage}

export async function* sseBatches(chunks: AsyncIterable<string>): AsyncGenerator<EventSourceMessage[]> {
  let batch: EventSourceMessage[] = []
  const parser = createParser({onEvent: (event) => batch.push(event)})
  for await (const chunk of chunks) {
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
  }
  // An event cut off before its blank line is incomplete: it is dropped, as
  // EventSource does, and the adapter reports the stream as ended early.
}

/** Non-empty lines of an NDJSON body, batched per network read. */
export async function* ndjsonBatches(chunks: AsyncIterable<string>): AsyncGenerator<string[]> {
  let pending = ''
  for await (const chunk of chunks) {
    const text = pending + chunk
    const lines = text.split('\n')
    pending = lines.pop()!
    const batch = lines.filter((l) => l.trim() !== '')
    if (batch.length > 0) yield batch
  }
  if (pending.trim() !== '') yield [pending]
}
