// The bytes of a footer of the terminal owner (owner.ts `showFooter`): one
// line kept at the bottom while no prompt is open (the queued reply's line,
// SPEC §19), and the status line's row below it while one ticks. The cursor
// rests at column 0 of the last row drawn, so clearing needs no idea of
// where it is. Drawn again only when its text changes; the status row comes,
// ticks and goes without touching the line.
import type {Footer} from './owner.js'
import {ERASE_BELOW, TERMINAL_SEQUENCES} from './sequences.js'

const DIM = '\u001b[2m'
const NORMAL = '\u001b[22m'

export interface FooterLinesOptions {
  /** The terminal, written synchronously. */
  write: (data: string) => void
  /** Fits a text to the terminal's width (a wrapped row would leave copies behind). */
  fit: (text: string) => string
  /** The line as shown for its text (default: fitted); called at each draw, so a resize is taken into account. */
  format?: (text: string) => string
  /** Dim (SGR 2); plain when colour is off. */
  dim: boolean
}

export class FooterLines implements Footer {
  private status: string | undefined
  /** Rows on the screen now (0: not drawn; 2: the status row below the line). */
  private rows = 0

  constructor(
    private text: string,
    private readonly options: FooterLinesOptions,
  ) {}

  /** The line's text changed: drawn again only if it looks different. */
  update(text: string): void {
    const before = this.line()
    this.text = text
    if (this.rows > 0 && this.line() !== before) {
      this.clear()
      this.redraw()
    }
  }

  clear(): void {
    if (this.rows === 0) return
    this.options.write(`\r${this.rows > 1 ? `\u001b[${this.rows - 1}A` : ''}${ERASE_BELOW}`)
    this.rows = 0
  }

  redraw(): void {
    const status = this.status === undefined ? '' : `\r\n${this.options.fit(this.status)}`
    this.options.write(`${this.line()}${status}\r`)
    this.rows = this.status === undefined ? 1 : 2
  }

  setStatus(text: string | undefined): void {
    if (text === this.status) return
    const had = this.status !== undefined
    this.status = text
    if (this.rows === 0) return
    if (text === undefined) {
      this.options.write(`${TERMINAL_SEQUENCES.eraseLine}\u001b[A`)
      this.rows = 1
    } else {
      this.options.write(`${had ? TERMINAL_SEQUENCES.eraseLine : '\r\n'}${this.options.fit(text)}\r`)
      this.rows = 2
    }
  }

  private line(): string {
    const plain = (this.options.format ?? this.options.fit)(this.text)
    return this.options.dim ? `${DIM}${plain}${NORMAL}` : plain
  }
}
