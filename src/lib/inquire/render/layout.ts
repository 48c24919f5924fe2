// Pure layout of one buffer line: where it wraps into terminal rows by
// display width, and where a cursor offset lands.
//
// Rules (the terminal's, so the cursor we compute is the cursor it shows):
// - a grapheme never splits across rows; a wide grapheme that does not fit in
//   the last cell of a row starts the next one;
// - a line whose last row is exactly full gets an extra empty row, so the
//   cursor after its last grapheme sits at column 0 below instead of in the
//   terminal's "pending wrap" limbo past the right margin (readline does the
//   same);
// - tabs draw as one space and other control characters as `?`: the buffer
//   may hold text jp did not type (a tool result), and a raw control byte
//   would move the cursor or restyle the screen. The buffer keeps them.
//
// Cost: a printable-ASCII line (the common case) is cut into rows without
// looking at its characters one by one, and typing at its end extends the
// last row in place; only other lines walk their graphemes. A line keeps one
// entry per row, not per character, so a 100,000-character line is cheap to
// hold and to extend.
import {displayWidth, graphemes} from '../text.js'

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

export interface LineLayout {
  /** The line (without its newline). */
  text: string
  firstWidth: number
  restWidth: number
  /** UTF-16 offset where each row starts (the first is 0). */
  rowStarts: number[]
  /** What each row draws (sanitized). */
  rowTexts: string[]
  /** Cells each row's text occupies. */
  rowWidths: number[]
  /** Every character is printable ASCII: one cell each, nothing to sanitize. */
  ascii: boolean
}

/** Rows the line takes: its rows, plus an empty one when the last is exactly full. */
export function rowCount(l: LineLayout): number {
  return l.rowStarts.length + (lastFull(l) ? 1 : 0)
}

/** Row `r`'s text and width (the extra row after a full one is empty). */
export function rowAt(l: LineLayout, r: number): {text: string; width: number} {
  return r < l.rowStarts.length ? {text: l.rowTexts[r], width: l.rowWidths[r]} : {text: '', width: 0}
}

function avail(l: LineLayout, row: number): number {
  return Math.max(1, row === 0 ? l.firstWidth : l.restWidth)
}

function lastFull(l: LineLayout): boolean {
  const last = l.rowStarts.length - 1
  return l.rowWidths[last] > 0 && l.rowWidths[last] >= avail(l, last)
}

/**
 * Wraps one buffer line. `firstWidth` cells are available on its first row,
 * `restWidth` on every further row (they differ when the first row shares
 * its row with the prompt message).
 */
export function wrapLine(line: string, firstWidth: number, restWidth: number): LineLayout {
  const l: LineLayout = {text: '', firstWidth, restWidth, rowStarts: [0], rowTexts: [''], rowWidths: [0], ascii: true}
  extendLine(l, line)
  return l
}

/** Appends `added` to the line's end and to its rows, in place (typing at the end costs the typed text and its row only). */
export function extendLine(l: LineLayout, added: string): void {
  if (added === '') return
  const offset = l.text.length
  l.text += added
  if (PRINTABLE_ASCII.test(added)) {
    placeAscii(l, added, offset)
    return
  }
  // What is added may join the last grapheme (a combining mark, a ZWJ
  // sequence): lay the last row out again with it. A grapheme never spans
  // rows, so the rows before stay as they are.
  l.ascii = false
  const last = l.rowStarts.length - 1
  let at = l.rowStarts[last]
  const redo = l.text.slice(at)
  if (last === 0) {
    l.rowTexts[0] = ''
    l.rowWidths[0] = 0
  } else {
    l.rowStarts.pop()
    l.rowTexts.pop()
    l.rowWidths.pop()
  }
  for (const g of graphemes(redo)) {
    place(l, g, at)
    at += g.length
  }
}

/** Printable ASCII: whole runs of one cell each, a row at a time. */
function placeAscii(l: LineLayout, added: string, offset: number): void {
  let i = 0
  while (i < added.length) {
    let last = l.rowStarts.length - 1
    let room = avail(l, last) - l.rowWidths[last]
    if (room <= 0 && l.rowWidths[last] > 0) {
      l.rowStarts.push(offset + i)
      l.rowTexts.push('')
      l.rowWidths.push(0)
      last++
      room = avail(l, last)
    }
    const take = Math.min(Math.max(1, room), added.length - i)
    l.rowTexts[last] += added.slice(i, i + take)
    l.rowWidths[last] += take
    i += take
  }
}

function place(l: LineLayout, g: string, at: number): void {
  const shown = sanitize(g)
  const w = displayWidth(shown)
  let last = l.rowStarts.length - 1
  if (l.rowWidths[last] + w > avail(l, last) && l.rowWidths[last] > 0) {
    l.rowStarts.push(at)
    l.rowTexts.push('')
    l.rowWidths.push(0)
    last++
  }
  l.rowTexts[last] += shown
  l.rowWidths[last] += w
}

/** Row and column of the cursor at UTF-16 `offset` (on a grapheme boundary) in the line. */
export function cursorIn(l: LineLayout, offset: number): {row: number; col: number} {
  if (offset >= l.text.length && lastFull(l)) return {row: l.rowStarts.length, col: 0}
  const starts = l.rowStarts
  const lo = lastAtOrBefore(starts, offset)
  // ASCII: no need to look at (or copy) the text.
  if (l.ascii) return {row: lo, col: offset - starts[lo]}
  return {row: lo, col: displayWidth(sanitizeAll(l.text.slice(starts[lo], offset)))}
}

/** Index of the last value in ascending `sorted` that is at most `value` (0 when none is). */
export function lastAtOrBefore(sorted: readonly number[], value: number): number {
  let lo = 0
  let hi = sorted.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (sorted[mid] <= value) lo = mid
    else hi = mid - 1
  }
  return lo
}

// A control character would act on the terminal instead of being drawn.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/
const CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g

function sanitize(g: string): string {
  if (g === '\t') return ' '
  return CONTROL.test(g) ? g.replace(CONTROLS, '?') : g
}

function sanitizeAll(s: string): string {
  return s.replaceAll('\t', ' ').replace(CONTROLS, '?')
}
