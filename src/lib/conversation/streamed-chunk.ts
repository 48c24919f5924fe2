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

/**
 * A byte buffer of JSON-string bodies, reused across chunks, allocated once
 * at the size it works at: one that grew by doubling left every smaller copy
 * behind as memory only a full collection frees (issue 27). Past that size
 * (one piece larger than the slack the caller sized it with) it grows.
 */
export class JsonTextBuffer {
  private bytes: Buffer
  length = 0

  constructor(capacity = 64 * 1024) {
    // Not filled: pages nothing writes to are never resident.
    this.bytes = Buffer.allocUnsafeSlow(capacity)
  }

  /**
   * Appends the piece's text, JSON-escaped, or its `json` when given (the
   * text's JSON body as bytes already, a binary string: copied as it is).
   * Concatenated escapes are the escape of the concatenation (lone
   * surrogates included).
   */
  add(piece: {readonly text: string; json?: string}): void {
    // Not destructured: a piece of bytes decodes its text only when it is read.
    const json = piece.json
    if (json !== undefined) {
      this.reserve(this.length + json.length)
      this.length += this.bytes.write(json, this.length, 'latin1')
      return
    }
    const body = JSON.stringify(piece.text).slice(1, -1)
    // A UTF-16 code unit never takes more than 3 bytes of UTF-8; measured only when that much might not fit.
    if (this.length + body.length * 3 > this.bytes.length) this.reserve(this.length + Buffer.byteLength(body))
    this.length += this.bytes.write(body, this.length, 'utf8')
  }

  /** What was added since the last `clear` (a view: valid until the next `add` or `clear`). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length)
  }

  clear(): void {
    this.length = 0
  }

  /** Bytes it can hold without growing. */
  get capacity(): number {
    return this.bytes.length
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
