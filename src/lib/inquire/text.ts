// Grapheme segmentation and terminal display width: the two facts every
// motion, deletion and render step needs. Width follows East-Asian width via
// string-width (emoji and ZWJ sequences are two cells, combining marks zero).
import stringWidth from 'string-width'
import {graphemeSegments, isSimpleText} from '../text/graphemes.js'


/** The grapheme clusters of `text`, in order. */
export function graphemes(text: string): string[] {
  const out: string[] = []
  for (const {segment} of graphemeSegments(text)) out.push(segment)
  return out
}

/** UTF-16 offsets of every grapheme boundary of `text`, including 0 and text.length. */
export function graphemeBoundaries(text: string): number[] {
  const out: number[] = []
  for (const {index} of graphemeSegments(text)) out.push(index)
  out.push(text.length)
  return out
}

/** Terminal cells occupied by `text` (no control characters expected). */
export function displayWidth(text: string): number {
  // One cell a character, known without string-width's segmenter (text/graphemes.ts).
  if (isSimpleText(text)) return text.length
  return stringWidth(text, {countAnsiEscapeCodes: false})
}
