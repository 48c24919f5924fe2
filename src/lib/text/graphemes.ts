// The one grapheme segmenter the process shares, built on first use. The
// first `new Intl.Segmenter` of a process loads ICU's break-iterator data
// (tens of ms on a busy machine; later ones are free), so building it at
// module load made every run pay for it, a piped `jp query` or `--help`
// included, though only key decoding, line editing and wrapping use it.
let segmenter: Intl.Segmenter | undefined

/** The shared grapheme-cluster segmenter (default locale), built the first time it is asked for. */
export function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, {granularity: 'grapheme'})
  return segmenter
}

/** One grapheme cluster of a text and where it starts (UTF-16 offset). */
export interface GraphemeSegment {
  index: number
  segment: string
}

/**
 * Characters each of which is one grapheme cluster and one terminal cell
 * whatever surrounds it: printable ASCII, Latin-1 and the Latin extensions up
 * to U+02FF (not the soft hyphen, which takes no cell), general punctuation
 * (dashes, quotes, bullets, the ellipsis; not the invisible controls and
 * spaces around them) and arrows. No rule of UAX #29 joins two of them (the
 * one ASCII pair, CR LF, is not printable); combining marks start at U+0300,
 * so text of these alone has no cluster longer than a character.
 * test/text/graphemes.test.ts checks every one against Intl.Segmenter and
 * string-width. Prompt chrome ("Enter to send · …") and typed ASCII are such
 * text: measuring and editing them loads no ICU break-iterator data.
 */
const SIMPLE = /^[\x20-\x7e\xa0-\xac\xae-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u21ff]*$/

/** Whether every character of `text` is a grapheme of its own, one cell wide (SIMPLE). */
export function isSimpleText(text: string): boolean {
  return SIMPLE.test(text)
}

/**
 * The grapheme clusters of `text`: simple text (typed keys, the prompt's
 * own chrome) split by character without the segmenter, so a prompt whose
 * input is such text never builds one; anything else through the shared segmenter.
 */
export function graphemeSegments(text: string): Iterable<GraphemeSegment> {
  if (SIMPLE.test(text)) return Array.from(text, (segment, index) => ({index, segment}))
  return graphemeSegmenter().segment(text)
}
