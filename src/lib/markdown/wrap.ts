// Greedy word wrapping of styled text, streamed: a word is placed as soon as
// it is complete, and a placed word is never moved (the break before a word
// is decided by that word alone), so what is written is a prefix of what the
// whole text would give. wrap-ansi wraps a whole string at a time and
// re-reads the escapes in it; this wraps runs that carry their style beside
// the text, and never has an escape inside a measured word.
import stringWidth from 'string-width'

import {FORMAT_CHARS, placeholder} from './rendered-format-chars.js'
import {paint, PLAIN, type Style} from './style.js'

// Built on first use, not at load (the first Intl.Segmenter of a process
// loads ICU data). Not text/graphemes.ts: markdown/ imports nothing from
// src/lib (docs/architecture.md).
let graphemes: Intl.Segmenter | undefined
const segmenter = (): Intl.Segmenter => (graphemes ??= new Intl.Segmenter(undefined, {granularity: 'grapheme'}))

/**
 * One cell a UTF-16 unit, measured without string-width: printable ASCII,
 * Latin-1 to the spacing modifiers, the visible general punctuation (dashes,
 * quotes, bullets; not the zero-width ones) and box drawing. The common case.
 */
const ASCII = /^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff\u2010-\u2027\u2030-\u205e\u2500-\u257f]*$/
// (Not the soft hyphen U+00AD: a format character, shown as its placeholder.)
const FORMAT_CHARS_ALL = new RegExp(FORMAT_CHARS.source, 'gu')

/** Terminal cells of `text` (no control characters in it). */
export function cells(text: string): number {
  if (ASCII.test(text)) return text.length
  // A format character is shown as its placeholder (rendered-format-chars.ts): it takes that many cells.
  if (FORMAT_CHARS.test(text)) return stringWidth(text.replace(FORMAT_CHARS_ALL, placeholder), {countAnsiEscapeCodes: false})
  return stringWidth(text, {countAnsiEscapeCodes: false})
}

/** Cells of the widest space-separated word of `text` (no control characters in it). */
export function longestWord(text: string): number {
  let longest = 0
  if (ASCII.test(text)) {
    // One cell a unit: the longest run between spaces.
    let from = 0
    for (let sp = text.indexOf(' '); sp >= 0; sp = text.indexOf(' ', from)) {
      if (sp - from > longest) longest = sp - from
      from = sp + 1
    }
    return Math.max(longest, text.length - from)
  }
  for (const word of text.split(' ')) longest = Math.max(longest, cells(word))
  return longest
}

/** Splits `text` into pieces of at most `width` cells (at least one grapheme each). */
export function hardSplit(text: string, width: number, firstWidth = width): string[] {
  const out: string[] = []
  if (ASCII.test(text)) {
    // One cell a unit: cut by length.
    let at = Math.max(1, firstWidth)
    out.push(text.slice(0, at))
    for (const w = Math.max(1, width); at < text.length; at += w) out.push(text.slice(at, at + w))
    return out
  }
  let cur = ''
  let w = 0
  let limit = Math.max(1, firstWidth)
  for (const {segment} of segmenter().segment(text)) {
    const g = cells(segment)
    if (w + g > limit && cur !== '') {
      out.push(cur)
      cur = ''
      w = 0
      limit = Math.max(1, width)
    }
    cur += segment
    w += g
  }
  if (cur !== '' || out.length === 0) out.push(cur)
  return out
}

/** No SGR for this style (with colour off, a colour alone paints nothing). */
function isPlain(style: Style, color: boolean): boolean {
  return !style.bold && !style.dim && !style.italic && !style.underline && !style.strike && !(color && style.fg)
}

export interface Piece {
  text: string
  style: Style
  /** Wraps the painted text (an OSC 8 hyperlink); applied per line. */
  link?: string
}

export interface WrapOptions {
  width: number
  /** Written before the first line (a list marker, a quote bar). */
  first?: Piece[]
  /** Written before every later line. */
  rest?: Piece[]
  color: boolean
}

/** The painted form of `pieces` (OSC 8 around linked pieces). */
export function paintPieces(pieces: readonly Piece[], color: boolean): string {
  let s = ''
  for (const p of pieces) {
    const painted = paint(p.text, p.style, color)
    s += p.link === undefined ? painted : `\u001b]8;;${p.link}\u001b\\${painted}\u001b]8;;\u001b\\`
  }
  return s
}

/** paintPieces of a word (most are one piece, unlinked). */
function paintWord(word: readonly Piece[], color: boolean): string {
  return word.length === 1 && word[0].link === undefined ? paint(word[0].text, word[0].style, color) : paintPieces(word, color)
}

function piecesWidth(pieces: readonly Piece[]): number {
  let w = 0
  for (const p of pieces) w += cells(p.text)
  return w
}

/** What inline content is written into: a LineWrapper, or the words of a table cell. */
export interface InlineSink {
  text(text: string, style: Style, link?: string): void
  space(): void
  hardBreak(): void
}

/**
 * The words a LineWrapper would place for the same calls (split at spaces,
 * a word's pieces painted one by one), kept to be laid out at any width
 * (a table cell is laid out at its natural width, then maybe narrower).
 * Only for text of one-cell characters (so a word's width is its length,
 * whatever its pieces) and no hard break: else `exact` is false.
 */
export class PaintedWords implements InlineSink {
  readonly painted: string[] = []
  readonly widths: number[] = []
  exact = true
  /** The widest word. */
  longest = 0
  private readonly word: Piece[] = []
  private wordWidth = 0

  constructor(private readonly color: boolean) {}

  text(text: string, style: Style, link?: string): void {
    if (!ASCII.test(text)) this.exact = false
    for (let i = 0; ; ) {
      const sp = text.indexOf(' ', i)
      const end = sp < 0 ? text.length : sp
      if (end > i) {
        const t = i === 0 && end === text.length ? text : text.slice(i, end)
        if (sp >= 0 && this.word.length === 0 && link === undefined) {
          // A whole word of one piece: painted as placeWord would paint it.
          this.painted.push(paint(t, style, this.color))
          this.widths.push(end - i)
          if (end - i > this.longest) this.longest = end - i
          i = sp + 1
          continue
        }
        this.word.push({text: t, style, link})
        this.wordWidth += end - i
      }
      if (sp < 0) return
      this.space()
      i = sp + 1
    }
  }

  space(): void {
    if (this.word.length === 0) return
    this.painted.push(paintWord(this.word, this.color))
    this.widths.push(this.wordWidth)
    if (this.wordWidth > this.longest) this.longest = this.wordWidth
    this.word.length = 0
    this.wordWidth = 0
  }

  hardBreak(): void {
    this.space()
    this.exact = false
  }

  /**
   * The lines (painted, with their widths) a LineWrapper `width` wide with
   * no prefix gives for these words; undefined when a word is wider than
   * that (it would be cut).
   */
  lines(width: number): {text: string; width: number}[] | undefined {
    this.space()
    const {painted, widths} = this
    if (painted.length === 0) return []
    if (this.longest > width) return undefined
    const out: {text: string; width: number}[] = []
    let line = painted[0]
    let col = widths[0]
    for (let k = 1; k < painted.length; k++) {
      if (col + 1 + widths[k] <= width) {
        line += ' ' + painted[k]
        col += 1 + widths[k]
      } else {
        out.push({text: line, width: col})
        line = painted[k]
        col = widths[k]
      }
    }
    out.push({text: line, width: col})
    return out
  }
}

export class LineWrapper implements InlineSink {
  private out = ''
  private word: Piece[] = []
  private wordWidth = 0
  private col = 0
  /** Nothing but the prefix on the current line (or the first line not begun). */
  private lineEmpty = true
  private started = false
  private readonly width: number
  private readonly firstPrefix: Piece[]
  private readonly restPrefix: Piece[]
  private readonly restWidth: number

  constructor(private readonly opts: WrapOptions) {
    this.firstPrefix = opts.first ?? []
    this.restPrefix = opts.rest ?? []
    this.restWidth = piecesWidth(this.restPrefix)
    // A prefix wider than the line would leave no room: keep one cell at least.
    this.width = Math.max(opts.width, Math.max(piecesWidth(this.firstPrefix), this.restWidth) + 1)
  }

  /** Adds text in `style`: spaces in it are break opportunities. */
  text(text: string, style: Style, link?: string): void {
    // The common case: unstyled one-cell text, no word pending: complete words are placed straight from the string.
    const plain = link === undefined && this.word.length === 0 && isPlain(style, this.opts.color) && ASCII.test(text)
    let i = 0
    const n = text.length
    if (plain && text.charCodeAt(0) !== 32 && !text.includes('  ')) i = this.placePlainRun(text)
    while (i < n) {
      const sp = text.indexOf(' ', i)
      const end = sp < 0 ? n : sp
      if (end > i) {
        const t = i === 0 && end === n ? text : text.slice(i, end)
        if (plain && sp >= 0) this.placePlain(t)
        else {
          // The last word may continue in the next call: it stays pending.
          this.word.push({text: t, style: plain ? PLAIN : style, link})
          this.wordWidth += plain ? t.length : cells(t)
        }
      }
      if (sp < 0) break
      this.space()
      i = sp + 1
    }
  }

  /**
   * A paragraph's plain segment (unstyled, no inline syntax: words joined by
   * single spaces, none at either end), then a break opportunity when
   * `space`: what `text(space ? text + ' ' : text, PLAIN)` does, without
   * building the string. `ascii`: the caller knows it is printable ASCII.
   */
  plainSegment(text: string, space: boolean, ascii = false): void {
    if (this.word.length > 0 || !(ascii || ASCII.test(text))) return this.text(space ? text + ' ' : text, PLAIN)
    const i = this.placePlainRun(text)
    const last = i === 0 ? text : text.slice(i)
    if (space) this.placePlain(last)
    else {
      this.word.push({text: last, style: PLAIN})
      this.wordWidth += last.length
    }
  }

  /**
   * Words of unstyled one-cell text separated by single spaces, placed as
   * placePlain would place them one by one: as many whole words as fit go
   * onto the line in one step. Returns where the words not placed start (the
   * last word, when no space ends it, stays for the caller).
   */
  private placePlainRun(text: string): number {
    let i = 0
    for (;;) {
      const sp = text.indexOf(' ', i)
      if (sp < 0) return i
      if (!this.started || this.lineEmpty || this.col + 1 + (sp - i) > this.width) {
        this.placePlain(text.slice(i, sp))
        i = sp + 1
        continue
      }
      // The last space at most a line's room away ends the last word that fits (a word back at most: cheaper than lastIndexOf).
      let e = Math.min(text.length - 1, i + this.width - this.col - 1)
      while (text.charCodeAt(e) !== 32) e--
      this.out += ' ' + text.slice(i, e)
      this.col += 1 + e - i
      i = e + 1
    }
  }

  /** A complete unstyled word of one-cell characters. */
  private placePlain(word: string): void {
    const w = word.length
    this.begin()
    if (!this.lineEmpty) {
      if (this.col + 1 + w <= this.width) {
        this.out += ' ' + word
        this.col += 1 + w
        return
      }
      this.newline()
    }
    if (w <= this.width - this.col) {
      this.out += word
      this.col += w
      this.lineEmpty = false
      return
    }
    this.placeLong([{text: word, style: PLAIN}])
  }

  /** A break opportunity: ends the current word. */
  space(): void {
    this.placeWord()
  }

  /** A forced line break (markdown hard break). */
  hardBreak(): void {
    this.placeWord()
    this.begin()
    this.newline()
  }

  /** The line above was ended by someone else (chrome, a menu): continue on a fresh line. */
  lineBroken(): void {
    if (!this.started || this.lineEmpty) return
    this.out += paintPieces(this.restPrefix, this.opts.color)
    this.col = this.restWidth
    this.lineEmpty = true
  }

  /** Ends the text: the last word is placed and the line ended. */
  finish(): void {
    this.placeWord()
    if (this.started) this.out += '\n'
    this.started = false
  }

  /** Whether anything was written (a prefix only counts once text followed it). */
  get empty(): boolean {
    return !this.started
  }

  /** What is ready to be written since the last call. */
  take(): string {
    const s = this.out
    this.out = ''
    return s
  }

  private begin(): void {
    if (this.started) return
    this.started = true
    this.out += paintPieces(this.firstPrefix, this.opts.color)
    this.col = piecesWidth(this.firstPrefix)
    this.lineEmpty = true
  }

  private newline(): void {
    this.out += '\n' + paintPieces(this.restPrefix, this.opts.color)
    this.col = this.restWidth
    this.lineEmpty = true
  }

  private placeWord(): void {
    const word = this.word
    if (word.length === 0) return
    const w = this.wordWidth
    this.wordWidth = 0
    this.begin()
    if (!this.lineEmpty) {
      if (this.col + 1 + w <= this.width) {
        this.out += ' ' + paintWord(word, this.opts.color)
        this.col += 1 + w
        word.length = 0
        return
      }
      this.newline()
    }
    const avail = this.width - this.col
    if (w <= avail) {
      this.out += paintWord(word, this.opts.color)
      this.col += w
      this.lineEmpty = false
      word.length = 0
      return
    }
    this.word = []
    // Longer than a line: cut at graphemes, each piece keeping its style.
    this.placeLong(word)
  }

  private placeLong(word: Piece[]): void {
    for (const piece of word) {
      let text = piece.text
      while (text !== '') {
        const avail = this.width - this.col
        if (avail <= 0) {
          this.newline()
          continue
        }
        const parts = hardSplit(text, this.width - this.restWidth, avail)
        const head = parts[0]
        const hw = cells(head)
        if (hw > avail && !this.lineEmpty) {
          this.newline()
          continue
        }
        this.out += paintPieces([{...piece, text: head}], this.opts.color)
        this.col += hw
        this.lineEmpty = false
        text = text.slice(head.length)
        if (text !== '') this.newline()
      }
    }
  }
}
