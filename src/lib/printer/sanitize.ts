// A streaming sanitizer for model text that is about to be shown on a
// terminal (SPEC §11). A model can emit bytes that move the cursor, retitle
// the window, plant OSC 8 links or write the clipboard (OSC 52); none of that
// may reach the user's terminal. Kept: printable text, `\n`, `\t` and (unless
// colour is off) SGR colour `CSI <digits ; :> m`. Everything else is dropped.
//
// The state machine follows the ECMA-48 / VT500 parser shape (ground, escape,
// escape-intermediate, CSI, control string) so that a sequence split across
// chunk boundaries at any offset is still recognised and removed. It only
// ever sees text for display: stored data and requests never pass through it.

import {FORMAT_CHARS, formatPlaceholder} from '../text/format-chars.js'

export interface SanitizerOptions {
  /** Keep SGR colour sequences (false under NO_COLOR). Default true. */
  keepColor?: boolean
  /**
   * Show each format character (bidi controls, zero-width characters,
   * U+FEFF: text/format-chars.ts) and U+2028/2029 as a dim `⟨U+202E⟩`
   * (text shown as it comes). Default false: kept for the markdown renderer,
   * which shows them after decoding entities (`&#x202e;`) that make them.
   */
  showFormat?: boolean
}

export interface Sanitizer {
  /** Feeds the next chunk; returns the displayable text it completes. */
  push(chunk: string): string
  /** Ends the stream: an unfinished sequence is dropped. Resets the state. */
  end(): string
}

const enum State {
  Ground,
  Escape, // saw ESC
  EscapeIntermediate, // ESC followed by 0x20–0x2f bytes (e.g. ESC ( B)
  Csi, // collecting a CSI sequence
  CsiIgnore, // an over-long or malformed CSI: drop until its final byte
  String, // OSC / DCS / SOS / PM / APC body: drop until the terminator
  StringEscape, // saw ESC inside a control string (maybe ST = ESC \)
}

const ESC = 0x1b
const BEL = 0x07
const CAN = 0x18
const SUB = 0x1a
const C1_CSI = 0x9b
const C1_ST = 0x9c
/** A CSI longer than this is not colour anyone needs; stop buffering it. */
const MAX_CSI = 64
/** Characters that need the state machine; everything else is plain text. */
const SPECIAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g
/** The same, and the format characters (astral ones too: a `u` regex). */
const SPECIAL_OR_FORMAT = new RegExp(`${SPECIAL.source}|${FORMAT_CHARS.source}`, 'gu')
const SGR = /^\u001b\[[0-9;:]*m$/
const DIM = '\u001b[2m'
const UNDIM = '\u001b[22m'

export function createSanitizer(options: SanitizerOptions = {}): Sanitizer {
  const machine = new SanitizerMachine(options.keepColor ?? true, options.showFormat ?? false)
  return {push: (chunk) => machine.push(chunk), end: () => machine.end()}
}

/**
 * The parser state across chunks. Each state has one step method that reads
 * at `i` and returns where to read next; returning `i` unchanged after
 * switching to Ground re-reads that character as text or a control.
 */
class SanitizerMachine {
  private state: State = State.Ground
  private csi = '' // the CSI collected so far, ESC [ included
  private stringIsOsc = false // OSC also ends at BEL; DCS/SOS/PM/APC only at ST
  private out = ''
  /** A high surrogate that ended the last chunk (half of a character: maybe an astral format character). */
  private highSurrogate = ''
  private readonly special: RegExp

  constructor(
    private readonly keepColor: boolean,
    private readonly showFormat: boolean,
  ) {
    this.special = showFormat ? new RegExp(SPECIAL_OR_FORMAT) : new RegExp(SPECIAL)
  }

  push(chunk: string): string {
    if (this.showFormat) chunk = this.wholeCharacters(chunk)
    let i = 0
    const n = chunk.length
    while (i < n) i = this.state === State.Ground ? this.ground(chunk, i) : this.step(chunk, i)
    const out = this.out
    this.out = ''
    return out
  }

  end(): string {
    this.state = State.Ground
    this.csi = ''
    const rest = this.highSurrogate
    this.highSurrogate = ''
    return rest
  }

  /** `chunk` after what the last one held back, holding back a trailing high surrogate in turn. */
  private wholeCharacters(chunk: string): string {
    if (this.highSurrogate !== '') {
      chunk = this.highSurrogate + chunk
      this.highSurrogate = ''
    }
    const last = chunk.charCodeAt(chunk.length - 1)
    if (last >= 0xd800 && last <= 0xdbff) {
      this.highSurrogate = chunk.slice(-1)
      return chunk.slice(0, -1)
    }
    return chunk
  }

  private step(chunk: string, i: number): number {
    const c = chunk.charCodeAt(i)
    switch (this.state) {
      case State.Escape:
        return this.escape(c, i)
      case State.EscapeIntermediate:
        return this.escapeIntermediate(c, i)
      case State.Csi:
        return this.csiByte(chunk, c, i)
      case State.CsiIgnore:
        return this.csiIgnore(c, i)
      case State.String:
        return this.stringBody(chunk, i)
      case State.StringEscape:
        return this.stringEscape(c, i)
      default:
        this.state = State.Ground
        return i
    }
  }

  /** Plain text up to the next special character, then that character. */
  private ground(chunk: string, i: number): number {
    const special = this.special
    special.lastIndex = i
    const m = special.exec(chunk)
    if (m === null) {
      this.out += i === 0 ? chunk : chunk.slice(i)
      return chunk.length
    }
    if (m.index > i) this.out += chunk.slice(i, m.index)
    const c = chunk.charCodeAt(m.index)
    if (c > 0x9f) {
      // A format character (the only kind above C1 the regex finds): shown, not sent.
      this.out += DIM + formatPlaceholder(m[0]) + UNDIM
      return m.index + m[0].length
    }
    if (c === ESC) this.state = State.Escape
    else if (c === C1_CSI) {
      // 8-bit CSI: never kept, even as colour (terminals disagree on it).
      this.state = State.CsiIgnore
    } else if (c === 0x9d) this.startString(true)
    else if (c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) this.startString(false)
    // Any other C0/C1 control (\r, BEL, BS, DEL, ...) is dropped.
    return m.index + 1
  }

  private startString(osc: boolean): void {
    this.state = State.String
    this.stringIsOsc = osc
  }

  private escape(c: number, i: number): number {
    if (c === CAN || c === SUB) {
      this.state = State.Ground
      return i + 1
    }
    if (c === ESC) return i + 1 // ESC ESC: the first is a lone ESC, the second starts over
    return this.afterEscape(c) ? i + 1 : i
  }

  // Handles one character while in the Escape state; returns true when the
  // character was consumed, false when it must be re-read in Ground.
  private afterEscape(c: number): boolean {
    if (c === 0x5b /* [ */) {
      this.state = State.Csi
      this.csi = '\u001b['
      return true
    }
    if (c === 0x5d /* ] */) {
      this.startString(true)
      return true
    }
    if (c === 0x50 /* P */ || c === 0x58 /* X */ || c === 0x5e /* ^ */ || c === 0x5f /* _ */) {
      this.startString(false)
      return true
    }
    if (c >= 0x20 && c <= 0x2f) {
      this.state = State.EscapeIntermediate
      return true
    }
    // A two-character escape (ESC 7, ESC c, ESC M, ...) is dropped whole; a
    // lone ESC before something that cannot continue it drops the ESC only.
    this.state = State.Ground
    return c >= 0x30 && c <= 0x7e
  }

  private escapeIntermediate(c: number, i: number): number {
    if (c >= 0x20 && c <= 0x2f) return i + 1
    if (c >= 0x30 && c <= 0x7e) {
      this.state = State.Ground
      return i + 1
    }
    if (c === ESC) {
      this.state = State.Escape
      return i + 1
    }
    this.state = State.Ground // malformed: re-read c as text/control
    return i
  }

  private csiByte(chunk: string, c: number, i: number): number {
    if (c >= 0x40 && c <= 0x7e) {
      this.csi += chunk[i]
      if (this.keepColor && SGR.test(this.csi)) this.out += this.csi
      this.csi = ''
      this.state = State.Ground
      return i + 1
    }
    if (c >= 0x20 && c <= 0x3f) {
      this.csi += chunk[i]
      if (this.csi.length > MAX_CSI) {
        this.csi = ''
        this.state = State.CsiIgnore
      }
      return i + 1
    }
    this.csi = ''
    return this.abortSequence(c, i)
  }

  private csiIgnore(c: number, i: number): number {
    if (c >= 0x40 && c <= 0x7e) {
      this.state = State.Ground
      return i + 1
    }
    if (c >= 0x20 && c <= 0x3f) return i + 1
    return this.abortSequence(c, i)
  }

  /** A byte that cannot continue a CSI: ESC starts a new escape, CAN/SUB cancel, anything else is re-read in Ground. */
  private abortSequence(c: number, i: number): number {
    if (c === ESC) {
      this.state = State.Escape
      return i + 1
    }
    this.state = State.Ground
    return c === CAN || c === SUB ? i + 1 : i
  }

  /** Skips a control string's body quickly up to the next possible terminator. */
  private stringBody(chunk: string, i: number): number {
    const n = chunk.length
    let j = i
    while (j < n) {
      const d = chunk.charCodeAt(j)
      if (d === ESC || d === C1_ST || d === CAN || d === SUB || (d === BEL && this.stringIsOsc)) break
      j++
    }
    if (j === n) return n
    this.state = chunk.charCodeAt(j) === ESC ? State.StringEscape : State.Ground
    return j + 1
  }

  private stringEscape(c: number, i: number): number {
    if (c === 0x5c /* \ */) {
      this.state = State.Ground
      return i + 1
    }
    // ESC inside a string aborts it and begins a new escape.
    this.state = State.Escape
    return i
  }
}

/** Sanitizes a complete string of model text in one go (jp's own chrome quoting untrusted text uses text/untrusted.ts). */
export function sanitize(text: string, options?: SanitizerOptions): string {
  const s = createSanitizer(options)
  return s.push(text) + s.end()
}
