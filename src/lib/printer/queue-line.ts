// The queued reply's line (SPEC §19): while a reply is queued and not yet
// delivered, one dim line at the bottom of the terminal says so —
// `⧗ queued: FIRST LINE · q to edit` — and the answer keeps printing above
// it. It is a footer of the terminal owner (terminal/owner.ts): cleared and
// drawn again around anything printed, set aside while a prompt is open.
// The status line (`⏱ …`), when it ticks meanwhile, is drawn on the row
// below it, so the two never fight over one row and the status's ticks
// never redraw it. The line itself is drawn again only when its text
// changes (or to make room for printed text above it).
import type {Footer} from '../terminal/owner.js'
import {ERASE_BELOW, TERMINAL_SEQUENCES} from '../terminal/sequences.js'
import {clipToCells} from './status-line.js'

const DIM = '\u001b[2m'
const NORMAL = '\u001b[22m'
const PREFIX = '⧗ queued: '
const SUFFIX = ' · q to edit'

/** `⧗ queued: FIRST LINE · q to edit`, the first line cut (with `…`) so that the whole fits `cells` columns. */
export function queueLineText(text: string, cells: number): string {
  const first = text.split('\n').find((l) => l.trim() !== '') ?? ''
  const room = cells - cellsOf(PREFIX) - cellsOf(SUFFIX)
  const whole = `${PREFIX}${first}${SUFFIX}`
  if (clipToCells(whole, cells) === whole) return whole
  if (room < 2) return clipToCells(whole, cells)
  return `${PREFIX}${clipToCells(first, room - 1)}…${SUFFIX}`
}

/** Cells as clipToCells counts them (conservatively: U+1100 and above as two). */
function cellsOf(text: string): number {
  let n = 0
  for (const ch of text) n += ch.codePointAt(0)! >= 0x1100 ? 2 : 1
  return n
}

export interface QueueLineOptions {
  /** The terminal, written synchronously. */
  write: (data: string) => void
  columns: () => number | undefined
  /** Dim (SGR 2) unless colour is off (`NO_COLOR`): then plain text. */
  color: boolean
}

export class QueueLine implements Footer {
  private status: string | undefined
  /** Rows on the screen now (0: not drawn; 2: the status row below the line); the cursor rests at column 0 of the last. */
  private rows = 0

  /** `text`: what is queued, already sanitized. */
  constructor(
    private text: string,
    private readonly options: QueueLineOptions,
  ) {}

  /** The queued text changed: drawn again only if it looks different. */
  update(text: string): void {
    if (text === this.text) return
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
    const status = this.status === undefined ? '' : `\r\n${this.statusRow(this.status)}`
    this.options.write(`${this.line()}${status}\r`)
    this.rows = this.status === undefined ? 1 : 2
  }

  /** The status row comes, ticks and goes below the line: the line itself is never drawn again for it. */
  setStatus(text: string | undefined): void {
    if (text === this.status) return
    const had = this.status !== undefined
    this.status = text
    if (this.rows === 0) return
    if (text === undefined) {
      this.options.write(`${TERMINAL_SEQUENCES.eraseLine}\u001b[A`)
      this.rows = 1
    } else {
      this.options.write(`${had ? TERMINAL_SEQUENCES.eraseLine : '\r\n'}${this.statusRow(text)}\r`)
      this.rows = 2
    }
  }

  private statusRow(text: string): string {
    return clipToCells(text, this.cells())
  }

  private cells(): number {
    return Math.max(10, (this.options.columns() ?? 80) - 1)
  }

  private line(): string {
    const plain = queueLineText(this.text, this.cells())
    return this.options.color ? `${DIM}${plain}${NORMAL}` : plain
  }
}
