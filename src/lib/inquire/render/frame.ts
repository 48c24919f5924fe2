// Pure: the reply prompt as a list of screen rows plus the cursor — the
// message and the buffer's first row, continuation rows prefixed `… `, then
// the help line — cut to a viewport around the cursor when the buffer is
// taller than the terminal.
import {displayWidth, graphemes} from '../text.js'
import {cursorIn, type LineLayoutCache, type WrappedLine} from './layout.js'

export interface ReplyView {
  /** The prompt line (the last line of the message; earlier lines are printed once, above). */
  message: string
  text: string
  /** UTF-16 offset into `text`. */
  cursor: number
  /** The help line; undefined hides it. */
  help?: string
  /** Drawn dim where the buffer's text would start while the buffer is empty. */
  placeholder?: string
  width: number
  height: number
  color: boolean
}

export interface Frame {
  /** Rows to draw, escape-styled; each fits in `width` cells. */
  rows: string[]
  /** Cells each row occupies. */
  widths: number[]
  cursorRow: number
  cursorCol: number
  /** First buffer row shown (state to carry into the next frame). */
  scrollTop: number
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
 * row (the final paint after submit).
 */
export function buildFrame(view: ReplyView, cache: LineLayoutCache, scrollTop = 0, viewport = true): Frame {
  const width = Math.max(4, view.width)
  const contPrefix = dim(CONTINUATION_PREFIX, view.color)
  const restWidth = width - CONTINUATION_WIDTH

  // Header: the message shares the first buffer row when there is room.
  const messageWidth = displayWidth(view.message)
  const headRows: string[] = []
  const headWidths: number[] = []
  let firstPrefix = contPrefix
  let firstPrefixWidth = CONTINUATION_WIDTH
  if (view.message !== '') {
    if (messageWidth + 1 + MIN_FIRST_ROW <= width) {
      firstPrefix = bold(view.message, view.color) + ' '
      firstPrefixWidth = messageWidth + 1
    } else {
      const shown = truncate(view.message, width - 1)
      headRows.push(bold(shown.text, view.color))
      headWidths.push(shown.width)
    }
  }

  const sig = `${width}|${firstPrefixWidth}|${view.color}|${view.message}`
  const body = layoutBody(view.text, sig, cache, width - firstPrefixWidth, restWidth, firstPrefix, firstPrefixWidth, contPrefix)
  let {rows: bodyRows, widths: bodyWidths} = body
  if (view.text === '' && view.placeholder) {
    // A copy: the cached body must stay the buffer's own rows.
    const shown = truncate(view.placeholder, Math.max(1, width - firstPrefixWidth - 1))
    bodyRows = [firstPrefix + dim(shown.text, view.color), ...bodyRows.slice(1)]
    bodyWidths = [firstPrefixWidth + shown.width, ...bodyWidths.slice(1)]
  }
  // The line holding the cursor: the last one whose start is at or before it.
  let li = body.lineStarts.length - 1
  while (li > 0 && body.lineStarts[li] > view.cursor) li--
  const wrapped = body.wrapped[li]
  const at = cursorIn(wrapped, view.cursor - body.lineStarts[li])
  const cursorRow = body.lineRows[li] + at.row
  const cursorCol = (li === 0 && at.row === 0 ? firstPrefixWidth : CONTINUATION_WIDTH) + at.col

  const rows = [...headRows]
  const widths = [...headWidths]
  let top = 0
  const helpRows: string[] = []
  const helpWidths: number[] = []
  if (view.help !== undefined) {
    const help = truncate(view.help, width - 1)
    helpRows.push(dim(help.text, view.color))
    helpWidths.push(help.width)
  }

  // The viewport scrolls the header and body together; the help row stays.
  const scrollable = headRows.length === 0 ? bodyRows : [...headRows, ...bodyRows]
  const scrollableWidths = headRows.length === 0 ? bodyWidths : [...headWidths, ...bodyWidths]
  const cursorAt = headRows.length + cursorRow
  const room = Math.max(1, view.height - helpRows.length)
  rows.length = 0
  widths.length = 0
  if (!viewport || scrollable.length <= room) {
    rows.push(...scrollable)
    widths.push(...scrollableWidths)
  } else {
    top = Math.min(Math.max(0, scrollTop), scrollable.length - room)
    if (cursorAt < top) top = cursorAt
    if (cursorAt >= top + room) top = cursorAt - room + 1
    rows.push(...scrollable.slice(top, top + room))
    widths.push(...scrollableWidths.slice(top, top + room))
  }
  rows.push(...helpRows)
  widths.push(...helpWidths)
  return {rows, widths, cursorRow: cursorAt - top, cursorCol, scrollTop: top}
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

interface Body {
  sig: string
  text: string
  lines: string[]
  lineStarts: number[]
  /** Index of each line's first row in `rows`. */
  lineRows: number[]
  wrapped: WrappedLine[]
  rows: string[]
  widths: number[]
}

const bodies = new WeakMap<LineLayoutCache, Body>()

/**
 * The buffer's rows. Typing printable ASCII at the end of the buffer (the
 * common case) re-lays-out only the last line and reuses every other row
 * string, so a keystroke costs the same at 100 or 10,000 characters.
 */
function layoutBody(
  text: string,
  sig: string,
  cache: LineLayoutCache,
  firstWidth: number,
  restWidth: number,
  firstPrefix: string,
  firstPrefixWidth: number,
  contPrefix: string,
): Body {
  const prev = bodies.get(cache)
  let from = 0
  let body: Body
  if (prev && prev.sig === sig && text.length > prev.text.length && text.startsWith(prev.text) && /^[\x20-\x7e]+$/.test(text.slice(prev.text.length))) {
    from = prev.lines.length - 1
    const lines = prev.lines.slice()
    lines[from] += text.slice(prev.text.length)
    body = {
      sig,
      text,
      lines,
      lineStarts: prev.lineStarts,
      lineRows: prev.lineRows.slice(0, from),
      wrapped: prev.wrapped.slice(0, from),
      rows: prev.rows.slice(0, prev.lineRows[from]),
      widths: prev.widths.slice(0, prev.lineRows[from]),
    }
  } else {
    const lines = text.split('\n')
    const lineStarts: number[] = []
    let start = 0
    for (const line of lines) {
      lineStarts.push(start)
      start += line.length + 1
    }
    body = {sig, text, lines, lineStarts, lineRows: [], wrapped: [], rows: [], widths: []}
  }
  for (let li = from; li < body.lines.length; li++) {
    const wrapped = cache.get(body.lines[li], li === 0 ? firstWidth : restWidth, restWidth)
    body.lineRows.push(body.rows.length)
    body.wrapped.push(wrapped)
    for (let r = 0; r < wrapped.rows.length; r++) {
      const row = wrapped.rows[r]
      const first = li === 0 && r === 0
      body.rows.push((first ? firstPrefix : contPrefix) + row.text)
      body.widths.push((first ? firstPrefixWidth : CONTINUATION_WIDTH) + row.width)
    }
  }
  bodies.set(cache, body)
  return body
}
