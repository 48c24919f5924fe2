// The terminal's current line as the printer leaves it (SPEC §18 "Type to
// queue": the answer keeps printing above an open prompt, continuing its
// unfinished line). Pure bookkeeping and the cursor moves it needs; the
// printer writes the bytes.
import {advance, LINE_START, type LinePosition} from './cells.js'
import type {PromptRelease} from './owner.js'
import {rowAboveAt} from './sequences.js'

/**
 * The terminal's current line as the printer's output left it (stdout and
 * stderr share one when both are the terminal). While a prompt is open the
 * prompt sits on the rows below that line: text printed above the prompt
 * goes back up to where the line stopped, continues it, and leaves the
 * cursor on a fresh row for the prompt again, so an answer streaming above
 * an open prompt reads exactly as it would with no prompt.
 */
export class TerminalLine {
  position: LinePosition = LINE_START
  /** The cursor was moved down off the unfinished line for a prompt. */
  lifted = false
  /** The line filled its last row and the cursor sits below it, where the terminal's pending wrap would put the next character. */
  private belowFullRow = false

  constructor(readonly columns: () => number) {}

  /** The bytes that put `text` on the screen, the prompt (if open) kept below it. */
  place(text: string, promptOpen: boolean): string {
    const width = this.columns()
    let out = ''
    let shown = text
    if (this.belowFullRow || (promptOpen && this.lifted && this.position.column >= width)) {
      this.belowFullRow = false
      // A newline is the pending wrap itself.
      if (shown.startsWith('\n')) shown = shown.slice(1)
    } else if (promptOpen && this.lifted) {
      // Back to where the line stopped.
      out += rowAboveAt(this.position.column)
    }
    out += shown
    this.position = advance(text, this.position, width)
    if (promptOpen) {
      // The prompt draws on a fresh row below whatever is unfinished.
      this.lifted = this.position.open
      if (this.lifted) out += '\r\n'
    }
    return out
  }

  /** A prompt takes the screen: an unfinished line's cursor moves down a row (the line stays as it is). */
  lift(): string {
    if (!this.position.open || this.lifted) return ''
    this.lifted = true
    return '\r\n'
  }

  /** The prompt gave the screen back: back to the end of the line if it erased itself, else the line ended under it. */
  release(how: PromptRelease): string {
    if (!this.lifted) return ''
    this.lifted = false
    if (!how.erased) {
      this.position = LINE_START
      return ''
    }
    const {column} = this.position
    if (column < this.columns()) return rowAboveAt(column)
    this.belowFullRow = true
    return ''
  }

  /** Someone else ended the line on the terminal (a menu starting on its own line). */
  broken(): void {
    this.position = LINE_START
    this.lifted = false
    this.belowFullRow = false
  }
}
