// Pure: the reply prompt as a list of screen rows plus the cursor — the
// message and the buffer's first row, continuation rows prefixed `… `, then
// the help line — cut to a viewport around the cursor when the buffer is
// taller than the terminal.
import type {ChangeSource} from '../core/line-editor.js'
import {displayWidth, graphemes} from '../text.js'
import type {BufferLayout} from './buffer-layout.js'
import {cursorIn, rowAt, rowCount} from './layout.js'

export interface ReplyView {
  /** The prompt line (the last line of the message; earlier lines are printed once, above). */
  message: string
  text: string
  /** UTF-16 offset into `text`. */
  cursor: number
  /** Where `text`'s changes can be read (the LineEditor), so the layout need not read all of it. */
  source?: ChangeSource
  /** The help line; undefined hides it. */
  help?: string
  /** Drawn dim where the buffer's text would start while the buffer is empty. */
  placeholder?: string
  /**
   * Rows drawn below the buffer, above the help line (the `@` completion
   * list, a mention's error): plain text, cut to the width here; they take
   * their room from the viewport, never the buffer's cursor row.
   */
  below?: readonly BelowRow[]
  width: number
  height: number
  color: boolean
}

/** A row under the buffer: `selected` is shown inverted (marked `›` without colour), `dim` dim. */
export interface BelowRow {
  text: string
  style?: 'selected' | 'dim' | 'plain'
}

/**
 * The viewport's first row, as a line of the buffer and a row within it
 * (line -1: the message's own row, when it does not share a row with the
 * buffer). Carried from frame to frame: it stays put while the cursor stays
 * inside the viewport.
 */
export interface ScrollTop {
  line: number
  row: number
}

export const TOP: ScrollTop = {line: -1, row: 0}

export interface Frame {
  /** Rows to draw, escape-styled; each fits in `width` cells. */
  rows: string[]
  /** Cells each row occupies. */
  widths: number[]
  cursorRow: number
  cursorCol: number
  /** The viewport's first row (state to carry into the next frame). */
  scrollTop: ScrollTop
  /** The cursor's shape while this frame is up (vi modes); undefined leaves it as it is. */
  cursorShape?: 'bar' | 'block'
}

export const CONTINUATION_PREFIX = '… '
const CONTINUATION_WIDTH = 2
/** Below this many free cells the buffer moves under the message instead of beside it. */
const MIN_FIRST_ROW = 10

const bold = (s: string, color: boolean) => (color ? `\x1b[1m${s}\x1b[22m` : s)
/** Dim text (SGR 2), or the text as it is without colour. */
export const dim = (s: string, color: boolean) => (color ? `\x1b[2m${s}\x1b[22m` : s)

/**
 * Lays the view out. `scrollTop` is the previous frame's (keeps the viewport
 * still while the cursor stays inside it); `viewport: false` returns every
 * row (the final paint after submit). Only the rows shown are laid out.
 */
export function buildFrame(view: ReplyView, layout: BufferLayout, scrollTop: ScrollTop = TOP, viewport = true): Frame {
  const width = Math.max(4, view.width)
  const contPrefix = dim(CONTINUATION_PREFIX, view.color)
  const restWidth = width - CONTINUATION_WIDTH

  // Header: the message shares the first buffer row when there is room.
  let head: {text: string; width: number} | undefined
  let firstPrefix = contPrefix
  let firstPrefixWidth = CONTINUATION_WIDTH
  if (view.message !== '') {
    const messageWidth = layout.remember(`w|${view.message}`, () => ({text: view.message, width: displayWidth(view.message)})).width
    if (messageWidth + 1 + MIN_FIRST_ROW <= width) {
      firstPrefix = bold(view.message, view.color) + ' '
      firstPrefixWidth = messageWidth + 1
    } else {
      const shown = truncate(view.message, width - 1)
      head = {text: bold(shown.text, view.color), width: shown.width}
    }
  }

  layout.sync(view.text, view.source)
  const body = new Rows(layout, width - firstPrefixWidth, restWidth, head !== undefined)
  const row = (p: ScrollTop): {text: string; width: number} => {
    if (p.line < 0) return head!
    const r = body.row(p)
    if (p.line === 0 && p.row === 0) {
      if (view.text === '' && view.placeholder) {
        const shown = truncate(view.placeholder, Math.max(1, width - firstPrefixWidth - 1))
        return {text: firstPrefix + dim(shown.text, view.color), width: firstPrefixWidth + shown.width}
      }
      return {text: firstPrefix + r.text, width: firstPrefixWidth + r.width}
    }
    return {text: contPrefix + r.text, width: CONTINUATION_WIDTH + r.width}
  }

  const li = layout.lineAt(view.cursor)
  const at = body.cursor(li, view.cursor - layout.lineStart(li))
  const cursor: ScrollTop = {line: li, row: at.row}
  const cursorCol = (li === 0 && at.row === 0 ? firstPrefixWidth : CONTINUATION_WIDTH) + at.col

  let help: {text: string; width: number} | undefined
  if (view.help !== undefined) {
    const helpText = view.help
    // The same few lines on every key: measured once.
    const shown = layout.remember(`h|${width}|${helpText}`, () => truncate(helpText, width - 1))
    help = {text: dim(shown.text, view.color), width: shown.width}
  }
  // Below-buffer rows keep at least one row of the buffer on the screen.
  const below = belowRows(view, width).slice(0, Math.max(0, view.height - 1 - (help ? 1 : 0)))
  // The viewport scrolls the header and body together; the rows below and the help row stay.
  const room = Math.max(1, view.height - (help ? 1 : 0) - below.length)
  let top = body.first()
  if (viewport && !body.fits(room)) {
    top = body.valid(scrollTop) ? scrollTop : top
    if (body.before(cursor, top)) top = cursor
    else if (body.distance(top, cursor, room) >= room) top = body.back(cursor, room - 1)
    // No empty rows below the buffer while it can fill the viewport.
    const last = body.last()
    if (body.distance(top, last, room) < room - 1) top = body.back(last, room - 1)
  }

  const rows: string[] = []
  const widths: number[] = []
  let cursorRow = 0
  for (let p: ScrollTop | undefined = top; p && (!viewport || rows.length < room); p = body.next(p)) {
    if (p.line === cursor.line && p.row === cursor.row) cursorRow = rows.length
    const r = row(p)
    rows.push(r.text)
    widths.push(r.width)
  }
  for (const b of below) {
    rows.push(b.text)
    widths.push(b.width)
  }
  if (help) {
    rows.push(help.text)
    widths.push(help.width)
  }
  return {rows, widths, cursorRow, cursorCol, scrollTop: top}
}

const inverse = (s: string, color: boolean) => (color ? `\x1b[7m${s}\x1b[27m` : s)

/** The view's below-buffer rows, cut to the width and styled. */
function belowRows(view: ReplyView, width: number): Array<{text: string; width: number}> {
  if (!view.below || view.below.length === 0) return []
  return view.below.map((row) => {
    const marker = row.style === 'selected' ? '› ' : '  '
    const shown = truncate(row.text, Math.max(1, width - 1 - marker.length))
    const text = marker + shown.text
    const styled = row.style === 'selected' ? inverse(text, view.color) : row.style === 'dim' ? dim(text, view.color) : text
    return {text: styled, width: marker.length + shown.width}
  })
}

/** Walking the buffer's rows (and the header row before them) by position, laying out only the lines walked. */
class Rows {
  constructor(
    private readonly layout: BufferLayout,
    private readonly firstWidth: number,
    private readonly restWidth: number,
    private readonly header: boolean,
  ) {}

  private line(li: number) {
    return this.layout.layout(li, this.firstWidth, this.restWidth)
  }

  private rows(li: number): number {
    return li < 0 ? 1 : rowCount(this.line(li))
  }

  row(p: ScrollTop): {text: string; width: number} {
    return rowAt(this.line(p.line), p.row)
  }

  cursor(li: number, offset: number): {row: number; col: number} {
    return cursorIn(this.line(li), offset)
  }

  first(): ScrollTop {
    return this.header ? {line: -1, row: 0} : {line: 0, row: 0}
  }

  last(): ScrollTop {
    const li = this.layout.lineCount - 1
    return {line: li, row: this.rows(li) - 1}
  }

  valid(p: ScrollTop): boolean {
    if (p.line < 0) return this.header && p.row === 0
    return p.line < this.layout.lineCount && p.row < this.rows(p.line)
  }

  before(a: ScrollTop, b: ScrollTop): boolean {
    return a.line < b.line || (a.line === b.line && a.row < b.row)
  }

  next(p: ScrollTop): ScrollTop | undefined {
    if (p.row + 1 < this.rows(p.line)) return {line: p.line, row: p.row + 1}
    return p.line + 1 < this.layout.lineCount ? {line: p.line + 1, row: 0} : undefined
  }

  /** `n` rows up from `p` (or the first row). */
  back(p: ScrollTop, n: number): ScrollTop {
    let {line, row} = p
    while (n > 0) {
      if (row >= n) return {line, row: row - n}
      n -= row + 1
      if (line - 1 < (this.header ? -1 : 0)) return this.first()
      line--
      row = this.rows(line) - 1
    }
    return {line, row}
  }

  /** Rows from `a` down to `b` (0 when equal), counting no further than `limit`. */
  distance(a: ScrollTop, b: ScrollTop, limit: number): number {
    if (a.line === b.line) return b.row - a.row
    let d = this.rows(a.line) - a.row
    for (let li = a.line + 1; li < b.line && d < limit; li++) d += this.rows(li)
    return d + b.row
  }

  /** Whether every row fits in `room` (counting no further than needed). */
  fits(room: number): boolean {
    let n = this.header ? 1 : 0
    for (let li = 0; li < this.layout.lineCount; li++) {
      n += this.rows(li)
      if (n > room) return false
    }
    return true
  }
}

/** Cuts `text` to at most `max` cells, ending in `…` when cut. */
export function truncate(text: string, max: number): {text: string; width: number} {
  const w = displayWidth(text)
  if (w <= max) return {text, width: w}
  let out = ''
  let used = 0
  for (const g of graphemes(text)) {
    const gw = displayWidth(g)
    if (used + gw > max - 1) break
    out += g
    used += gw
  }
  return {text: out + '…', width: used + 1}
}
