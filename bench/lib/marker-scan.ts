// Reads a pty's output as it comes and notes when each marker word
// (bench/lib/marker-corpus.ts) first shows: the terminal's escape sequences
// are dropped (a highlighted or styled marker is still the marker), an escape
// cut between two chunks is held until its end arrives, and a marker cut
// between two chunks is found once its second half arrives.
import {markerIds} from './marker-corpus.js'

/** A whole escape sequence at the start of the text: CSI, OSC (BEL or ST ended), or a two-character one. */
const WHOLE_ESCAPE = /^\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[^[\]])/
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[^[\]])/g
/** Characters of the screen text kept between chunks: one marker's length. */
const KEEP = 7

export class MarkerScan {
  /** performance.now() at which each marker id first showed. */
  readonly seenAt = new Map<number, number>()
  private held = ''
  private tail = ''

  push(chunk: string, at: number): void {
    let raw = this.held + chunk
    this.held = ''
    const esc = raw.lastIndexOf('\x1b')
    if (esc >= 0 && !WHOLE_ESCAPE.test(raw.slice(esc))) {
      this.held = raw.slice(esc)
      raw = raw.slice(0, esc)
    }
    const text = this.tail + raw.replace(ESCAPES, '')
    for (const id of markerIds(text)) if (!this.seenAt.has(id)) this.seenAt.set(id, at)
    this.tail = text.slice(-KEEP)
  }
}
