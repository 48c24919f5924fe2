// Where text leaves the cursor on a terminal row (SPEC §18 "Type to queue":
// the answer keeps printing above an open prompt, continuing its unfinished
// line). Pure: the cells of the text's last line, escape sequences counted
// as nothing, tabs to the next multiple of 8, East Asian wide characters and
// emoji as two cells (string-width, as the prompts measure).
import stringWidth from 'string-width'

// Printable ASCII only: one cell a character.
// eslint-disable-next-line no-control-regex
const PLAIN = /^[\x20-\x7e]*$/
const TAB = 8

/**
 * The cells of the last line of `text` once written from `start` cells into
 * a line: counted from 0 after the text's last newline, else from `start`.
 * Logical cells: a line longer than the terminal is wider than it (take it
 * modulo the width for the cursor's column).
 */
export function lineCellsAfter(text: string, start: number): number {
  const nl = text.lastIndexOf('\n')
  const tail = nl >= 0 ? text.slice(nl + 1) : text
  let cells = nl >= 0 ? 0 : start
  if (tail === '') return cells
  if (PLAIN.test(tail)) return cells + tail.length
  const parts = tail.split('\t')
  for (const [i, part] of parts.entries()) {
    if (i > 0) cells = (Math.floor(cells / TAB) + 1) * TAB
    if (part !== '') cells += stringWidth(part, {countAnsiEscapeCodes: false})
  }
  return cells
}
