// The queued reply's line (SPEC §19): while a reply is queued and not yet
// delivered, one dim line at the bottom of the terminal says so —
// `⧗ queued: FIRST LINE · q to edit` — and the answer keeps printing above
// it. It is a footer of the terminal owner (terminal/owner.ts): cleared and
// drawn again around anything printed, set aside while a prompt is open.
// The status line (`⏱ …`), when it ticks meanwhile, is drawn on the row
// below it, so the two never fight over one row and the status's ticks
// never redraw it. The line itself is drawn again only when its text
// changes (or to make room for printed text above it). Its bytes are the
// terminal layer's (terminal/footer-lines.ts); this is its text.
import {FooterLines} from '../terminal/footer-lines.js'
import {clipToCells} from './status-line.js'

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

/** The queued reply's line over `text` (already sanitized), drawn by the terminal layer's footer. */
export class QueueLine extends FooterLines {
  constructor(text: string, options: QueueLineOptions) {
    const cells = () => Math.max(10, (options.columns() ?? 80) - 1)
    super(text, {write: options.write, dim: options.color, fit: (t) => clipToCells(t, cells()), format: (t) => queueLineText(t, cells())})
  }
}
