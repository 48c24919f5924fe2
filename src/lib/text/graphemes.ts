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

// Printable ASCII only: every character is a cluster of its own (no rule of
// UAX #29 joins two of them; CR LF is the one ASCII pair, and it is not printable).
// eslint-disable-next-line no-control-regex
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

/**
 * The grapheme clusters of `text`: printable ASCII (typed keys, the prompt's
 * own text) split by character without the segmenter, so a prompt whose
 * input is ASCII never loads ICU's break-iterator data; anything else
 * through the shared segmenter.
 */
export function graphemeSegments(text: string): Iterable<GraphemeSegment> {
  if (PRINTABLE_ASCII.test(text)) return Array.from(text, (segment, index) => ({index, segment}))
  return graphemeSegmenter().segment(text)
}
