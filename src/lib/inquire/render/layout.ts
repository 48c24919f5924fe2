// Pure layout: a buffer line wrapped into terminal rows by display width, and
// where each grapheme boundary (each possible cursor position) lands.
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
import {displayWidth, graphemes} from '../text.js'

export interface WrappedRow {
  /** What to draw (already sanitized), without prefix. */
  text: string
  /** Cells `text` occupies. */
  width: number
}

export interface WrappedLine {
  rows: WrappedRow[]
  /** UTF-16 offsets of every grapheme boundary in the line, ascending, including 0 and line.length. */
  bounds: number[]
  /** Row of the cursor at `bounds[k]`. */
  boundRow: number[]
  /** Column (within the row's text area) of the cursor at `bounds[k]`. */
  boundCol: number[]
}

/**
 * Wraps one buffer line. `firstWidth` cells are available on its first row,
 * `restWidth` on every further row (they differ when the first row shares
 * its row with the prompt message).
 */
export function wrapLine(line: string, firstWidth: number, restWidth: number): WrappedLine {
  const rows: WrappedRow[] = []
  const bounds: number[] = []
  const boundRow: number[] = []
  const boundCol: number[] = []
  let avail = Math.max(1, firstWidth)
  let text = ''
  let col = 0
  let offset = 0
  for (const g of graphemes(line)) {
    const shown = sanitize(g)
    const w = displayWidth(shown)
    if (col + w > avail && col > 0) {
      rows.push({text, width: col})
      text = ''
      col = 0
      avail = Math.max(1, restWidth)
    }
    bounds.push(offset)
    boundRow.push(rows.length)
    boundCol.push(col)
    text += shown
    col += w
    offset += g.length
  }
  rows.push({text, width: col})
  if (col >= avail && col > 0) rows.push({text: '', width: 0})
  bounds.push(offset)
  boundRow.push(rows.length - 1)
  boundCol.push(rows.at(-1)!.width)
  return {rows, bounds, boundRow, boundCol}
}

/** Row and column of the cursor at UTF-16 `offset` (snapped back to a grapheme boundary). */
export function cursorIn(wrapped: WrappedLine, offset: number): {row: number; col: number} {
  const {bounds} = wrapped
  let lo = 0
  let hi = bounds.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (bounds[mid] <= offset) lo = mid
    else hi = mid - 1
  }
  return {row: wrapped.boundRow[lo], col: wrapped.boundCol[lo]}
}

// A control character would act on the terminal instead of being drawn.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g

function sanitize(g: string): string {
  if (g === '\t') return ' '
  return CONTROL.test(g) ? g.replace(CONTROLS, '?') : g
}

/**
 * Memoizes wrapLine per (line, widths): on a keystroke only the edited line
 * changes, so a 200-line buffer re-lays-out one line, not 200.
 */
export class LineLayoutCache {
  private cache = new Map<string, WrappedLine>()
  constructor(private readonly limit = 2000) {}

  get(line: string, firstWidth: number, restWidth: number): WrappedLine {
    const key = `${firstWidth}:${restWidth}:${line}`
    let hit = this.cache.get(key)
    if (hit === undefined) {
      if (this.cache.size >= this.limit) this.cache.clear()
      hit = wrapLine(line, firstWidth, restWidth)
      this.cache.set(key, hit)
    }
    return hit
  }
}
