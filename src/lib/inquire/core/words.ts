// Word boundaries over grapheme clusters. Two word notions, as in readline:
// "alphanumeric" words (letters and digits; Alt+B/F/D/Backspace, Alt+U/L/C)
// and "whitespace" words (anything but whitespace; Ctrl+W). Vi adds its own
// small-word classes (keyword characters vs punctuation) in `viClass`.
import {graphemeSegments} from '../../text/graphemes.js'

export interface Segment {
  /** UTF-16 offset of the grapheme. */
  index: number
  segment: string
}


export function segments(text: string): Segment[] {
  const out: Segment[] = []
  for (const {index, segment} of graphemeSegments(text)) out.push({index, segment})
  return out
}

/** Letters and digits in any script; a grapheme counts by its base character. */
export function isWordChar(g: string): boolean {
  return /^[\p{L}\p{N}]/u.test(g)
}

export function isSpace(g: string): boolean {
  return /^\s/u.test(g)
}

/** Vi character classes for w/b/e: 0 whitespace, 1 keyword (alnum and _), 2 other. */
export function viClass(g: string): 0 | 1 | 2 {
  if (isSpace(g)) return 0
  if (g === '_' || isWordChar(g)) return 1
  return 2
}

/** Index into `segs` of the grapheme starting at `offset` (segs.length at the end). */
function position(segs: Segment[], offset: number): number {
  let lo = 0
  let hi = segs.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (segs[mid].index < offset) lo = mid + 1
    else hi = mid
  }
  return lo
}

function offsetAt(segs: Segment[], i: number, text: string): number {
  return i >= segs.length ? text.length : segs[i].index
}

/** readline forward-word: skip non-word characters, then word characters. */
export function wordEnd(text: string, offset: number, inWord: (g: string) => boolean = isWordChar): number {
  const segs = segments(text)
  let i = position(segs, offset)
  while (i < segs.length && !inWord(segs[i].segment)) i++
  while (i < segs.length && inWord(segs[i].segment)) i++
  return offsetAt(segs, i, text)
}

/** readline backward-word: skip non-word characters back, then word characters. */
export function wordStart(text: string, offset: number, inWord: (g: string) => boolean = isWordChar): number {
  const segs = segments(text)
  let i = position(segs, offset)
  while (i > 0 && !inWord(segs[i - 1].segment)) i--
  while (i > 0 && inWord(segs[i - 1].segment)) i--
  return offsetAt(segs, i, text)
}

/** Start of the whitespace-delimited word left of `offset` (unix-word-rubout). */
export function bigWordStart(text: string, offset: number): number {
  return wordStart(text, offset, (g) => !isSpace(g))
}

/** vi `w`: start of the next word (class change, skipping whitespace). */
export function viNextWordStart(text: string, offset: number): number {
  const segs = segments(text)
  let i = position(segs, offset)
  if (i >= segs.length) return text.length
  const cls = viClass(segs[i].segment)
  if (cls !== 0) while (i < segs.length && viClass(segs[i].segment) === cls) i++
  while (i < segs.length && viClass(segs[i].segment) === 0 && segs[i].segment !== '\n') i++
  return offsetAt(segs, i, text)
}

/** vi `e`: the last grapheme of the current or next word. */
export function viWordEnd(text: string, offset: number): number {
  const segs = segments(text)
  let i = position(segs, offset) + 1
  while (i < segs.length && viClass(segs[i].segment) === 0) i++
  if (i >= segs.length) return segs.length > 0 ? segs[segs.length - 1].index : 0
  const cls = viClass(segs[i].segment)
  while (i + 1 < segs.length && viClass(segs[i + 1].segment) === cls) i++
  return segs[i].index
}

/** vi `b`: start of the current or previous word. */
export function viPrevWordStart(text: string, offset: number): number {
  const segs = segments(text)
  let i = position(segs, offset)
  while (i > 0 && viClass(segs[i - 1].segment) === 0) i--
  if (i === 0) return 0
  const cls = viClass(segs[i - 1].segment)
  while (i > 0 && viClass(segs[i - 1].segment) === cls) i--
  return offsetAt(segs, i, text)
}

/** End of the current word for vi `cw` (no trailing whitespace); offset past it. */
export function viChangeWordEnd(text: string, offset: number): number {
  const segs = segments(text)
  let i = position(segs, offset)
  if (i >= segs.length) return text.length
  const cls = viClass(segs[i].segment)
  while (i < segs.length && viClass(segs[i].segment) === cls && segs[i].segment !== '\n') i++
  return offsetAt(segs, i, text)
}
