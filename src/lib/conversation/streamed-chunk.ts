// Streamed text on its way to events.log, held as the bytes the log record
// will carry (the body of a JSON string, UTF-8) rather than as JS strings.
// A fast answer arrives faster than it can be fsynced: strings waiting
// for the write outlive V8's young-generation collections, get promoted and
// pile up as old-space garbage (issue 14 measured 2–3× the bare client's
// peak RSS from this alone). Encoded at once into a reused buffer, every
// delta string dies young and the wait costs one byte per byte.

/** Text for a streamed field, encoded as its log record stores it. */
export interface StreamedChunk {
  /** The text as the body of a JSON string (no quotes), UTF-8. */
  json: Uint8Array
  /** The text itself for the copy kept in memory: all of it when `whole`, else only its start. */
  text: string
  whole: boolean
}

/** A growable byte buffer of JSON-string bodies, reused across chunks. */
export class JsonTextBuffer {
  private bytes = Buffer.allocUnsafeSlow(64 * 1024)
  length = 0

  /** Appends `text`, JSON-escaped. Concatenated escapes are the escape of the concatenation (lone surrogates included). */
  add(text: string): void {
    const body = JSON.stringify(text).slice(1, -1)
    // A UTF-16 code unit never takes more than 3 bytes of UTF-8.
    this.reserve(this.length + body.length * 3)
    this.length += this.bytes.write(body, this.length, 'utf8')
  }

  /** What was added since the last `clear` (a view: valid until the next `add` or `clear`). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length)
  }

  clear(): void {
    this.length = 0
  }

  private reserve(size: number): void {
    if (size <= this.bytes.length) return
    const grown = Buffer.allocUnsafeSlow(Math.max(size, this.bytes.length * 2))
    this.bytes.copy(grown, 0, 0, this.length)
    this.bytes = grown
  }
}

/** A whole chunk from a string (callers that have the text in hand). */
export function chunkOf(text: string): StreamedChunk {
  return {json: Buffer.from(JSON.stringify(text).slice(1, -1), 'utf8'), text, whole: true}
}

/** The chunk's text, decoded from its bytes when only its start was kept. */
export function chunkText(chunk: StreamedChunk): string {
  return chunk.whole ? chunk.text : (JSON.parse(`"${Buffer.from(chunk.json.buffer, chunk.json.byteOffset, chunk.json.length).toString('utf8')}"`) as string)
}
