// One line redrawn in place at the cursor (the printer's status line): the
// bytes that draw and erase it are the terminal layer's (SPEC §18).
import {TERMINAL_SEQUENCES} from './sequences.js'

export class InPlaceLine {
  constructor(private readonly write: (data: string) => void) {}

  /** Back to column 0, erases the line and writes `text` (which must fit the width: a wrapped line leaves a copy behind). */
  show(text: string): void {
    this.write(TERMINAL_SEQUENCES.eraseLine + text)
  }

  /** Back to column 0 and erases the line. */
  erase(): void {
    this.write(TERMINAL_SEQUENCES.eraseLine)
  }
}
