// The cursor work of the printer's live region (a table being read, drawn
// below the answer and redrawn as it grows): the terminal layer spells the
// sequences (SPEC §18), the printer decides when.
import {ERASE_BELOW} from './sequences.js'

/** Back to the start of the row `rows` above (the first of a live region the cursor is below), erasing from there down. */
export function eraseRowsAbove(rows: number): string {
  return `\r\u001b[${rows}A${ERASE_BELOW}`
}
