// Text-heavy streams at the cost of their text (issue 27). An answer arrives
// as thousands of SSE records that differ only in the text they carry:
//
//   {"id":"…","choices":[{"index":0,"delta":{"content":"…"},"finish_reason":null}]}
//   {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"…"}}
//
// Parsing each record whole (decode, JSON.parse, walk the objects) cost more
// than everything else jp does with the text. The adapters read the body as
// bytes, one char per byte ("binary" strings, `latin1`: splitting them into
// SSE lines is 8× cheaper than splitting decoded text), and learn a
// record's template from one record parsed whole: the bytes before and after
// its text's JSON string. A record with the same bytes around a valid JSON
// string is that record with other text, so only that string is parsed, and
// its bytes as sent are the text's JSON body that the conversation's log
// stores (streamed-chunk.ts) without escaping it again.
//
// Sound by construction: a template is kept only when parsing it with a
// sentinel string in the slot reads the sentinel back at the place the adapter
// reads text from, and everything else in a matching record is byte for byte
// the record the adapter parsed and classified as text-only. Anything else
// (another shape, a string that does not parse, a record that is not text)
// takes the adapter's ordinary path.

import {isUtf8} from 'node:buffer'

/** The UTF-8 text of a binary string (one char per byte). */
export function decodeBinary(binary: string): string {
  return Buffer.from(binary, 'latin1').toString('utf8')
}

/** What a matching record carries: its text, and the body of the JSON string it came in (binary). */
export interface TextRecord {
  /** The text's UTF-8 bytes as a binary string (the string had no `\u` escapes). */
  binary?: string
  /** The text itself (the string had `\u` escapes, which decode to UTF-16 units, not bytes). */
  text?: string
  /** The string's body as sent, between its quotes (binary): valid JSON string content. */
  json: string
}

/** Bytes gathered from binary strings into a buffer that grows to its working size once and is reused. */
export class ByteScratch {
  private bytes = Buffer.allocUnsafeSlow(16 * 1024)
  length = 0

  addBinary(binary: string): void {
    if (this.length + binary.length > this.bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.length + binary.length, this.bytes.length * 2))
      this.bytes.copy(grown, 0, 0, this.length)
      this.bytes = grown
    }
    this.length += this.bytes.write(binary, this.length, 'latin1')
  }

  /** The bytes gathered as a binary string; empties it. */
  takeBinary(): string {
    const binary = this.bytes.toString('latin1', 0, this.length)
    this.length = 0
    return binary
  }

  isUtf8(): boolean {
    return isUtf8(this.bytes.subarray(0, this.length))
  }

  /** The bytes gathered as UTF-8 text; empties it. */
  takeText(): string {
    const text = this.bytes.toString('utf8', 0, this.length)
    this.length = 0
    return text
  }

  clear(): void {
    this.length = 0
  }
}

const SENTINEL = '\u0001'
const QUOTE = 34
const BACKSLASH = 92

/** One adapter's template for its text-only records (one per stream). */
export class TextRecordTemplate {
  private before = ''
  private after = ''
  private event: string | undefined
  private learned = false
  /** Text-only records that missed since the last hit; learning is tried at the 1st, 2nd, 4th, 8th, … */
  private misses = 0

  /** The record's text when `data` (and its SSE event name) fits the template; undefined otherwise. */
  match(data: string, event?: string): TextRecord | undefined {
    if (this.learned && event === this.event && data.length >= this.before.length + this.after.length + 2 && data.startsWith(this.before) && data.endsWith(this.after)) {
      const literal = data.slice(this.before.length, data.length - this.after.length)
      if (literal.charCodeAt(0) === QUOTE && literal.charCodeAt(literal.length - 1) === QUOTE) {
        let value: unknown
        try {
          value = JSON.parse(literal)
        } catch {
          value = undefined // not one JSON string: the ordinary path says what is wrong with it
        }
        if (typeof value === 'string') {
          this.misses = 0
          const json = literal.slice(1, -1)
          // JSON.parse of a binary string keeps bytes as chars, but a \u escape yields a UTF-16 unit.
          return json.indexOf('\\u') === -1 ? {binary: value, json} : {text: JSON.parse(decodeBinary(literal)) as string, json}
        }
      }
    }
    return undefined
  }

  /**
   * Called with a record the adapter parsed whole and found to carry nothing
   * but text under `key`, read by `read` (the decoded record → the text):
   * learns its template, when the record's shape allows one.
   */
  learn(data: string, event: string | undefined, key: string, read: (record: unknown) => unknown): void {
    // A stream whose records differ in more than their text (a per-record
    // nonce) would otherwise pay a second parse for every record.
    this.misses++
    if ((this.misses & (this.misses - 1)) !== 0) return
    const span = stringAfterKey(data, key)
    if (!span) return
    const before = data.slice(0, span.start)
    const after = data.slice(span.end)
    let probe: unknown
    try {
      probe = read(JSON.parse(decodeBinary(`${before}"\\u0001"${after}`)))
    } catch {
      return
    }
    if (probe !== SENTINEL) return
    this.before = before
    this.after = after
    this.event = event
    this.learned = true
  }
}

/** Where the JSON string after the last `"key":` in `data` starts and ends (its quotes included). */
function stringAfterKey(data: string, key: string): {start: number; end: number} | undefined {
  const at = data.lastIndexOf(`"${key}"`)
  if (at === -1) return undefined
  let i = skipSpace(data, at + key.length + 2)
  if (data.charCodeAt(i) !== 58 /* : */) return undefined
  i = skipSpace(data, i + 1)
  if (data.charCodeAt(i) !== QUOTE) return undefined
  const start = i
  for (i++; i < data.length; i++) {
    const c = data.charCodeAt(i)
    if (c === BACKSLASH) i++
    else if (c === QUOTE) return {start, end: i + 1}
  }
  return undefined
}

function skipSpace(s: string, i: number): number {
  for (;;) {
    const c = s.charCodeAt(i)
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i
    i++
  }
}
