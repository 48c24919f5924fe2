// Cuts a streamed paragraph's source into segments at whitespace where no
// inline construct is open (the "ground state" of RFD 089), so each segment
// can be parsed and placed while the paragraph is still arriving. The scan
// is conservative: it treats every possible opener (`*`, `_`, `~`, a backtick
// run, `[`, `<`) as open until a plausible closer, so a cut never falls
// inside a construct the parser would have matched. An opener left unclosed
// for HOLD_LIMIT characters is taken as literal (a stray `*` cannot stall a
// long paragraph to its end).
//
// Where the cuts fall depends on the text alone, never on how it arrived:
// every cut is decided by a fixed amount of look-ahead (the scan stops and
// waits when the text so far cannot decide), so a paragraph gives the same
// segments at any chunking. (A stretch of plain words may come as one
// segment or several, as the chunks fall; the renderer gives the same bytes
// for both: see WORD.)

/** An opener unmatched after this many characters is literal text. */
export const HOLD_LIMIT = 1000
/** A cut word at most this long is scanned again with the next chunk (longer: scanned on, not again). */
const REJOIN = 64

interface Opener {
  kind: '*' | '_' | '~' | '[' | '<'
  count: number
  at: number
}

export interface Segment {
  /** Source of the segment (no leading or trailing whitespace at ground state). */
  text: string
  /** The whitespace after it: '' at the paragraph's end. */
  space: string
  /**
   * Known to be plain words (WORD characters joined by single spaces, one
   * space after): `'ascii'` when all are printable ASCII. Absent: not known.
   */
  plain?: 'words' | 'ascii'
}

/**
 * The scan's hot paths are sticky regular expressions over character
 * classes (a call per character costs more than the text): ORDINARY
 * characters decide nothing for the scan; WORD characters (ORDINARY but
 * `&`, `:` and `!`) also mean nothing to the inline parser (see
 * INLINE_SYNTAX in render.ts), so words of them followed by one space each
 * are segments of their own anyway at ground state, and a stretch of them is
 * cut as one segment (the renderer treats it exactly as the words one by
 * one), which spares a segment per word. Beyond ASCII every character is a
 * word character.
 */
const ORDINARY = /[^ \t\n\\`*_~[\]<>(]*/y
/** Words of WORD characters, each followed by one space. */
const WORDS = /(?:[^ \t\n\\`*_~[\]<>(&:!]+ )+/y
/** Printable ASCII: one cell each. */
const PRINTABLE = /^[\u0020-\u007e]*$/
/** The same classes for one character (a regular expression's call costs more than a lookup). */
const ORDINARY_CHAR = 1
const WORD_CHAR = 2
const CLASS = (() => {
  const c = new Uint8Array(128).fill(ORDINARY_CHAR | WORD_CHAR)
  for (const ch of ' \t\n\\`*_~[]<>(') c[ch.charCodeAt(0)] = 0
  for (const ch of '&:!') c[ch.charCodeAt(0)] = ORDINARY_CHAR
  return c
})()
const isOrdinary = (code: number): boolean => code >= 128 || (CLASS[code] & ORDINARY_CHAR) !== 0
const isWord = (code: number): boolean => code >= 128 || (CLASS[code] & WORD_CHAR) !== 0
const isSpace = (code: number): boolean => code === 32 || code === 9 || code === 10
const PUNCT = /[\p{P}\p{S}]/u
const SPACE = /[\s\u00a0]/u

export class ParagraphSegmenter {
  private src = ''
  /** Where the next segment starts. */
  private start = 0
  /** Scanned up to here with the state below. */
  private pos = 0
  private stack: Opener[] = []
  /** Inside a code span opened by a run of this many backticks. */
  private code = 0
  private codeAt = 0
  /** Inside a link destination `(...)`: its paren depth. */
  private dest = 0
  private destAt = 0
  /** Absolute offset of src[0] in the paragraph (for HOLD_LIMIT). */
  private base = 0

  /** More paragraph source; returns the segments it completes. */
  push(text: string): Segment[] {
    this.src += text
    const out: Segment[] = []
    // At ground state the scan from `start` to `pos` changed nothing: scan the
    // word the last chunk cut again, so it joins the plain words after it in
    // one segment instead of being a segment of its own (same bytes: see WORD).
    if (this.pos - this.start <= REJOIN && this.stack.length === 0 && this.code === 0 && this.dest === 0) this.pos = this.start
    this.scan(out)
    if (this.start > 0) {
      this.src = this.src.slice(this.start)
      this.pos -= this.start
      this.base += this.start
      for (const o of this.stack) o.at -= this.start
      this.codeAt -= this.start
      this.destAt -= this.start
      this.start = 0
    }
    return out
  }

  /** The paragraph ended: what is left is the last segment (trailing whitespace dropped). */
  end(): Segment[] {
    const out: Segment[] = []
    this.scan(out)
    // Trailing whitespace dropped (a loop: the regular expression tries every space of the text).
    let e = this.src.length
    while (e > this.start && isSpace(this.src.charCodeAt(e - 1))) e--
    const rest = this.src.slice(this.start, e)
    if (rest !== '') out.push({text: rest, space: ''})
    this.src = ''
    this.start = this.pos = this.base = 0
    this.stack = []
    this.code = this.dest = 0
    return out
  }

  private scan(out: Segment[]): void {
    const s = this.src
    const n = s.length
    let i = this.pos
    while (i < n) {
      if (i === this.start && isWord(s.charCodeAt(i)) && this.stack.length === 0 && this.code === 0 && this.dest === 0) {
        const end = this.words(s, i, n, out)
        if (end > i) {
          i = end
          continue
        }
      }
      if (this.code === 0 && this.dest === 0 && isOrdinary(s.charCodeAt(i))) {
        // Ordinary characters decide nothing: skip them.
        ORDINARY.lastIndex = i
        ORDINARY.test(s)
        i = ORDINARY.lastIndex
        if (i >= n) break
      }
      // Each step says where the scan goes on, or -1: it needs more text to decide.
      const next = this.code > 0 ? this.inCode(s, i, n) : this.dest > 0 ? this.inDestination(s, i, n) : this.markup(s, i, n, out)
      if (next < 0) break
      i = next
    }
    this.pos = i
  }

  /** Whole words of WORD characters from `i` (the segment's start), each followed by one space: cut as one segment, its end returned (-1: none). */
  private words(s: string, i: number, n: number, out: Segment[]): number {
    WORDS.lastIndex = i
    let end = WORDS.test(s) ? WORDS.lastIndex : -1
    // The last word's space must be known to be one space (more may follow, or a newline).
    if (end >= 0 && (end >= n || isSpace(s.charCodeAt(end)))) {
      const sp = s.lastIndexOf(' ', end - 2)
      end = sp >= i ? sp + 1 : -1
    }
    if (end <= i) return -1
    const text = s.slice(i, end - 1)
    out.push({text, space: ' ', plain: PRINTABLE.test(text) ? 'ascii' : 'words'})
    this.start = end
    return end
  }

  /** Inside a code span: only a run of as many backticks ends it. */
  private inCode(s: string, i: number, n: number): number {
    if (s.charCodeAt(i) === 96) {
      const run = runLength(s, i, '`')
      if (i + run >= n) return -1 // the run may grow
      if (run === this.code) this.code = 0
      return i + run
    }
    if (i - this.codeAt > HOLD_LIMIT) this.code = 0
    return i + 1
  }

  /** Inside a link destination `(...)`: parentheses counted, a blank line or HOLD_LIMIT ends it. */
  private inDestination(s: string, i: number, n: number): number {
    const c = s[i]
    if (c === '\\') return i + 1 >= n ? -1 : i + 2
    if (c === '(') this.dest++
    else if (c === ')') this.dest--
    else if (c === '\n' && i + 1 < n && s[i + 1] === '\n') this.dest = 0
    if (i - this.destAt > HOLD_LIMIT) this.dest = 0
    return i + 1
  }

  /** A character that may be inline syntax (or whitespace, which may end a segment). */
  private markup(s: string, i: number, n: number, out: Segment[]): number {
    this.expire(i)
    const c = s[i]
    if (c === ' ' || c === '\t' || c === '\n') return this.space(s, i, n, out)
    if (c === '\\') return i + 1 >= n ? -1 : i + 2
    if (c === '`') {
      const run = runLength(s, i, '`')
      if (i + run >= n) return -1
      this.code = run
      this.codeAt = i
      return i + run
    }
    if (c === '*' || c === '_' || c === '~') {
      const run = runLength(s, i, c)
      if (i + run >= n) return -1 // needs the character after the run
      // (Never read out of bounds: V8 drops the scan's optimised code when it does, and compiles it again.)
      this.delimiter(c, run, i > 0 ? s[i - 1] : undefined, s[i + run], i)
      return i + run
    }
    if (c === '[') this.stack.push({kind: '[', count: 1, at: i})
    else if (c === ']') return this.closeBracket(s, i, n)
    else if (c === '<') this.stack.push({kind: '<', count: 1, at: i})
    else if (c === '>') {
      const k = this.lastIndex('<')
      if (k >= 0) this.stack.length = k
    }
    return i + 1
  }

  /** A whitespace run: at ground state it ends the segment before it. */
  private space(s: string, i: number, n: number, out: Segment[]): number {
    let j = i
    while (j < n && isSpace(s.charCodeAt(j))) j++
    if (j >= n) return -1 // the whitespace run may continue
    if (this.stack.length === 0) {
      const text = s.slice(this.start, i)
      if (text !== '') out.push({text, space: s.slice(i, j)})
      this.start = j
    }
    return j
  }

  /** `]`: closes the last `[`, and opens a destination `(` or a reference `[` right after it. */
  private closeBracket(s: string, i: number, n: number): number {
    if (i + 1 >= n) return -1 // `](` or `][` may follow
    const k = this.lastIndex('[')
    if (k < 0) return i + 1
    this.stack.length = k
    if (s[i + 1] === '(') {
      this.dest = 1
      this.destAt = i
      return i + 2
    }
    if (s[i + 1] === '[') {
      this.stack.push({kind: '[', count: 1, at: i + 1})
      return i + 2
    }
    return i + 1
  }

  /** Openers older than HOLD_LIMIT are literal; an autolink `<` ends at whitespace. */
  private expire(i: number): void {
    const st = this.stack
    if (st.length === 0) return
    if (st[0].at < i - HOLD_LIMIT) this.stack = st.filter((o) => o.at >= i - HOLD_LIMIT)
    const c = this.src[i]
    if ((c === ' ' || c === '\t' || c === '\n') && this.stack.length > 0) {
      const k = this.lastIndex('<')
      if (k >= 0) this.stack.splice(k, 1)
    }
  }

  private lastIndex(kind: Opener['kind']): number {
    for (let k = this.stack.length - 1; k >= 0; k--) if (this.stack[k].kind === kind) return k
    return -1
  }

  /** A run of `*`, `_` or `~`: closes what it can (by count), opens with the rest. */
  private delimiter(c: '*' | '_' | '~', run: number, before: string | undefined, after: string | undefined, at: number): void {
    const prevSpace = before === undefined || SPACE.test(before)
    const nextSpace = after === undefined || SPACE.test(after)
    const prevPunct = before !== undefined && PUNCT.test(before)
    const nextPunct = after !== undefined && PUNCT.test(after)
    const left = !nextSpace && (!nextPunct || prevSpace || prevPunct)
    const right = !prevSpace && (!prevPunct || nextSpace || nextPunct)
    const canOpen = c === '_' ? left && (!right || prevPunct) : left
    const canClose = c === '_' ? right && (!left || nextPunct) : right
    let left_ = run
    if (canClose) {
      while (left_ > 0) {
        const k = this.lastIndex(c)
        if (k < 0) break
        const o = this.stack[k]
        const used = Math.min(o.count, left_)
        o.count -= used
        left_ -= used
        // Openers above the match can no longer close across it.
        this.stack.length = o.count === 0 ? k : k + 1
      }
    }
    if (left_ > 0 && canOpen) this.stack.push({kind: c, count: left_, at})
  }
}

function runLength(s: string, i: number, c: string): number {
  let j = i
  while (j < s.length && s[j] === c) j++
  return j - i
}
