// The only part of the prompts that writes escape sequences (SPEC §18: with
// src/lib/terminal/, whose sequences it borrows for the cursor's shape, the
// cleared screen and the saved cursor): it diffs a new Frame against what is
// on the screen and writes just the difference.
//
// Typing at the end of a line changes one row by an appended suffix, so the
// painter writes the suffix and nothing else (the cursor is already there):
// a bounded number of bytes however long the buffer is. Other edits repaint
// only the rows that differ. Positions are relative to the frame's first row
// (no cursor-position queries): rows below the last one ever drawn are
// created with CR LF (which scrolls), rows above are reached with CSI A.
import {ERASE_BELOW, RESTORE_CURSOR, TERMINAL_SEQUENCES} from '../../terminal/sequences.js'
import type {Frame} from './frame.js'

export interface Writer {
  write(data: string): unknown
}

/** What a frame may ask of the cursor's shape (vi: bar in insert, block in normal mode). */
export type CursorShape = NonNullable<Frame['cursorShape']>

export type PaintedFrame = Pick<Frame, 'rows' | 'widths' | 'cursorRow' | 'cursorCol' | 'cursorShape'>

const CSI = '\x1b['
const SHAPE: Record<CursorShape, string> = {bar: TERMINAL_SEQUENCES.cursorBar, block: TERMINAL_SEQUENCES.cursorBlock}

export class Painter {
  private rows: string[] = []
  private widths: number[] = []
  /** Cursor row relative to the frame top. */
  private row = 0
  /** Cursor column; -1 when unknown (e.g. the terminal's pending-wrap state). */
  private col = 0
  /** Frame rows that exist on the screen (drawn at least once since the last reset). */
  private allocated = 1
  /** The cursor shape last written; undefined: not known. */
  private shape: CursorShape | undefined
  /** Ctrl+L: the next paint starts on a cleared screen. */
  private clearFirst = false

  constructor(
    private readonly out: Writer,
    private width: number,
  ) {}

  /** Draws `frame`, writing only what changed. Returns the bytes written (for benchmarks). */
  paint(frame: PaintedFrame): number {
    let s = ''
    if (this.clearFirst) {
      this.clearFirst = false
      s += TERMINAL_SEQUENCES.clearScreen
    }
    // Before the rows: the frame that names a new vi mode shows its shape.
    if (frame.cursorShape !== undefined && frame.cursorShape !== this.shape) {
      s += SHAPE[frame.cursorShape]
      this.shape = frame.cursorShape
    }
    const n = frame.rows.length
    for (let i = 0; i < n; i++) {
      const next = frame.rows[i]
      const prev = i < this.rows.length ? this.rows[i] : undefined
      if (prev === next) continue
      if (prev !== undefined && prev !== '' && next.startsWith(prev)) {
        s += this.moveTo(i, this.widths[i])
        s += next.slice(prev.length)
      } else {
        s += this.moveTo(i, 0)
        s += next
        if (prev !== undefined && this.widths[i] > frame.widths[i]) s += `${CSI}K`
      }
      this.col = frame.widths[i] >= this.width ? -1 : frame.widths[i]
    }
    if (n < this.rows.length) {
      // Rows that no longer exist: blank everything below the new last row.
      s += this.moveTo(n, 0)
      s += `${CSI}J`
    }
    s += this.moveTo(frame.cursorRow, frame.cursorCol)
    this.rows = frame.rows
    this.widths = frame.widths
    if (s !== '') this.out.write(s)
    return Buffer.byteLength(s)
  }

  /**
   * The terminal changed width: erase the frame (finding its top as a
   * reflowing terminal would have moved it) so the next paint redraws all.
   */
  resize(width: number): void {
    let up = 0
    if (width < this.width) {
      for (let i = 0; i < this.row && i < this.widths.length; i++) up += Math.max(1, Math.ceil(this.widths[i] / width))
      up += Math.floor(Math.max(0, this.col) / width)
    } else {
      up = this.row
    }
    this.out.write((up > 0 ? `${CSI}${up}A` : '') + `\r${CSI}J`)
    this.width = width
    this.reset()
  }

  /** Forgets the screen (after someone else drew on it): the next paint draws everything from the cursor's row. */
  reset(): void {
    this.rows = []
    this.widths = []
    this.row = 0
    this.col = 0
    this.allocated = 1
    // Whoever drew meanwhile (an editor) may have set a shape of its own.
    this.shape = undefined
  }

  /** Erases the cursor's line and goes to its column 0: where the first frame starts. */
  eraseLine(): void {
    this.out.write(TERMINAL_SEQUENCES.eraseLine)
    this.col = 0
  }

  /** Ctrl+L: the screen is cleared and the next paint draws the whole frame at its top, in the same write. */
  clearScreen(): void {
    this.reset()
    this.clearFirst = true
  }

  /**
   * Back to the cursor position saved before an editor ran (terminal/borrow.ts
   * saves it), erasing whatever is below: the next paint draws the frame there.
   */
  backToSavedCursor(): void {
    this.out.write(RESTORE_CURSOR + ERASE_BELOW)
    this.reset()
  }

  /** Erases the whole frame and leaves the cursor where it started. */
  clear(): void {
    this.out.write((this.row > 0 ? `${CSI}${this.row}A` : '') + `\r${CSI}J`)
    this.reset()
  }

  /** Moves below the last row and to column 0, so whatever comes next starts on a fresh line. */
  leave(): void {
    let s = this.moveTo(Math.max(0, this.rows.length - 1), 0)
    s += '\r\n'
    this.out.write(s)
    this.reset()
  }

  private moveTo(row: number, col: number): string {
    let s = ''
    if (row > this.row) {
      const existing = Math.min(row, this.allocated - 1) - this.row
      if (existing > 0) s += `${CSI}${existing}B`
      const fresh = row - Math.max(this.row, this.allocated - 1)
      for (let i = 0; i < fresh; i++) s += '\r\n'
      if (fresh > 0) {
        this.col = 0
        this.allocated = row + 1
      }
    } else if (row < this.row) {
      s += `${CSI}${this.row - row}A`
    }
    this.row = row
    if (col !== this.col) {
      s += col === 0 ? '\r' : `${CSI}${col + 1}G`
      this.col = col
    }
    return s
  }
}

/**
 * TERM=dumb: no cursor addressing at all. Appends are echoed, a backspace at
 * the end erases with BS SP BS, anything else reprints the prompt and buffer
 * on a fresh line.
 */
export class DumbPainter {
  private shown = ''
  private started = false

  constructor(
    private readonly out: Writer,
    private readonly message: string,
  ) {}

  paint(text: string): void {
    if (!this.started) {
      this.out.write((this.message ? this.message + ' ' : '') + text.replaceAll('\n', '\r\n'))
      this.started = true
    } else if (text.startsWith(this.shown)) {
      this.out.write(text.slice(this.shown.length).replaceAll('\n', '\r\n'))
    } else if (this.shown.startsWith(text) && !this.shown.slice(text.length).includes('\n')) {
      this.out.write('\b \b'.repeat([...this.shown.slice(text.length)].length))
    } else {
      this.out.write('\r\n' + (this.message ? this.message + ' ' : '') + text.replaceAll('\n', '\r\n'))
    }
    this.shown = text
  }

  leave(): void {
    this.out.write('\r\n')
  }
}
