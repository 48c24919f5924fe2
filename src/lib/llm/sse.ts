// Framing: SSE (Anthropic, OpenAI-format) and NDJSON (Ollama) bodies as
// batches of messages. A batch is everything one network read completed, so
// adapters can coalesce within it without adding latency. eventsource-parser's
// feed() is called directly: its web-stream wrapper is 2–4× slower.
import {createParser, type EventSourceMessage} from 'eventsource-parser'

export type {EventSourceMessage}

export async function* sseBatches(chunks: AsyncIterable<string>): AsyncGenerator<EventSourceMessage[]> {
  let batch: EventSourceMessage[] = []
  const parser = createParser({onEvent: (event) => batch.push(event)})
  for await (const chunk of chunks) {
    parser.feed(chunk)
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
