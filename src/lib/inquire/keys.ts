// Pure key decoder: raw terminal input (already UTF-8 decoded to a string) →
// Key events. No I/O and no timers: the caller owns the ESC timeout.
//
// Why not Node's readline decoder: it names kitty CSI-u keys "undefined",
// splits bracketed paste into ordinary keys around paste-start/paste-end,
// mangles modifyOtherKeys and waits 500 ms on a lone ESC.
//
// Decisions (documented contract):
// - 0x7f is 'backspace'; 0x08 is Ctrl+H (name 'h', ctrl) — keymaps bind both
//   to delete-backward, so terminals that send either for Backspace work.
// - 0x0d is 'enter', 0x0a is Ctrl+J, 0x09 'tab', 0x00 Ctrl+Space ('space').
//   0x1c–0x1f are Ctrl+\ ] ^ _ .
// - Printable text is NOT coalesced: every grapheme cluster becomes its own
//   'char' key (a multi-codepoint grapheme arriving in one chunk is one key
//   whose `text` holds the whole cluster). Keymaps then see one key per
//   visible character, which vi normal mode and undo grouping rely on.
//   Bulk text should arrive as bracketed paste, which is one 'paste' key.
// - ESC + key is that key with meta (Alt); the key is one grapheme, so a
//   combining mark after the letter belongs to it. An Alt key ending a read
//   is held until the next read or the flush (it could still grow), so it
//   decodes the same however the input is split. ESC + uppercase letter is
//   the lowercase name with shift. ESC DEL / ESC BS are Alt+Backspace, ESC CR is
//   Alt+Enter.
// - Unknown or malformed escape sequences are swallowed whole; C1 controls
//   (0x80–0x9f) are dropped. Nothing escape-like is ever inserted as text.
// - A paste whose end marker has not arrived yet is held (not `pending`):
//   pastes can be slow, and flushing one early would submit half of it. The
//   caller ends one that never finishes (`endPaste()`, after PASTE_QUIET_MS
//   of silence or on the user's Ctrl+C), so a lost end marker cannot wedge a
//   prompt.
import {graphemeSegments} from '../text/graphemes.js'

export interface Key {
  /**
   * 'char' for unmodified printable text (then `text` holds it); otherwise a
   * key name: a single lowercase letter/symbol for Ctrl/Alt chords ('a', 'b',
   * '<', '_'), or 'enter' 'backspace' 'delete' 'tab' 'escape' 'up' 'down'
   * 'left' 'right' 'home' 'end' 'pageup' 'pagedown' 'insert' 'paste'
   * (also 'space' for Ctrl/Alt+Space and 'f1'…'f12').
   */
  name: string
  /** For 'char' and 'paste' (paste: CRLF/CR → LF). */
  text?: string
  ctrl: boolean
  /** Alt / ESC-prefixed. */
  meta: boolean
  shift: boolean
  /** The raw input this key came from. */
  sequence: string
}

/** How long the caller waits after a lone ESC (or an ESC-prefix) before calling flush(). */
export const ESC_TIMEOUT_MS = 30

/** How long an open paste may stay silent before the caller ends it (its end marker was lost). */
export const PASTE_QUIET_MS = 500

/** What a Ctrl+C press sends, alone in its read (legacy byte, or kitty's disambiguated form). */
export const CTRL_C_READS: ReadonlySet<string> = new Set(['\x03', '\x1b[99;5u'])

const ESC = '\x1b'
const PASTE_START = '\x1b[200~'
const PASTE_END = '\x1b[201~'
/** A CSI longer than this without a final byte is garbage; drop it. */
const MAX_CSI = 64


function key(name: string, sequence: string, mods: Partial<Pick<Key, 'ctrl' | 'meta' | 'shift' | 'text'>> = {}): Key {
  const k: Key = {name, ctrl: mods.ctrl ?? false, meta: mods.meta ?? false, shift: mods.shift ?? false, sequence}
  if (mods.text !== undefined) k.text = mods.text
  return k
}

/** Decodes a single control byte (0x00–0x1f except ESC, and 0x7f). */
function controlKey(ch: string, meta = false): Key {
  const code = ch.charCodeAt(0)
  const seq = meta ? ESC + ch : ch
  switch (code) {
    case 0x0d: return key('enter', seq, {meta})
    case 0x0a: return key('j', seq, {ctrl: true, meta})
    case 0x09: return key('tab', seq, {meta})
    case 0x7f: return key('backspace', seq, {meta})
    // ESC BS is what many terminals send for Alt+Backspace with BS-backspace.
    case 0x08: return meta ? key('backspace', seq, {meta}) : key('h', seq, {ctrl: true})
    case 0x00: return key('space', seq, {ctrl: true, meta})
    case 0x1c: return key('\\', seq, {ctrl: true, meta})
    case 0x1d: return key(']', seq, {ctrl: true, meta})
    case 0x1e: return key('^', seq, {ctrl: true, meta})
    case 0x1f: return key('_', seq, {ctrl: true, meta})
    default: return key(String.fromCharCode(code + 0x60), seq, {ctrl: true, meta})
  }
}

function isControl(code: number): boolean {
  return code < 0x20 || code === 0x7f
}

function isC1(code: number): boolean {
  return code >= 0x80 && code <= 0x9f
}

/** xterm modifier parameter (1 + bitmask) → flags. Alt and Meta both map to meta. */
function modifiers(param: number | undefined): {shift: boolean; meta: boolean; ctrl: boolean} {
  const bits = param && param > 1 ? param - 1 : 0
  return {shift: (bits & 1) !== 0, meta: (bits & 2) !== 0 || (bits & 32) !== 0, ctrl: (bits & 4) !== 0}
}

const LETTER_FINALS: Record<string, string> = {
  A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', E: 'clear',
  P: 'f1', Q: 'f2', R: 'f3', S: 'f4', M: 'enter',
}

const TILDE_CODES: Record<number, string> = {
  1: 'home', 2: 'insert', 3: 'delete', 4: 'end', 5: 'pageup', 6: 'pagedown', 7: 'home', 8: 'end',
  11: 'f1', 12: 'f2', 13: 'f3', 14: 'f4', 15: 'f5', 17: 'f6', 18: 'f7', 19: 'f8', 20: 'f9', 21: 'f10', 23: 'f11', 24: 'f12',
}

/** Kitty functional codepoints (CSI … u) for the keys a line editor cares about. */
const KITTY_FUNCTIONAL: Record<number, string> = {
  9: 'tab', 13: 'enter', 27: 'escape', 127: 'backspace', 8: 'backspace',
  57399: '0', 57414: 'enter', 57417: 'left', 57418: 'right', 57419: 'up', 57420: 'down',
  57421: 'pageup', 57422: 'pagedown', 57423: 'home', 57424: 'end', 57425: 'insert', 57426: 'delete',
}

/**
 * A codepoint plus modifiers (kitty CSI-u or xterm modifyOtherKeys) → Key.
 * Unmodified (or shift-only) printable codepoints become 'char' keys.
 */
function codepointKey(code: number, shiftedCode: number | undefined, mod: number | undefined, seq: string): Key | undefined {
  const m = modifiers(mod)
  const functional = KITTY_FUNCTIONAL[code]
  if (functional && functional !== '0') return key(functional, seq, m)
  if (code === 32 && (m.ctrl || m.meta)) return key('space', seq, m)
  if (code < 32 || (code >= 0x7f && code <= 0x9f) || code > 0x10ffff || (code >= 57344 && code <= 63743)) return undefined
  const ch = String.fromCodePoint(code)
  if (!m.ctrl && !m.meta) {
    const text = shiftedCode ? String.fromCodePoint(shiftedCode) : m.shift ? ch.toUpperCase() : ch
    return key('char', seq, {text})
  }
  return key(ch.toLowerCase(), seq, m)
}

function parseParams(params: string): Array<number[]> {
  // "13;2" → [[13],[2]]; "97:65;2" → [[97,65],[2]]; empty fields → NaN.
  return params.split(';').map((field) => field.split(':').map((n) => (n === '' ? Number.NaN : Number(n))))
}

function num(value: number | undefined): number | undefined {
  return value === undefined || Number.isNaN(value) ? undefined : value
}

/** A complete CSI sequence (ESC [ params final) → Key, or undefined to swallow. */
function csiKey(seq: string, params: string, final: string): Key | undefined {
  // Private-marker sequences (ESC[?…, ESC[>…) are terminal replies, not keys.
  if (/^[<=>?]/.test(params)) return undefined
  const p = parseParams(params)
  const first = num(p[0]?.[0])
  const mod = num(p[1]?.[0])
  if (final === 'u') {
    if (first === undefined) return undefined
    // Event type 3 is a key release (only with the report-events flag).
    if (num(p[1]?.[1]) === 3) return undefined
    return codepointKey(first, num(p[0]?.[1]), mod, seq)
  }
  if (final === '~') {
    if (first === 27 && p.length >= 3) {
      // xterm modifyOtherKeys: CSI 27 ; mod ; code ~
      const code = num(p[2]?.[0])
      return code === undefined ? undefined : codepointKey(code, undefined, mod, seq)
    }
    const name = first === undefined ? undefined : TILDE_CODES[first]
    return name ? key(name, seq, modifiers(mod)) : undefined
  }
  if (final === 'Z') return key('tab', seq, {shift: true})
  const name = LETTER_FINALS[final]
  if (!name || name === 'clear') return undefined
  // ESC[1;5C is the usual form; some terminals omit the 1 (ESC[5C).
  const m = mod ?? (p.length === 1 && first !== undefined && first > 1 ? first : undefined)
  return key(name, seq, modifiers(m))
}

/** SS3 (ESC O [mod] final) → Key. */
function ss3Key(seq: string, mod: string, final: string): Key | undefined {
  const name = LETTER_FINALS[final]
  if (!name || name === 'clear') return undefined
  return key(name, seq, modifiers(mod ? Number(mod) : undefined))
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n')
}

type Parse = {keys: Key[]; consumed: number} | 'incomplete'

/**
 * Stateful decoder: feed chunks as they arrive. A sequence split across
 * chunks is held until complete; a lone ESC (or ESC-prefix that could still
 * grow) is `pending` until more input arrives or the caller calls flush()
 * after ESC_TIMEOUT_MS.
 */
export class KeyDecoder {
  private buffer = ''
  /** Accumulated paste body while inside ESC[200~ … ESC[201~. */
  private paste: string | undefined

  /** True when an incomplete escape sequence waits for more input or flush(). */
  get pending(): boolean {
    return this.paste === undefined && this.buffer.length > 0
  }

  feed(data: string): Key[] {
    this.buffer += data
    return this.drain(false)
  }

  /** True inside a paste whose end marker has not arrived. */
  get inPaste(): boolean {
    return this.paste !== undefined
  }

  /** Ends an open paste as if its end marker had come: one paste key with everything held. */
  endPaste(): Key[] {
    if (this.paste === undefined) return []
    const body = this.paste + this.buffer
    this.paste = undefined
    this.buffer = ''
    return [key('paste', PASTE_START + body, {text: normalizeNewlines(body)})]
  }

  /** Resolves whatever is pending as if no more bytes of it will come. */
  flush(): Key[] {
    if (this.paste !== undefined) return []
    return this.drain(true)
  }

  private drain(final: boolean): Key[] {
    const out: Key[] = []
    while (this.buffer.length > 0) {
      if (this.paste !== undefined) {
        if (!this.drainPaste(out)) break
        continue
      }
      const result = this.parseOne(this.buffer, final)
      if (result === 'incomplete') break
      out.push(...result.keys)
      this.buffer = this.buffer.slice(result.consumed)
    }
    return out
  }

  /** Returns false when more input is needed. */
  private drainPaste(out: Key[]): boolean {
    const end = this.buffer.indexOf(PASTE_END)
    if (end === -1) {
      // Keep a tail that could be the start of the end marker.
      let keep = 0
      for (let n = Math.min(PASTE_END.length - 1, this.buffer.length); n > 0; n--) {
        if (PASTE_END.startsWith(this.buffer.slice(-n))) {
          keep = n
          break
        }
      }
      this.paste += this.buffer.slice(0, this.buffer.length - keep)
      this.buffer = this.buffer.slice(this.buffer.length - keep)
      return false
    }
    const body = this.paste + this.buffer.slice(0, end)
    this.buffer = this.buffer.slice(end + PASTE_END.length)
    this.paste = undefined
    out.push(key('paste', PASTE_START + body + PASTE_END, {text: normalizeNewlines(body)}))
    return true
  }

  private parseOne(s: string, final: boolean): Parse {
    const code = s.charCodeAt(0)
    if (s[0] === ESC) return this.parseEscape(s, final)
    if (isControl(code)) return {keys: [controlKey(s[0])], consumed: 1}
    if (isC1(code)) return {keys: [], consumed: 1}
    // A run of printable text up to the next control character.
    let end = 1
    while (end < s.length) {
      const c = s.charCodeAt(end)
      if (isControl(c) || isC1(c)) break
      end++
    }
    const keys: Key[] = []
    for (const {segment} of graphemeSegments(s.slice(0, end))) keys.push(key('char', segment, {text: segment}))
    return {keys, consumed: end}
  }

  private parseEscape(s: string, final: boolean): Parse {
    if (s.length === 1) return final ? {keys: [key('escape', ESC)], consumed: 1} : 'incomplete'
    const next = s[1]
    if (next === '[') return this.parseCsi(s, final)
    if (next === 'O') return this.parseSs3(s, final)
    if (next === ESC) {
      // ESC ESC: Alt + whatever the second ESC starts (e.g. ESC ESC [ A).
      const inner = this.parseEscape(s.slice(1), final)
      if (inner === 'incomplete') return inner
      const keys = inner.keys.map((k) => ({...k, meta: true, sequence: ESC + k.sequence}))
      return {keys, consumed: inner.consumed + 1}
    }
    const code = next.charCodeAt(0)
    if (isControl(code)) return {keys: [controlKey(next, true)], consumed: 2}
    if (isC1(code)) return {keys: [], consumed: 2}
    // Alt + one grapheme (so Alt+é is one key).
    const {segment} = graphemeSegments(s.slice(1))[Symbol.iterator]().next().value!
    // A grapheme that reaches the end of the input may still grow (a
    // combining mark after a letter, a surrogate pair, a ZWJ sequence split
    // across reads): wait for the next read or the flush after
    // ESC_TIMEOUT_MS. This includes Alt + ASCII letter: deciding early made
    // ESC e + U+0301 M-é in one read but M-e and a stray mark in two.
    if (!final && (1 + segment.length === s.length || /[\ud800-\udbff\u200d]$/.test(s))) {
      return 'incomplete'
    }
    const lower = segment.toLowerCase()
    const shift = segment !== lower && segment.toUpperCase() === segment
    const name = segment === ' ' ? 'space' : lower
    return {keys: [key(name, ESC + segment, {meta: true, shift})], consumed: 1 + segment.length}
  }

  private parseCsi(s: string, final: boolean): Parse {
    // Linux console F1–F5: ESC [ [ A..E.
    if (s[2] === '[') {
      if (s.length < 4) return final ? {keys: [], consumed: s.length} : 'incomplete'
      return {keys: [], consumed: 4}
    }
    let i = 2
    while (i < s.length) {
      const c = s.charCodeAt(i)
      if (c >= 0x40 && c <= 0x7e) {
        const seq = s.slice(0, i + 1)
        if (seq === PASTE_START) {
          this.paste = ''
          return {keys: [], consumed: i + 1}
        }
        const k = csiKey(seq, s.slice(2, i), s[i])
        return {keys: k ? [k] : [], consumed: i + 1}
      }
      if (c < 0x20 || c > 0x7e || i >= MAX_CSI) {
        // Malformed: drop what we have, resume at the offending byte.
        return {keys: [], consumed: i}
      }
      i++
    }
    if (!final) return 'incomplete'
    // Timed out. A bare ESC [ is most likely Alt+[; anything longer is a
    // truncated sequence and is dropped.
    if (s.length === 2) return {keys: [key('[', '\x1b[', {meta: true})], consumed: 2}
    return {keys: [], consumed: s.length}
  }

  private parseSs3(s: string, final: boolean): Parse {
    let i = 2
    while (i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++
    if (i >= s.length) {
      if (!final) return 'incomplete'
      if (s.length === 2) return {keys: [key('o', '\x1bO', {meta: true, shift: true})], consumed: 2}
      return {keys: [], consumed: s.length}
    }
    const c = s.charCodeAt(i)
    if (c < 0x40 || c > 0x7e) return {keys: [], consumed: i}
    const k = ss3Key(s.slice(0, i + 1), s.slice(2, i), s[i])
    return {keys: k ? [k] : [], consumed: i + 1}
  }
}
