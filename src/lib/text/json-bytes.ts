// JSON as UTF-8 bytes for what jp writes and sends (issue 27). A 200 MB
// piped query is one string that goes to the conversation's log and, right
// after, into the request body: escaping it for JSON (JSON.stringify of a
// two-byte string: seconds) and encoding it (Buffer.from measures a string
// before encoding it: two passes) were each done twice, and each made a copy
// of hundreds of MB. Here a large string is escaped and encoded once, kept
// for the next caller that serializes the same string (the last one only),
// and handed out as parts that callers write one after the other: the JSON
// text is never joined into one string or one buffer.
//
// A leaf module: the conversation journal and the provider transport use it.
import {randomBytes} from 'node:crypto'

/** Strings this long (UTF-16 units) are escaped once and shared; shorter ones are serialized in line. */
export const LARGE_STRING_CHARS = 1 << 20

/** Text at most this long is encoded with Buffer.from (pooled); longer text in chunks of its own. */
const INLINE_CHARS = 64 * 1024

/** The last large string serialized, and its JSON (quotes included) as UTF-8 parts. */
let last: {text: string; parts: Buffer[]} | undefined

/**
 * The UTF-8 bytes of `text` as parts, one encoding pass: long text is encoded
 * into buffers sized from its length (no measuring pass), continued where a
 * buffer filled up.
 */
export function utf8Parts(text: string): Buffer[] {
  if (text.length <= INLINE_CHARS) return text === '' ? [] : [Buffer.from(text, 'utf8')]
  const parts: Buffer[] = []
  let at = 0
  while (at < text.length) {
    const rest = text.length - at
    // Most text is mostly one byte per unit; what does not fit goes on in the next part.
    const bytes = Buffer.allocUnsafeSlow(Math.max(4, rest + (rest >> 1)))
    const {read, written} = ENCODER.encodeInto(at === 0 ? text : text.slice(at), bytes)
    parts.push(bytes.subarray(0, written))
    at += read
  }
  return parts
}

const ENCODER = new TextEncoder()

/** Total bytes of `parts`. */
export function partsLength(parts: readonly Uint8Array[]): number {
  let n = 0
  for (const p of parts) n += p.length
  return n
}

/**
 * `JSON.stringify(value, null, space)` as UTF-8 parts. Its large strings
 * (LARGE_STRING_CHARS and over) are escaped and encoded once: the same
 * string serialized again (the query, after its log record, in the request
 * body) reuses those bytes. (`largeChars`: a test's smaller threshold.)
 */
export function jsonParts(value: unknown, space?: number, largeChars = LARGE_STRING_CHARS): Buffer[] {
  if (!hasLargeString(value, largeChars)) return utf8Parts(JSON.stringify(value, null, space))
  const large: string[] = []
  const index = new Map<string, number>()
  // Stands in for a large string in the JSON text: no JSON string written
  // by anyone else contains this random nonce.
  const mark = `jp-large-string-${randomBytes(8).toString('hex')}-`
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v !== 'string' || v.length < largeChars) return v
      let i = index.get(v)
      if (i === undefined) index.set(v, (i = large.push(v) - 1))
      return `${mark}${i}`
    },
    space,
  )
  const parts: Buffer[] = []
  const re = new RegExp(`"${mark}(\\d+)"`, 'g')
  let at = 0
  for (let m = re.exec(text); m; m = re.exec(text)) {
    parts.push(...utf8Parts(text.slice(at, m.index)), ...stringParts(large[Number(m[1])]))
    at = m.index + m[0].length
  }
  parts.push(...utf8Parts(text.slice(at)))
  return parts
}

/** A large string as JSON (quotes included), from the last call when it was this string. */
function stringParts(text: string): Buffer[] {
  if (last?.text !== text) last = {text, parts: utf8Parts(JSON.stringify(text))}
  return last.parts
}

function hasLargeString(value: unknown, largeChars: number): boolean {
  if (typeof value === 'string') return value.length >= largeChars
  if (typeof value !== 'object' || value === null) return false
  if (Array.isArray(value)) return value.some((v) => hasLargeString(v, largeChars))
  for (const k in value) if (hasLargeString((value as Record<string, unknown>)[k], largeChars)) return true
  return false
}
