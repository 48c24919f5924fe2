// Where text leaves the cursor on a terminal (SPEC §18 "Type to queue": the
// answer keeps printing above an open prompt, continuing its unfinished
// line). Pure: the cursor's column on its row after `text`, as a terminal
// moves it — escape sequences take no cells, a tab goes to the next stop of
// 8 (at most the last column), East Asian wide characters and emoji take two (string-width, as the
// prompts measure), a character that does not fit on the row wraps to the
// next one (a wide one leaving the last cell blank), and a row filled to its
// last column leaves the cursor there, the wrap pending until the next
// character (a newline then ends that row, it adds no blank one).
import stringWidth from 'string-width'
import {graphemeSegments, isSimpleText} from '../text/graphemes.js'

/** The cursor on the current line: `column` 0..width (width: the row is full, the wrap pending); `open`: text since the last newline. */
export interface LinePosition {
  column: number
  open: boolean
}

export const LINE_START: LinePosition = {column: 0, open: false}

// CSI (SGR and the like), OSC (OSC 8 links) and any other ESC pair: no cells.
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[^[\]]/g
const TAB = 8

/** Where the cursor is after writing `text` from `from` on a terminal `width` columns wide. */
export function advance(text: string, from: LinePosition, width: number): LinePosition {
  const cols = Math.max(1, width)
  const nl = text.lastIndexOf('\n')
  const tail = nl >= 0 ? text.slice(nl + 1) : text
  let column = nl >= 0 ? 0 : Math.min(from.column, cols)
  const open = nl >= 0 ? false : from.open
  if (tail === '') return {column, open}
  if (isSimpleText(tail)) {
    const end = column + tail.length
    return {column: end <= cols ? end : ((end - cols - 1) % cols) + 1, open: true}
  }
  for (const {segment} of graphemeSegments(tail.replace(ESCAPES, ''))) {
    if (segment === '\t') {
      // To the next stop, never past the last column (a tab does not wrap).
      column = Math.min(cols - 1, (Math.floor(column / TAB) + 1) * TAB)
      continue
    }
    const w = stringWidth(segment)
    if (w === 0) continue
    if (column + w > cols) column = 0
    column += w
  }
  return {column, open: true}
}
