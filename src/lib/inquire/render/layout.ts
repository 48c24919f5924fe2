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
export function wrapLine(line: string, firstWidth: number, restWidth: number): WrappedLine & {state: WrapState} {
  const state = newState(firstWidth)
  for (const g of graphemes(line)) place(state, g, restWidth)
  return close(state)
}

/**
 * `line` is `prev`'s line plus `added`: continue the layout instead of
 * starting over, so typing at the end of a long line costs O(added).
 * Only for additions that cannot join the previous grapheme cluster
 * (printable ASCII), which is what typing mostly is.
 */
function extendWrap(prev: WrapState, added: string, restWidth: number): WrappedLine {
  const state: WrapState = {...prev, rows: [...prev.rows], bounds: [...prev.bounds], boundRow: [...prev.boundRow], boundCol: [...prev.boundCol]}
  for (const ch of added) place(state, ch, restWidth)
  return close(state)
}

interface WrapState {
  rows: WrappedRow[]
  bounds: number[]
  boundRow: number[]
  boundCol: number[]
  avail: number
  text: string
  col: number
  offset: number
}

function newState(firstWidth: number): WrapState {
  return {rows: [], bounds: [], boundRow: [], boundCol: [], avail: Math.max(1, firstWidth), text: '', col: 0, offset: 0}
}

function place(s: WrapState, g: string, restWidth: number): void {
  const code = g.length === 1 ? g.charCodeAt(0) : -1
  // Printable ASCII is one cell and needs no sanitizing: skip the width tables.
  const ascii = code >= 0x20 && code < 0x7f
  const shown = ascii ? g : sanitize(g)
  const w = ascii ? 1 : displayWidth(shown)
  if (s.col + w > s.avail && s.col > 0) {
    s.rows.push({text: s.text, width: s.col})
    s.text = ''
    s.col = 0
    s.avail = Math.max(1, restWidth)
  }
  s.bounds.push(s.offset)
  s.boundRow.push(s.rows.length)
  s.boundCol.push(s.col)
  s.text += shown
  s.col += w
  s.offset += g.length
}

function close(s: WrapState): WrappedLine & {state: WrapState} {
  const rows = [...s.rows, {text: s.text, width: s.col}]
  if (s.col >= s.avail && s.col > 0) rows.push({text: '', width: 0})
  const bounds = [...s.bounds, s.offset]
  const boundRow = [...s.boundRow, rows.length - 1]
  const boundCol = [...s.boundCol, rows.at(-1)!.width]
  return {rows, bounds, boundRow, boundCol, state: s}
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
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/
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
  private cache = new Map<string, WrappedLine & {state: WrapState}>()
  /** The line laid out most recently: the one being typed into. */
  private last: {line: string; key: string; wrapped: WrappedLine & {state: WrapState}} | undefined
  constructor(private readonly limit = 2000) {}

  get(line: string, firstWidth: number, restWidth: number): WrappedLine {
    const prefix = `${firstWidth}:${restWidth}:`
    const key = prefix + line
    let hit = this.cache.get(key)
    if (hit === undefined) {
      if (this.cache.size >= this.limit) this.cache.clear()
      const last = this.last
      const added = last && last.key.startsWith(prefix) && line.startsWith(last.line) ? line.slice(last.line.length) : undefined
      hit =
        added !== undefined && /^[\x20-\x7e]+$/.test(added)
          ? (extendWrap(last!.wrapped.state, added, restWidth) as WrappedLine & {state: WrapState})
          : (wrapLine(line, firstWidth, restWidth) as WrappedLine & {state: WrapState})
      this.cache.set(key, hit)
      this.last = {line, key, wrapped: hit}
    }
    return hit
  }
}
