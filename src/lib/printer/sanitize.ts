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

export interface SanitizerOptions {
  /** Keep SGR colour sequences (false under NO_COLOR). Default true. */
  keepColor?: boolean
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
const SGR = /^\u001b\[[0-9;:]*m$/

export function createSanitizer(options: SanitizerOptions = {}): Sanitizer {
  const keepColor = options.keepColor ?? true
  let state: State = State.Ground
  let csi = '' // the CSI collected so far, ESC [ included
  let stringIsOsc = false // OSC also ends at BEL; DCS/SOS/PM/APC only at ST

  function startString(osc: boolean): void {
    state = State.String
    stringIsOsc = osc
  }

  // Handles one character while in the Escape state; returns true when the
  // character was consumed, false when it must be re-read in Ground.
  function afterEscape(c: number): boolean {
    if (c === 0x5b /* [ */) {
      state = State.Csi
      csi = '\u001b['
      return true
    }
    if (c === 0x5d /* ] */) {
      startString(true)
      return true
    }
    if (c === 0x50 /* P */ || c === 0x58 /* X */ || c === 0x5e /* ^ */ || c === 0x5f /* _ */) {
      startString(false)
      return true
    }
    if (c >= 0x20 && c <= 0x2f) {
      state = State.EscapeIntermediate
      return true
    }
    if (c >= 0x30 && c <= 0x7e) {
      // A two-character escape (ESC 7, ESC c, ESC M, ...): dropped whole.
      state = State.Ground
      return true
    }
    // A lone ESC before something that cannot continue it: drop the ESC only.
    state = State.Ground
    return false
  }

  function push(chunk: string): string {
    let out = ''
    let i = 0
    const n = chunk.length
    while (i < n) {
      if (state === State.Ground) {
        SPECIAL.lastIndex = i
        const m = SPECIAL.exec(chunk)
        if (m === null) {
          out += i === 0 ? chunk : chunk.slice(i)
          break
        }
        if (m.index > i) out += chunk.slice(i, m.index)
        i = m.index
        const c = chunk.charCodeAt(i++)
        if (c === ESC) state = State.Escape
        else if (c === C1_CSI) {
          // 8-bit CSI: never kept, even as colour (terminals disagree on it).
          state = State.CsiIgnore
        } else if (c === 0x9d) startString(true)
        else if (c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) startString(false)
        // Any other C0/C1 control (\r, BEL, BS, DEL, ...) is dropped.
        continue
      }
      const c = chunk.charCodeAt(i)
      switch (state) {
        case State.Escape: {
          if (c === CAN || c === SUB) {
            state = State.Ground
            i++
          } else if (c === ESC) {
            i++ // ESC ESC: the first is a lone ESC, the second starts over
          } else if (afterEscape(c)) i++
          break
        }
        case State.EscapeIntermediate: {
          if (c >= 0x20 && c <= 0x2f) i++
          else if (c >= 0x30 && c <= 0x7e) {
            state = State.Ground
            i++
          } else if (c === ESC) {
            state = State.Escape
            i++
          } else state = State.Ground // malformed: re-read c as text/control
          break
        }
        case State.Csi: {
          if (c >= 0x40 && c <= 0x7e) {
            csi += chunk[i++]
            if (keepColor && SGR.test(csi)) out += csi
            csi = ''
            state = State.Ground
          } else if (c >= 0x20 && c <= 0x3f) {
            csi += chunk[i++]
            if (csi.length > MAX_CSI) {
              csi = ''
              state = State.CsiIgnore
            }
          } else {
            csi = ''
            if (c === ESC) {
              state = State.Escape
              i++
            } else if (c === CAN || c === SUB) {
              state = State.Ground
              i++
            } else state = State.Ground // malformed: re-read c in Ground
          }
          break
        }
        case State.CsiIgnore: {
          if (c >= 0x40 && c <= 0x7e) {
            state = State.Ground
            i++
          } else if (c >= 0x20 && c <= 0x3f) i++
          else if (c === ESC) {
            state = State.Escape
            i++
          } else if (c === CAN || c === SUB) {
            state = State.Ground
            i++
          } else state = State.Ground
          break
        }
        case State.String: {
          // Skip the body quickly up to the next possible terminator.
          let j = i
          while (j < n) {
            const d = chunk.charCodeAt(j)
            if (d === ESC || d === C1_ST || d === CAN || d === SUB || (d === BEL && stringIsOsc)) break
            j++
          }
          if (j === n) {
            i = n
            break
          }
          const d = chunk.charCodeAt(j)
          i = j + 1
          state = d === ESC ? State.StringEscape : State.Ground
          break
        }
        case State.StringEscape: {
          if (c === 0x5c /* \ */) {
            state = State.Ground
            i++
          } else {
            // ESC inside a string aborts it and begins a new escape.
            state = State.Escape
          }
          break
        }
        default:
          state = State.Ground
      }
    }
    return out
  }

  function end(): string {
    state = State.Ground
    csi = ''
    return ''
  }

  return {push, end}
}

/** Sanitizes a complete string (a notice, a tool header) in one go. */
export function sanitize(text: string, options?: SanitizerOptions): string {
  const s = createSanitizer(options)
  return s.push(text) + s.end()
}
